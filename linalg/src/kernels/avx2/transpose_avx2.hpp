// SPDX-License-Identifier: Apache-2.0
// transpose_avx2.hpp (internal): the CopyTransposed routines of the AVX2 and AVX-512 kernel
// files (included by both; compiled with their flags, AVX2 at least).
//
// dst (column-major, ld ldd >= m rounded up to 8) = the transpose of the k x m column-major `a`
// (lda). Blocks of 4 (double) or 8 (float) rows of op(A) are loaded (masked past column k, zero
// past row m) through Avx2Ops, transposed in registers and stored as whole 256-bit columns of
// dst, rows past m included. Whole-vector stores matter twice: scalar copies stalled on every
// element where the strided loads aliased the stores (4 cycles an element), and the kernel's
// 256-bit loads that followed narrower stores could not be forwarded from them
// (docs/perf/blocking.md).
#pragma once

#include <immintrin.h>

#include <algorithm>

#include "kernels/avx2/ops_avx2.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {
namespace {

// transpose_block(): w[c] = column c of the 4 x 4 block whose rows are v.
inline void transpose_block(const __m256d (&v)[4], __m256d (&w)[4]) {
  const __m256d t0 = _mm256_unpacklo_pd(v[0], v[1]);
  const __m256d t1 = _mm256_unpackhi_pd(v[0], v[1]);
  const __m256d t2 = _mm256_unpacklo_pd(v[2], v[3]);
  const __m256d t3 = _mm256_unpackhi_pd(v[2], v[3]);
  w[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
  w[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  w[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
  w[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

// transpose_block(): w[c] = column c of the 8 x 8 block whose rows are v.
inline void transpose_block(const __m256 (&v)[8], __m256 (&w)[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]);
  const __m256 t1 = _mm256_unpackhi_ps(v[0], v[1]);
  const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]);
  const __m256 t3 = _mm256_unpackhi_ps(v[2], v[3]);
  const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]);
  const __m256 t5 = _mm256_unpackhi_ps(v[4], v[5]);
  const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]);
  const __m256 t7 = _mm256_unpackhi_ps(v[6], v[7]);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  w[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  w[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  w[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  w[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  w[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  w[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  w[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  w[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

template <class T>
void transpose_copy(index_t m, index_t k, const T* a, index_t lda, T* dst, index_t ldd) {
  using Ops = Avx2Ops<T>;
  constexpr int kL = Ops::kLanes;
  for (index_t p0 = 0; p0 < k; p0 += kL) {
    const int cols = static_cast<int>(std::min<index_t>(kL, k - p0));
    const typename Ops::Mask mask = Ops::mask_of(cols);
    for (index_t i0 = 0; i0 < m; i0 += kL) {
      typename Ops::V v[kL];
      for (int r = 0; r < kL; ++r) {
        const T* row = a + p0 + (i0 + r) * lda;
        v[r] =
            i0 + r >= m ? Ops::zero() : (cols == kL ? Ops::load(row) : Ops::load_masked(row, mask));
      }
      typename Ops::V w[kL];
      transpose_block(v, w);
      for (int c = 0; c < cols; ++c) Ops::store(dst + i0 + (p0 + c) * ldd, w[c]);
    }
  }
}

}  // namespace
}  // namespace teamla::linalg::detail
