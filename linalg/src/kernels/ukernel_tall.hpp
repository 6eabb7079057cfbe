// SPDX-License-Identifier: Apache-2.0
// ukernel_tall.hpp (internal): the tall kernel, C(m x n) = alpha A op(B) + beta C for A read in
// place, at least a few tiles tall, against a narrow, shallow op(B) (n <= kTallMaxColumns, k <=
// kTallMaxDepth): the 2048 x 16 x 16 class of docs/perf/small.md.
//
// Its tile is the packed kernels' (3 vectors of rows x 8 columns: 24 accumulators, 3 loads of A
// and 8 broadcasts per 24 multiply-adds). What differs from the in-place tiles
// (ukernel_simd.hpp), whose tiles are calls of their own with B's columns read in place:
// - op(B) is copied once per call to a buffer on the stack, NC values per k step (at most
//   kTallMaxDepth x kTallMaxColumns), so each tile reads B through one pointer, and the tiles
//   of a strip run inline in its loop, with no call, mask, prefetch or pointer setup per tile;
// - n is cut into strips of balanced widths of at most 8 (20 = 7 + 7 + 6, not 8 + 8 + 4);
// - the k loop runs as one straight block of up to 16 steps (KLoop::by_sixteen);
// - a block of kTallBlockTiles tiles' rows of A is run against every strip before the next
//   block, so a long A is read from L2 by all the strips.
// The design: docs/gemm.md, "Tall kernel"; the machine of the ratios below:
// docs/perf/blocking.md.
#pragma once

#include <algorithm>
#include <array>

#include "isa_dispatch.hpp"
#include "kernels/ukernel_simd.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// kTallStripWidth: columns per tile: 3 vectors (kTallVectors) x 8 = 24 accumulators of the 32
// registers, the packed kernels' tile. 4 x 6, as OpenBLAS's small-matrix kernel and libxsmm's
// generated code for this class use, ran slower (docs/gemm.md, "Tall kernel";
// docs/perf/blocking.md).
inline constexpr int kTallStripWidth = 8;
// kTallBlockTiles: tiles of rows per block of A run against every strip (192 rows of double).
// One block of all the rows ran slower on dgemm 8192 x 16 x 16 (A past L2) and gained little up
// to 4096 rows (docs/gemm.md, "Tall kernel"; docs/perf/blocking.md).
inline constexpr index_t kTallBlockTiles = 8;

// tall_strip(): rows [0, m) of one strip of NC columns, B packed NC values per step: full
// tiles inline, the last rows (m mod MR) by the masked tiles of simd_kernel_rows().
template <class Ops, int NC>
[[gnu::flatten]] void tall_strip(index_t m, index_t kc, const typename Ops::T* a, index_t lda,
                                 const typename Ops::T* bp, typename Ops::T* c, index_t ldc,
                                 typename Ops::T alpha, typename Ops::T beta) {
  using T = typename Ops::T;
  constexpr int kMr = kTallVectors * Ops::kLanes;
  index_t ir = 0;
  for (; ir + kMr <= m; ir += kMr) {
    AccTile<Ops, kMr, NC> acc;
    zero_tile<Ops, kMr, NC>(acc);
    accumulate<Ops, kMr, NC, false, KLoop::by_sixteen>(acc, kc, a + ir, lda, PackedB<T, NC>{bp},
                                                       nullptr);
    finish_tile<Ops, kMr, NC>(acc, kMr, NC, c + ir, ldc, alpha, beta);
  }
  if (ir < m) {
    simd_kernel_rows<Ops, kMr, NC, true>(m - ir, NC, kc, a + ir, lda, bp, c + ir, ldc, alpha, beta);
  }
}

// simd_tall_kernel(): the MicroKernelTall entry. op(B)'s element (p, j) is b[p*b_rs + j*b_cs].
template <class Ops>
void simd_tall_kernel(index_t m, index_t n, index_t k, const typename Ops::T* a, index_t lda,
                      const typename Ops::T* b, index_t b_rs, index_t b_cs, typename Ops::T* c,
                      index_t ldc, typename Ops::T alpha, typename Ops::T beta) {
  using T = typename Ops::T;
  using Strip = void (*)(index_t, index_t, const T*, index_t, const T*, T*, index_t, T, T);
  static constexpr std::array<Strip, kTallStripWidth> kStrips = {
      &tall_strip<Ops, 1>, &tall_strip<Ops, 2>, &tall_strip<Ops, 3>, &tall_strip<Ops, 4>,
      &tall_strip<Ops, 5>, &tall_strip<Ops, 6>, &tall_strip<Ops, 7>, &tall_strip<Ops, 8>};
  constexpr index_t kMaxStrips = (kTallMaxColumns + kTallStripWidth - 1) / kTallStripWidth;

  // The strips: as few as kTallStripWidth allows, their widths differing by at most one. Strip
  // s's values lie at bp + first[s] * k, one step of width[s] values after another.
  alignas(64) T bp[kTallMaxDepth * kTallMaxColumns];
  const index_t strips = (n + kTallStripWidth - 1) / kTallStripWidth;
  std::array<index_t, kMaxStrips + 1> first{};
  for (index_t s = 0; s < strips; ++s) {
    first[s + 1] = first[s] + (n - first[s] + strips - s - 1) / (strips - s);
    const index_t width = first[s + 1] - first[s];
    T* out = bp + first[s] * k;
    for (index_t p = 0; p < k; ++p) {
      for (index_t j = 0; j < width; ++j) {
        out[p * width + j] = b[p * b_rs + (first[s] + j) * b_cs];
      }
    }
  }

  const index_t block = kTallBlockTiles * kTallVectors * Ops::kLanes;
  for (index_t i0 = 0; i0 < m; i0 += block) {
    const index_t rows = std::min(block, m - i0);
    for (index_t s = 0; s < strips; ++s) {
      kStrips[first[s + 1] - first[s] - 1](rows, k, a + i0, lda, bp + first[s] * k,
                                           c + first[s] * ldc + i0, ldc, alpha, beta);
    }
  }
}

}  // namespace teamla::linalg::detail
