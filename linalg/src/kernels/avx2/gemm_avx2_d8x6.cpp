// SPDX-License-Identifier: Apache-2.0
// gemm_avx2_d8x6.cpp: the AVX2+FMA double microkernel, MR x NR = 8 x 6.
//
// Register budget (16 ymm): 2 x 6 = 12 accumulators, 2 A vectors, 1 broadcast of B, 1 spare.
// Per k step: 2 loads of A, 6 broadcasts, 12 FMAs (latency 4-5 x 2 pipes: 12 covers it).
// Compiled with -mavx2 -mfma, the flags of its folder (linalg/CMakeLists.txt).
#include <immintrin.h>

#include "kernels/avx2/lane_mask_avx2.hpp"
#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = double;
  using V = __m256d;
  using Mask = LaneMask;
  static constexpr int kLanes = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V load(const T* p) { return _mm256_loadu_pd(p); }
  static V load_masked(const T* p, Mask m) { return _mm256_maskload_pd(p, m.bits); }
  static V broadcast(const T* p) { return _mm256_broadcast_sd(p); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V set1(T x) { return _mm256_set1_pd(x); }
  static void store(T* p, V v) { _mm256_storeu_pd(p, v); }
  static void store_masked(T* p, V v, Mask m) { store_first(p, v, m.count); }
  static Mask mask_of(int count) {
    const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
    return {_mm256_cmpgt_epi64(_mm256_set1_epi64x(count), lanes), count};
  }
};

constexpr int kMr = 8;
constexpr int kNr = 6;

}  // namespace

KernelFns<double> avx2_kernels_d8x6() {
  KernelFns<double> fns = make_kernel_fns<Ops, kMr, kNr, &transpose_copy_d>("avx2_d8x6");
  return fns;
}

}  // namespace teamla::linalg::detail
