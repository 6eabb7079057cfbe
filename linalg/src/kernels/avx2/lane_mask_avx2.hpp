// SPDX-License-Identifier: Apache-2.0
// lane_mask_avx2.hpp (internal): the Mask of the AVX2 kernels' Ops (ukernel_simd.hpp).
//
// Loads under a mask use VMASKMOV; stores write the first `count` lanes with whole 128-, 64- and
// 32-bit stores instead. VMASKMOV stores are microcoded on AMD cores: with them a float 12 x 12
// product (every tile's last rows masked) took longer than 16 x 16 (docs/perf/blocking.md).
#pragma once

#include <immintrin.h>

namespace teamla::linalg::detail {
namespace {

struct LaneMask {
  __m256i bits;  // for VMASKMOV loads: lane i set when i < count
  int count;     // lanes to store
};

inline void store_first(double* p, __m256d v, int count) {
  if (count >= 4) {
    _mm256_storeu_pd(p, v);
    return;
  }
  const __m128d low = _mm256_castpd256_pd128(v);
  if (count >= 2) {
    _mm_storeu_pd(p, low);
    if (count == 3) _mm_store_sd(p + 2, _mm256_extractf128_pd(v, 1));
  } else if (count == 1) {
    _mm_store_sd(p, low);
  }
}

inline void store_first(float* p, __m256 v, int count) {
  if (count >= 8) {
    _mm256_storeu_ps(p, v);
    return;
  }
  __m128 part = _mm256_castps256_ps128(v);
  if (count >= 4) {
    _mm_storeu_ps(p, part);
    p += 4;
    count -= 4;
    part = _mm256_extractf128_ps(v, 1);
  }
  if (count >= 2) {
    _mm_storel_pi(reinterpret_cast<__m64*>(p), part);
    p += 2;
    count -= 2;
    part = _mm_movehl_ps(part, part);
  }
  if (count == 1) _mm_store_ss(p, part);
}

}  // namespace
}  // namespace teamla::linalg::detail
