// SPDX-License-Identifier: Apache-2.0
// ukernel_triangle.hpp (internal): the microkernel for one tile of a packed triangle's strip
// (TRMM's diagonal blocks), over the same vector-ops type as ukernel_simd.hpp.
//
// A strip of the triangle packed as gemm's A reaches a k range that ends (lower) or starts
// (upper) at its diagonal block, and within that block each vector of the strip's rows reaches
// a further row_step of k than the one above it. The tile runs the k range in phases, one per
// vector: a phase updates only the vectors whose rows reach its steps, so the zeros above
// (lower) or below (upper) the diagonal are multiplied on row_step x row_step corners only,
// and the tile is loaded, accumulated and stored once. Run as separate tiles instead (one per
// vector, a narrower and shorter call each), float's 48-row strips spent a visible share of
// 1-thread strmm_ 256 in 16- and 32-row tiles of 16 steps (docs/level3.md, "TRMM";
// docs/perf/blocking.md).
#pragma once

#include <algorithm>
#include <utility>

#include "kernels/ukernel_simd.hpp"

namespace teamla::linalg::detail {

// accumulate_vectors(): acc's vectors [VLO, VHI) of each column += their rows of A x B over the
// packed steps [k0, k1) (A: a_step values per step, B: NR).
template <class Ops, int MR, int NR, int VLO, int VHI>
[[gnu::always_inline]] inline void accumulate_vectors(AccTile<Ops, MR, NR>& acc, index_t k0,
                                                      index_t k1, const typename Ops::T* a,
                                                      index_t a_step, const typename Ops::T* b) {
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
  a += k0 * a_step;
  b += k0 * NR;
#pragma GCC unroll 4
  for (index_t p = k0; p < k1; ++p) {
    V av[VHI - VLO];
#pragma GCC unroll 8
    for (int i = VLO; i < VHI; ++i) av[i - VLO] = Ops::load(a + i * kL);
#pragma GCC unroll 64
    for (int j = 0; j < NR; ++j) {
      const V bj = Ops::broadcast(b + j);
#pragma GCC unroll 8
      for (int i = VLO; i < VHI; ++i) acc[i][j] = Ops::fmadd(av[i - VLO], bj, acc[i][j]);
    }
    a += a_step;
    b += NR;
  }
}

// triangle_phases(): the k range [0, kc) in phases, the diagonal block starting at step diag.
// Lower: vector v's rows reach steps [0, diag + (v + 1) kL); phase v runs vectors [v, MR/kL)
// up to that end. Upper: they reach [diag + v kL, kc); phase v runs vectors [0, v + 1) from
// that start.
template <class Ops, int MR, int NR, int... Vs>
[[gnu::always_inline]] inline void triangle_phases(AccTile<Ops, MR, NR>& acc, bool lower,
                                                   index_t kc, index_t diag,
                                                   const typename Ops::T* a, index_t a_step,
                                                   const typename Ops::T* b,
                                                   std::integer_sequence<int, Vs...> /*vectors*/) {
  constexpr int kL = Ops::kLanes;
  constexpr int kMv = MR / kL;
  index_t k = 0;
  if (lower) {
    ((accumulate_vectors<Ops, MR, NR, Vs, kMv>(
          acc, k, std::max(k, std::min(kc, diag + (Vs + 1) * kL)), a, a_step, b),
      k = std::max(k, std::min(kc, diag + (Vs + 1) * kL))),
     ...);
  } else {
    ((accumulate_vectors<Ops, MR, NR, 0, Vs + 1>(
          acc, k, Vs + 1 == kMv ? kc : std::max(k, std::min(kc, diag + (Vs + 1) * kL)), a, a_step,
          b),
      k = Vs + 1 == kMv ? kc : std::max(k, std::min(kc, diag + (Vs + 1) * kL))),
     ...);
  }
}

// simd_triangle_tile(): the TriangleTile entry: C(m x n) = alpha A B + beta C for one tile of
// a triangle's strip, m <= MR rows of packed A (a_step values per step, zeros outside the
// triangle) against one packed micro-panel of B, k steps [0, kc), the diagonal block from step
// diag. A strip of m <= MR - kLanes rows runs the instantiation of as many vectors as it needs.
template <class Ops, int MR, int NR>
void simd_triangle_tile(bool lower, index_t m, index_t n, index_t kc, index_t diag,
                        const typename Ops::T* a, index_t a_step, const typename Ops::T* b,
                        typename Ops::T* c, index_t ldc, typename Ops::T alpha,
                        typename Ops::T beta) {
  constexpr int kL = Ops::kLanes;
  constexpr int kMv = MR / kL;
  if constexpr (MR > kL) {
    if (m <= MR - kL) {
      simd_triangle_tile<Ops, MR - kL, NR>(lower, m, n, kc, diag, a, a_step, b, c, ldc, alpha,
                                           beta);
      return;
    }
  }
  AccTile<Ops, MR, NR> acc;
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < kMv; ++i) acc[i][j] = Ops::zero();
  }
  if (kc > 64) prefetch_c<Ops, MR, NR>(c, ldc);  // as in simd_kernel_any_b()
  triangle_phases<Ops, MR, NR>(acc, lower, kc, diag, a, a_step, b,
                               std::make_integer_sequence<int, kMv>{});
  finish_tile<Ops, MR, NR>(acc, m, n, c, ldc, alpha, beta);
}

}  // namespace teamla::linalg::detail
