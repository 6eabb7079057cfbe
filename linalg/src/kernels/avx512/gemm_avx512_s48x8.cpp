// SPDX-License-Identifier: Apache-2.0
// gemm_avx512_s48x8.cpp: the AVX-512 float microkernel, MR x NR = 48 x 8.
//
// Same register plan as the double kernel (24 accumulators, 3 A vectors, B broadcast from
// memory), with 16 floats per zmm. Packed B is 32 bytes per k step.
#include <immintrin.h>

#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"
#include "kernels/ukernel_dot.hpp"
#include "kernels/ukernel_tall.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = float;
  using V = __m512;
  using Mask = __mmask16;
  static constexpr int kLanes = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const T* p) { return _mm512_loadu_ps(p); }
  static V load_masked(const T* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static V load_masked_into(V v, const T* p, Mask m) { return _mm512_mask_loadu_ps(v, m, p); }
  static V broadcast(const T* p) { return _mm512_set1_ps(*p); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V set1(T x) { return _mm512_set1_ps(x); }
  static void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  static void store_masked(T* p, V v, Mask m) { _mm512_mask_storeu_ps(p, m, v); }
  static Mask mask_of(int count) { return static_cast<Mask>((1u << count) - 1u); }
  static Mask mask_bits(unsigned bits) { return static_cast<Mask>(bits); }
  // lane_sums(): lane l is the sum of x[l]'s lanes, in four rounds of folds, each two shuffles
  // and an add (three-operand shuffles: no copies, no index vectors). The first two rounds
  // stay within 128-bit lanes: a fold of x[4g .. 4g + 3] leaves, in each 128-bit lane j, their
  // four sums over lane j. The last two add 128-bit lanes, leaving x[4g + i]'s total in lane
  // 4g + i. Two-source permutes of every lane per fold (a copy and an index vector each) ran
  // sgemm TN 16x16x256 slower (docs/perf/blocking.md).
  // The masked forms pass an operand as the merge source: the unmasked forms' GCC 12 headers
  // read an undefined vector and trip -Wmaybe-uninitialized.
  static V lane_sums(const V (&x)[16]) {
    const auto in_lanes = [](V a, V b) {  // [a0+a1, a2+a3, b0+b1, b2+b3] per 128-bit lane
      return _mm512_add_ps(_mm512_mask_shuffle_ps(a, 0xFFFF, a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm512_mask_shuffle_ps(a, 0xFFFF, a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    };
    const auto across_lanes = [](V a, V b) {  // [a.L0+a.L1, a.L2+a.L3, b.L0+b.L1, b.L2+b.L3]
      return _mm512_add_ps(_mm512_mask_shuffle_f32x4(a, 0xFFFF, a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm512_mask_shuffle_f32x4(a, 0xFFFF, a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    };
    V u[4];
    for (int g = 0; g < 4; ++g) {
      u[g] = in_lanes(in_lanes(x[4 * g], x[4 * g + 1]), in_lanes(x[4 * g + 2], x[4 * g + 3]));
    }
    return across_lanes(across_lanes(u[0], u[1]), across_lanes(u[2], u[3]));
  }
};

constexpr int kMr = 48;
constexpr int kNr = 8;

// pack_b(): pack_b_transposed with an 8 x 8 float transpose in registers on ymm vectors (the
// classic one: unpack, shuffle, 128-bit lane permute) instead of 64 scalar gathers.
void pack_b(index_t kc, index_t nc, const float* b, index_t rs, index_t cs, float* dst) {
  static_assert(kNr == 8, "the transpose is 8 x 8");
  const auto transpose_8x8 =
      [](const float* col, index_t col_stride, float* out) __attribute__((always_inline)) {
    __m256 r[8];
    for (int j = 0; j < 8; ++j) {
      r[j] = _mm256_loadu_ps(col + j * col_stride);
    }
    __m256 t[8];
    for (int j = 0; j < 8; j += 2) {
      t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
      t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
    }
    __m256 u[8];
    for (int h = 0; h < 8; h += 4) {
      u[h + 0] = _mm256_shuffle_ps(t[h + 0], t[h + 2], _MM_SHUFFLE(1, 0, 1, 0));
      u[h + 1] = _mm256_shuffle_ps(t[h + 0], t[h + 2], _MM_SHUFFLE(3, 2, 3, 2));
      u[h + 2] = _mm256_shuffle_ps(t[h + 1], t[h + 3], _MM_SHUFFLE(1, 0, 1, 0));
      u[h + 3] = _mm256_shuffle_ps(t[h + 1], t[h + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int q = 0; q < 4; ++q) {
      _mm256_storeu_ps(out + q * kNr, _mm256_permute2f128_ps(u[q], u[q + 4], 0x20));
      _mm256_storeu_ps(out + (q + 4) * kNr, _mm256_permute2f128_ps(u[q], u[q + 4], 0x31));
    }
  };
  pack_b_transposed<Ops, float, kNr>(kc, nc, b, rs, cs, dst, transpose_8x8);
}

}  // namespace

KernelFns<float> avx512_kernels_s48x8() {
  KernelFns<float> fns = make_kernel_fns<Ops, kMr, kNr, &transpose_copy<float>>("avx512_s48x8");
  fns.dot = &simd_kernel_dot<Ops, 4, 4>;
  fns.tall = &simd_tall_kernel<Ops>;
  fns.pack_b = &pack_b;
  return fns;
}

}  // namespace teamla::linalg::detail
