// SPDX-License-Identifier: Apache-2.0
// gemm_avx2_s16x6.cpp: the AVX2+FMA float microkernel, MR x NR = 16 x 6.
//
// Same register plan as the double AVX2 kernel (12 accumulators, 2 A vectors, 1 broadcast),
// with 8 floats per ymm.
#include <immintrin.h>

#include "kernels/avx2/lane_mask_avx2.hpp"
#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = float;
  using V = __m256;
  using Mask = LaneMask;
  static constexpr int kLanes = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static V load_masked(const T* p, Mask m) { return _mm256_maskload_ps(p, m.bits); }
  static V broadcast(const T* p) { return _mm256_broadcast_ss(p); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V set1(T x) { return _mm256_set1_ps(x); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static void store_masked(T* p, V v, Mask m) { store_first(p, v, m.count); }
  static Mask mask_of(int count) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return {_mm256_cmpgt_epi32(_mm256_set1_epi32(count), lanes), count};
  }
};

constexpr int kMr = 16;
constexpr int kNr = 6;

}  // namespace

KernelFns<float> avx2_kernels_s16x6() {
  KernelFns<float> fns = make_kernel_fns<Ops, kMr, kNr, &transpose_copy_s>("avx2_s16x6");
  return fns;
}

}  // namespace teamla::linalg::detail
