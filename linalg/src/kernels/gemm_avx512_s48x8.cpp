// SPDX-License-Identifier: Apache-2.0
// gemm_avx512_s48x8.cpp: the AVX-512 float microkernel, MR x NR = 48 x 8.
//
// Same register plan as the double kernel (24 accumulators, 3 A vectors, B broadcast from
// memory), with 16 floats per zmm. Packed B is 32 bytes per k step.
#include <immintrin.h>

#include <array>
#include <bit>

#include "../isa_dispatch.hpp"
#include "../pack.hpp"
#include "transpose_avx2.hpp"
#include "ukernel_dot.hpp"
#include "ukernel_simd.hpp"

namespace teamla::linalg::detail {
namespace {

// fold_order(): the lane indices of Ops::lane_sums' permutes (see there).
constexpr std::array<int, 16> fold_order(int block, bool odd) {
  std::array<int, 16> idx{};
  for (int l = 0; l < 16; ++l) {
    const int pair = l / (2 * block);
    const int from_b = (l / block) % 2;
    idx[l] = from_b * 16 + pair * 2 * block + (odd ? block : 0) + l % block;
  }
  return idx;
}
constexpr std::array<std::array<int, 16>, 8> kFoldOrders = {
    fold_order(1, false), fold_order(1, true), fold_order(2, false), fold_order(2, true),
    fold_order(4, false), fold_order(4, true), fold_order(8, false), fold_order(8, true)};

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
  // lane_sums(): lane l is the sum of x[l]'s lanes, as the double kernel's, in four rounds.
  static V lane_sums(const V (&x)[16]) {
    const auto fold = [](V a, V b, __m512i lo, __m512i hi) {
      return _mm512_add_ps(_mm512_permutex2var_ps(a, lo, b), _mm512_permutex2var_ps(a, hi, b));
    };
    // Round r pairs blocks of 2^r lanes: lo takes a's and b's even blocks, interleaved, hi
    // their odd ones; after round r, lane l holds x[l]'s sum over 2^(r+1) of its lanes.
    const auto order = [](int block, bool odd) {
      return _mm512_loadu_si512(
          kFoldOrders[2 * std::countr_zero(unsigned(block)) + (odd ? 1 : 0)].data());
    };
    V y[8];
    for (int q = 0; q < 8; ++q)
      y[q] = fold(x[2 * q], x[2 * q + 1], order(1, false), order(1, true));
    V z[4];
    for (int q = 0; q < 4; ++q)
      z[q] = fold(y[2 * q], y[2 * q + 1], order(2, false), order(2, true));
    const V w0 = fold(z[0], z[1], order(4, false), order(4, true));
    const V w1 = fold(z[2], z[3], order(4, false), order(4, true));
    return fold(w0, w1, order(8, false), order(8, true));
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

// pack_a(): pack_a_panels, with a transposed A copied by register transposes.
void pack_a(index_t mc, index_t kc, const float* a, index_t rs, index_t cs, float* dst) {
  pack_a_transposing<Ops, float, kMr>(mc, kc, a, rs, cs, dst, transpose_copy_s);
}

}  // namespace

KernelFns<float> avx512_kernels_s48x8() {
  KernelFns<float> fns;
  fns.name = "avx512_s48x8";
  fns.mr = kMr;
  fns.nr = kNr;
  fns.packed = &simd_kernel_rows<Ops, kMr, kNr, false>;
  fns.packed_strip = &simd_packed_strip<Ops, kMr, kNr>;
  fns.in_place_b_cols = &simd_kernel_in_place<Ops, kMr, kNr, ColumnsB>;
  fns.in_place_b_rows = &simd_kernel_in_place<Ops, kMr, kNr, RowsB>;
  fns.dot = &simd_kernel_dot<Ops, 4, 4>;
  fns.copy_transposed = &transpose_copy_s;
  fns.pack_a = &pack_a;
  fns.pack_b = &pack_b;
  return fns;
}

}  // namespace teamla::linalg::detail
