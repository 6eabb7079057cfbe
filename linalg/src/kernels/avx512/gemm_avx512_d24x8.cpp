// SPDX-License-Identifier: Apache-2.0
// gemm_avx512_d24x8.cpp: the AVX-512 double microkernel, MR x NR = 24 x 8.
//
// Register budget (32 zmm): 3 x 8 = 24 accumulators, 3 A vectors, B broadcast straight from
// memory into the FMA (embedded broadcast), 5 spare. Per k step: 3 loads of A, 8 broadcasts
// of B (one 64-byte line of packed B), 24 FMAs; enough independent accumulators to cover the
// FMA latency on both pipes (4 cycles x 2 pipes = 8 in flight needed, 24 available).
// Compiled with -mavx512f/dq/bw/vl, the flags of its folder (linalg/CMakeLists.txt).
#include <immintrin.h>

#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"
#include "kernels/ukernel_dot.hpp"
#include "kernels/ukernel_tall.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = double;
  using V = __m512d;
  using Mask = __mmask8;
  static constexpr int kLanes = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V load(const T* p) { return _mm512_loadu_pd(p); }
  static V load_masked(const T* p, Mask m) { return _mm512_maskz_loadu_pd(m, p); }
  static V load_masked_into(V v, const T* p, Mask m) { return _mm512_mask_loadu_pd(v, m, p); }
  static V broadcast(const T* p) { return _mm512_set1_pd(*p); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V set1(T x) { return _mm512_set1_pd(x); }
  static void store(T* p, V v) { _mm512_storeu_pd(p, v); }
  static void store_masked(T* p, V v, Mask m) { _mm512_mask_storeu_pd(p, m, v); }
  static Mask mask_of(int count) { return static_cast<Mask>((1u << count) - 1u); }
  static Mask mask_bits(unsigned bits) { return static_cast<Mask>(bits); }
  // lane_sums(): lane l is the sum of x[l]'s lanes, in three rounds of folds, each two
  // shuffles and an add, as the float kernel's: the first within 128-bit lanes, the other two
  // across them. Two-source permutes of every lane per fold (a copy and an index vector each)
  // ran dgemm TN 16x16x256 slower (docs/perf/blocking.md).
  static V lane_sums(const V (&x)[8]) {
    const auto in_lanes = [](V a, V b) {  // [a0+a1, b0+b1] per 128-bit lane
      return _mm512_add_pd(_mm512_mask_shuffle_pd(a, 0xFF, a, b, 0x00),
                           _mm512_mask_shuffle_pd(a, 0xFF, a, b, 0xFF));
    };
    const auto across_lanes = [](V a, V b) {  // [a.L0+a.L1, a.L2+a.L3, b.L0+b.L1, b.L2+b.L3]
      return _mm512_add_pd(_mm512_mask_shuffle_f64x2(a, 0xFF, a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm512_mask_shuffle_f64x2(a, 0xFF, a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    };
    const V s01 = in_lanes(x[0], x[1]);
    const V s23 = in_lanes(x[2], x[3]);
    const V s45 = in_lanes(x[4], x[5]);
    const V s67 = in_lanes(x[6], x[7]);
    return across_lanes(across_lanes(s01, s23), across_lanes(s45, s67));
  }
};

constexpr int kMr = 24;
constexpr int kNr = 8;

// pack_b(): pack_b_transposed with an 8 x 8 double transpose in registers (three rounds of
// two-source permutes) instead of 64 scalar gathers.
void pack_b(index_t kc, index_t nc, const double* b, index_t rs, index_t cs, double* dst) {
  static_assert(kNr == 8, "the transpose is 8 x 8");
  // Two-source permutes (index i < 8: first operand, else second): interleave the even /
  // odd elements of two vectors, then gather the even / odd 128-bit lanes of two vectors.
  // (permutex2var rather than unpack/shuffle_f64x2, whose GCC 12 headers trip
  // -Wmaybe-uninitialized.)
  const __m512i kPairLo = _mm512_setr_epi64(0, 8, 2, 10, 4, 12, 6, 14);
  const __m512i kPairHi = _mm512_setr_epi64(1, 9, 3, 11, 5, 13, 7, 15);
  const __m512i kLanesEven = _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13);
  const __m512i kLanesOdd = _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15);
  const auto transpose_8x8 = [&](const double* col, index_t col_stride, double* out)
      __attribute__((always_inline)) {
    __m512d r[8];
    for (int j = 0; j < 8; ++j) {
      r[j] = _mm512_loadu_pd(col + j * col_stride);
    }
    __m512d t[8];
    for (int j = 0; j < 8; j += 2) {
      t[j] = _mm512_permutex2var_pd(r[j], kPairLo, r[j + 1]);
      t[j + 1] = _mm512_permutex2var_pd(r[j], kPairHi, r[j + 1]);
    }
    __m512d u[8];
    for (int h = 0; h < 8; h += 4) {
      u[h + 0] = _mm512_permutex2var_pd(t[h + 0], kLanesEven, t[h + 2]);
      u[h + 1] = _mm512_permutex2var_pd(t[h + 1], kLanesEven, t[h + 3]);
      u[h + 2] = _mm512_permutex2var_pd(t[h + 0], kLanesOdd, t[h + 2]);
      u[h + 3] = _mm512_permutex2var_pd(t[h + 1], kLanesOdd, t[h + 3]);
    }
    for (int q = 0; q < 4; ++q) {
      _mm512_storeu_pd(out + q * kNr, _mm512_permutex2var_pd(u[q], kLanesEven, u[q + 4]));
      _mm512_storeu_pd(out + (q + 4) * kNr, _mm512_permutex2var_pd(u[q], kLanesOdd, u[q + 4]));
    }
  };
  pack_b_transposed<Ops, double, kNr>(kc, nc, b, rs, cs, dst, transpose_8x8);
}

}  // namespace

KernelFns<double> avx512_kernels_d24x8() {
  KernelFns<double> fns = make_kernel_fns<Ops, kMr, kNr, &transpose_copy<double>>("avx512_d24x8");
  fns.dot = &simd_kernel_dot<Ops, 4, 4>;
  fns.tall = &simd_tall_kernel<Ops>;
  fns.pack_b = &pack_b;
  return fns;
}

}  // namespace teamla::linalg::detail
