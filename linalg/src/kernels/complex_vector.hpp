// SPDX-License-Identifier: Apache-2.0
// complex_vector.hpp: the complex leaves' vector loops (the LU's zgetf2 in complex_lu_leaf.hpp,
// the triangular solve's substitution), written once and compiled once per ISA beside the
// Cholesky leaves (kernels/chol_leaf.hpp: `Isa` is its ISA description, so that instantiations
// never merge across ISAs).
//
// Element i of a vector is x[i * step] (re) and x[i * step + 1] (im), step a compile-time 2
// (contiguous complex elements: the loops run at unit stride on plain reals) or any (kStep = 0).
// Loops on std::complex elements kept their factor in memory and stalled on it
// (docs/perf/complex.md); on plain reals with __restrict the compiler keeps it in registers and
// vectorizes at the file's ISA width.
#pragma once

#include <complex>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

template <class Isa>
struct ComplexVector {
  // subtract_scaled(): y[i] -= x[i] * u for i in [0, count).
  template <class R, index_t kStep>
  static void subtract_scaled(R* __restrict y, const R* __restrict x, index_t count,
                              index_t step_in, R ur, R ui) {
    const index_t step = kStep > 0 ? kStep : step_in;
    for (index_t i = 0; i < count; ++i) {
      const R xr = x[i * step];
      const R xi = x[i * step + 1];
      y[i * step] -= xr * ur - xi * ui;
      y[i * step + 1] -= xr * ui + xi * ur;
    }
  }

  // scale(): x[i] *= r for i in [0, count).
  template <class R, index_t kStep>
  static void scale(R* __restrict x, index_t count, index_t step_in, R rr, R ri) {
    const index_t step = kStep > 0 ? kStep : step_in;
    for (index_t i = 0; i < count; ++i) {
      const R xr = x[i * step];
      const R xi = x[i * step + 1];
      x[i * step] = xr * rr - xi * ri;
      x[i * step + 1] = xr * ri + xi * rr;
    }
  }

  // solve_rows(): T X = B for X in place of B (n x nrhs), B's rows contiguous (element (i, j) at
  // b[i * brs + j]), T (n x n) lower or upper, unit (its diagonal not read) or not, element (i, j)
  // at t[i * trs + j * tcs], conjugated where `conj`: a row of X at a time across B's columns.
  template <class R>
  static void solve_rows(bool lower, bool unit, const std::complex<R>* t, index_t trs, index_t tcs,
                         bool conj, index_t n, std::complex<R>* b, index_t brs, index_t nrhs) {
    const auto element = [&](index_t i, index_t k) {
      const std::complex<R> z = t[i * trs + k * tcs];
      return conj ? std::conj(z) : z;
    };
    const auto row = [&](index_t i) { return reinterpret_cast<R*>(b + i * brs); };
    for (index_t s = 0; s < n; ++s) {
      const index_t i = lower ? s : n - 1 - s;
      const index_t k0 = lower ? 0 : i + 1;
      const index_t k1 = lower ? i : n;
      for (index_t k = k0; k < k1; ++k) {
        const std::complex<R> tik = element(i, k);
        subtract_scaled<R, 2>(row(i), row(k), nrhs, 2, tik.real(), tik.imag());
      }
      if (unit) continue;
      const std::complex<R> inverse = std::complex<R>(1) / element(i, i);
      scale<R, 2>(row(i), nrhs, 2, inverse.real(), inverse.imag());
    }
  }
};

}  // namespace teamla::linalg::level3_detail
