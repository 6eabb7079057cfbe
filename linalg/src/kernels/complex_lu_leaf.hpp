// SPDX-License-Identifier: Apache-2.0
// complex_lu_leaf.hpp: the unblocked LU of getrf's narrowest complex panels, LAPACK's zgetf2,
// portable (the complex leaves' flops are a few percent of a factorization's: the rest is in
// the complex product).
//
// LAPACK to the letter: the pivot is the first entry of largest |re| + |im| (izamax's dcabs1;
// NaN is never larger), a zero pivot is recorded and skipped, and the column below a pivot is
// scaled by its reciprocal, or divided by it when |pivot| is below the safe minimum.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <utility>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

// cabs1(): |re| + |im|, the magnitude izamax compares.
template <class R>
R cabs1(std::complex<R> z) {
  return std::fabs(z.real()) + std::fabs(z.imag());
}

// complex_getf2(): a (m x n, m >= n, element (i, j) at a[i * rs + j * cs]) factored in place;
// ipiv[j] = base + 1 + the row of column j's pivot. Returns the 1-based column of the first
// zero pivot, or 0.
template <class R>
index_t complex_getf2(std::complex<R>* a, index_t m, index_t n, index_t rs, index_t cs, int* ipiv,
                      index_t base) {
  using Cx = std::complex<R>;
  const auto at = [&](index_t i, index_t j) -> Cx& { return a[i * rs + j * cs]; };
  const R safe_min = std::numeric_limits<R>::min();
  index_t info = 0;
  for (index_t j = 0; j < n; ++j) {
    index_t p = j;
    R best = cabs1(at(j, j));
    for (index_t i = j + 1; i < m; ++i) {
      if (cabs1(at(i, j)) > best) {
        best = cabs1(at(i, j));
        p = i;
      }
    }
    ipiv[j] = static_cast<int>(base + p + 1);
    const Cx pivot = at(p, j);
    if (pivot != Cx(0)) {
      if (p != j) {
        for (index_t c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
      }
      if (std::abs(pivot) >= safe_min) {
        const Cx r = Cx(1) / pivot;
        for (index_t i = j + 1; i < m; ++i) {
          const Cx x = at(i, j);
          at(i, j) = {x.real() * r.real() - x.imag() * r.imag(),
                      x.real() * r.imag() + x.imag() * r.real()};
        }
      } else {
        for (index_t i = j + 1; i < m; ++i) at(i, j) /= pivot;
      }
    } else if (info == 0) {
      info = j + 1;
    }
    // The rank-1 update of the leaf's later columns: A22 -= l21 * u12.
    for (index_t c = j + 1; c < n; ++c) {
      const Cx u = at(j, c);
      if (u == Cx(0)) continue;  // as zgeru: a zero skips its column
      for (index_t i = j + 1; i < m; ++i) {
        const Cx l = at(i, j);
        at(i, c) -= Cx(l.real() * u.real() - l.imag() * u.imag(),
                       l.real() * u.imag() + l.imag() * u.real());
      }
    }
  }
  return info;
}

}  // namespace teamla::linalg::level3_detail
