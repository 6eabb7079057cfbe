// SPDX-License-Identifier: Apache-2.0
// complex_lu_leaf.hpp: the unblocked LU of getrf's narrowest complex panels, LAPACK's zgetf2,
// compiled once per ISA in its leaf table (kernels/chol_leaf.hpp) as the real getf2 is.
//
// LAPACK to the letter: the pivot is the first entry of largest |re| + |im| (izamax's dcabs1;
// NaN is never larger), a zero pivot is recorded and skipped, and the column below a pivot is
// scaled by its reciprocal, or divided by it when |pivot| is below the safe minimum.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <utility>

#include "kernels/complex_vector.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

template <class Isa>
struct ComplexLuLeaf {
  using Vector = ComplexVector<Isa>;

  // getf2_columns(): getf2() on the leaf's interleaved real and imaginary parts, the step
  // from one row to the next a compile-time 2 reals (column-major: the loops run at unit stride on
  // plain reals; on std::complex elements the loop kept its factor in memory and stalled on it) or
  // any (kStep = 0).
  template <class R, index_t kStep>
  static index_t getf2_columns(std::complex<R>* a, index_t m, index_t n, index_t rs, index_t cs,
                               int* ipiv, index_t base) {
    using Cx = std::complex<R>;
    R* const reals = reinterpret_cast<R*>(a);
    const index_t step = 2 * rs;  // reals from one row to the next
    const auto at = [&](index_t i, index_t j) { return reals + 2 * (i * rs + j * cs); };
    const R safe_min = std::numeric_limits<R>::min();
    index_t info = 0;
    for (index_t j = 0; j < n; ++j) {
      const R* column = at(j, j);
      index_t p = 0;
      R best = std::fabs(column[0]) + std::fabs(column[1]);
      for (index_t i = 1; i < m - j; ++i) {
        const R magnitude = std::fabs(column[i * step]) + std::fabs(column[i * step + 1]);
        if (magnitude > best) {
          best = magnitude;
          p = i;
        }
      }
      p += j;
      ipiv[j] = static_cast<int>(base + p + 1);
      const Cx pivot(at(p, j)[0], at(p, j)[1]);
      if (pivot != Cx(0)) {
        if (p != j) {
          for (index_t c = 0; c < n; ++c) {
            std::swap(at(j, c)[0], at(p, c)[0]);
            std::swap(at(j, c)[1], at(p, c)[1]);
          }
        }
        if (std::abs(pivot) >= safe_min) {
          const Cx r = Cx(1) / pivot;
          Vector::template scale<R, kStep>(at(j + 1, j), m - j - 1, step, r.real(), r.imag());
        } else {
          for (index_t i = j + 1; i < m; ++i) {
            Cx x(at(i, j)[0], at(i, j)[1]);
            x /= pivot;
            at(i, j)[0] = x.real();
            at(i, j)[1] = x.imag();
          }
        }
      } else if (info == 0) {
        info = j + 1;
      }
      // The rank-1 update of the leaf's later columns: A22 -= l21 * u12; as zgeru, a zero u skips
      // its column.
      for (index_t c = j + 1; c < n; ++c) {
        const R ur = at(j, c)[0];
        const R ui = at(j, c)[1];
        if (ur == R(0) && ui == R(0)) continue;
        Vector::template subtract_scaled<R, kStep>(at(j + 1, c), at(j + 1, j), m - j - 1, step, ur,
                                                   ui);
      }
    }
    return info;
  }

  // getf2(): a (m x n, m >= n, element (i, j) at a[i * rs + j * cs]) factored in place;
  // ipiv[j] = base + 1 + the row of column j's pivot. Returns the 1-based column of the first
  // zero pivot, or 0.
  template <class R>
  static index_t getf2(std::complex<R>* a, index_t m, index_t n, index_t rs, index_t cs, int* ipiv,
                       index_t base) {
    if (rs == 1) return getf2_columns<R, 2>(a, m, n, rs, cs, ipiv, base);
    return getf2_columns<R, 0>(a, m, n, rs, cs, ipiv, base);
  }
};

}  // namespace teamla::linalg::level3_detail
