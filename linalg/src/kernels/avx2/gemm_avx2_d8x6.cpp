// SPDX-License-Identifier: Apache-2.0
// gemm_avx2_d8x6.cpp: the AVX2+FMA double microkernel, MR x NR = 8 x 6.
//
// Register budget (16 ymm): 2 x 6 = 12 accumulators, 2 A vectors, 1 broadcast of B, 1 spare.
// Per k step: 2 loads of A, 6 broadcasts, 12 FMAs (latency 4-5 x 2 pipes: 12 covers it).
// Compiled with -mavx2 -mfma (file name rule in linalg/CMakeLists.txt).
#include <immintrin.h>

#include "isa_dispatch.hpp"
#include "gemm/pack.hpp"
#include "kernels/avx2/lane_mask_avx2.hpp"
#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/ukernel_simd.hpp"
#include "kernels/ukernel_triangle.hpp"

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

// pack_a(): pack_a_panels, with a transposed A copied by register transposes.
void pack_a(index_t mc, index_t kc, const double* a, index_t rs, index_t cs, double* dst) {
  pack_a_transposing<Ops, double, kMr>(mc, kc, a, rs, cs, dst, transpose_copy_d);
}

}  // namespace

KernelFns<double> avx2_kernels_d8x6() {
  KernelFns<double> fns;
  fns.name = "avx2_d8x6";
  fns.mr = kMr;
  fns.nr = kNr;
  fns.row_step = Ops::kLanes;
  fns.packed = &simd_kernel_rows<Ops, kMr, kNr, false>;
  fns.packed_strip = &simd_packed_strip<Ops, kMr, kNr>;
  fns.packed_triangle = &simd_triangle_tile<Ops, kMr, kNr>;
  fns.in_place_b_cols = &simd_kernel_in_place<Ops, kMr, kNr, ColumnsB>;
  fns.in_place_b_rows = &simd_kernel_in_place<Ops, kMr, kNr, RowsB>;
  fns.one_tile_b_cols = kOneTileTable<Ops, kMr, kNr, ColumnsB>.data();
  fns.one_tile_b_rows = kOneTileTable<Ops, kMr, kNr, RowsB>.data();
  fns.wide_tile_b_rows = &simd_in_place_tile<Ops, Ops::kLanes, 2 * kNr, RowsB>;
  fns.copy_transposed = &transpose_copy_d;
  fns.pack_a = &pack_a;
  fns.pack_b = &pack_b_panels<Ops, double, kNr>;
  return fns;
}

}  // namespace teamla::linalg::detail
