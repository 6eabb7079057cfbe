// SPDX-License-Identifier: Apache-2.0
// level2_update.hpp (internal): the rank-1 and rank-2 column updates of ger, syr, syr2, her and
// her2 (level2_body.hpp).
//
// A column is read and written once; u stays in cache. The drivers fold alpha and any
// conjugation into u and w, so one loop serves every routine.
#pragma once

#include "kernels/level2_scalar.hpp"

namespace teamla::linalg::detail::level2_body {

template <class Tag, class R>
void rank_update_real(index_t m, index_t n, const R* u1, const R* w1, const R* u2, const R* w2,
                      R* a, index_t lda) {
  for (index_t j = 0; j < n; ++j) {
    R* __restrict c = a + j * lda;
    const R w1j = w1[j];
    if (u2 == nullptr) {
#pragma omp simd
      for (index_t i = 0; i < m; ++i) c[i] += u1[i] * w1j;
    } else {
      const R w2j = w2[j];
#pragma omp simd
      for (index_t i = 0; i < m; ++i) {
        R t = c[i];
        t += u1[i] * w1j;
        t += u2[i] * w2j;
        c[i] = t;
      }
    }
  }
}

// rank_update_complex(): the same on interleaved reals: (ur, ui) * (wr, wi) written out.
template <class Tag, class R>
void rank_update_complex(index_t m, index_t n, const R* u1, const R* w1, const R* u2, const R* w2,
                         R* a, index_t lda) {
  for (index_t j = 0; j < n; ++j) {
    R* __restrict c = a + 2 * j * lda;
    const R w1r = w1[2 * j], w1i = w1[2 * j + 1];
    if (u2 == nullptr) {
#pragma omp simd
      for (index_t i = 0; i < m; ++i) {
        const R ur = u1[2 * i], ui = u1[2 * i + 1];
        c[2 * i] += ur * w1r - ui * w1i;
        c[2 * i + 1] += ur * w1i + ui * w1r;
      }
    } else {
      const R w2r = w2[2 * j], w2i = w2[2 * j + 1];
#pragma omp simd
      for (index_t i = 0; i < m; ++i) {
        const R ur = u1[2 * i], ui = u1[2 * i + 1];
        const R vr = u2[2 * i], vi = u2[2 * i + 1];
        c[2 * i] += (ur * w1r - ui * w1i) + (vr * w2r - vi * w2i);
        c[2 * i + 1] += (ur * w1i + ui * w1r) + (vr * w2i + vi * w2r);
      }
    }
  }
}

template <class Tag, class T>
void rank_update(index_t m, index_t n, const T* u1, const T* w1, const T* u2, const T* w2, T* a,
                 index_t lda) {
  if constexpr (is_complex_v<T>) {
    rank_update_complex<Tag>(m, n, reals(u1), reals(w1), u2 == nullptr ? nullptr : reals(u2),
                             w2 == nullptr ? nullptr : reals(w2), reals(a), lda);
  } else {
    rank_update_real<Tag>(m, n, u1, w1, u2, w2, a, lda);
  }
}

}  // namespace teamla::linalg::detail::level2_body
