// SPDX-License-Identifier: Apache-2.0
// transpose_avx2.hpp (internal): the CopyTransposed routines of the AVX2 and AVX-512 kernel
// files (included by both; compiled with their flags, AVX2 at least).
//
// dst (m x k, column-major, ld m) = the transpose of the k x m column-major `a` (lda): square
// blocks of 4 are loaded as rows of op(A), transposed in registers and stored as columns of
// dst; the edges are copied one element at a time. Scalar copies of a transposed operand stall
// on every element where the strided loads alias the stores (4 cycles an element measured on
// Zen 3, docs/perf/small.md); four vectors per block move the same data in 8 memory ops.
#pragma once

#include <immintrin.h>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {
namespace {

template <class T>
void copy_edges(index_t m, index_t k, index_t m4, index_t k4, const T* a, index_t lda, T* dst) {
  for (index_t p = 0; p < k; ++p) {
    for (index_t i = p < k4 ? m4 : 0; i < m; ++i) {
      dst[i + p * m] = a[p + i * lda];
    }
  }
}

inline void transpose_copy_d(index_t m, index_t k, const double* a, index_t lda, double* dst) {
  const index_t m4 = m / 4 * 4;
  const index_t k4 = k / 4 * 4;
  for (index_t p = 0; p < k4; p += 4) {
    for (index_t i = 0; i < m4; i += 4) {
      const double* row = a + p + i * lda;
      const __m256d v0 = _mm256_loadu_pd(row);
      const __m256d v1 = _mm256_loadu_pd(row + lda);
      const __m256d v2 = _mm256_loadu_pd(row + 2 * lda);
      const __m256d v3 = _mm256_loadu_pd(row + 3 * lda);
      const __m256d t0 = _mm256_unpacklo_pd(v0, v1);
      const __m256d t1 = _mm256_unpackhi_pd(v0, v1);
      const __m256d t2 = _mm256_unpacklo_pd(v2, v3);
      const __m256d t3 = _mm256_unpackhi_pd(v2, v3);
      double* col = dst + i + p * m;
      _mm256_storeu_pd(col, _mm256_permute2f128_pd(t0, t2, 0x20));
      _mm256_storeu_pd(col + m, _mm256_permute2f128_pd(t1, t3, 0x20));
      _mm256_storeu_pd(col + 2 * m, _mm256_permute2f128_pd(t0, t2, 0x31));
      _mm256_storeu_pd(col + 3 * m, _mm256_permute2f128_pd(t1, t3, 0x31));
    }
  }
  copy_edges(m, k, m4, k4, a, lda, dst);
}

inline void transpose_copy_s(index_t m, index_t k, const float* a, index_t lda, float* dst) {
  const index_t m4 = m / 4 * 4;
  const index_t k4 = k / 4 * 4;
  for (index_t p = 0; p < k4; p += 4) {
    for (index_t i = 0; i < m4; i += 4) {
      const float* row = a + p + i * lda;
      __m128 v0 = _mm_loadu_ps(row);
      __m128 v1 = _mm_loadu_ps(row + lda);
      __m128 v2 = _mm_loadu_ps(row + 2 * lda);
      __m128 v3 = _mm_loadu_ps(row + 3 * lda);
      _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
      float* col = dst + i + p * m;
      _mm_storeu_ps(col, v0);
      _mm_storeu_ps(col + m, v1);
      _mm_storeu_ps(col + 2 * m, v2);
      _mm_storeu_ps(col + 3 * m, v3);
    }
  }
  copy_edges(m, k, m4, k4, a, lda, dst);
}

}  // namespace
}  // namespace teamla::linalg::detail
