// SPDX-License-Identifier: Apache-2.0
// ukernel_tall.hpp (internal): the tall kernel, C(m x n) = alpha A op(B) + beta C for a tall A
// read in place against a narrow, shallow op(B) (n <= kTallMaxColumns, k <= kTallMaxDepth):
// the 2048 x 16 x 16 class of docs/perf/small.md.
//
// Its form, against the in-place kernel's (ukernel_simd.hpp), whose tiles are MR x NR calls of
// their own with B's columns read in place:
// - op(B) is copied once per call to a buffer on the stack, NC values per k step (at most
//   kTallMaxDepth x kTallMaxColumns), so each tile reads B through one pointer, and the tiles
//   of a strip run inline in its loop, with no call, mask or pointer setup per tile;
// - tiles of four vectors' rows by at most kTallStripWidth columns (32 x 6 for double): 24
//   accumulators, 4 loads of A and 6 broadcasts per 24 multiply-adds;
// - n is cut into strips of balanced widths (16 = 6 + 5 + 5), not NR + NR;
// - the k loop runs as one straight block of up to 16 steps (KLoop::by_sixteen).
// A block of kTallBlockTiles tiles' rows of A is run against every strip before the next
// block, so a long A is read from L2 by all the strips.
// Measured on the AVX-512 Zen 5 VM: docs/gemm.md, "Tall kernel".
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "../isa_dispatch.hpp"
#include "teamla/linalg/matrix_view.hpp"
#include "ukernel_simd.hpp"

namespace teamla::linalg::detail {

// kTallStripWidth: columns per tile: 4 vectors x 6 = 24 accumulators of the 32 registers, as
// OpenBLAS's small-matrix kernel and libxsmm's generated code for this class use.
inline constexpr int kTallStripWidth = 6;
// kTallBlockTiles: tiles of rows per block of A run against every strip (256 rows of double);
// 8 and 16 blocks and none measured alike at 2048 rows (docs/gemm.md, "Tall kernel").
inline constexpr index_t kTallBlockTiles = 8;

// kTallCopyGap: bytes left unused at the start of the stack copy of op(B). With the copy at the
// buffer's start (its 8 KiB of float right on top of the strips' frames), sgemm 2048 x 16 x 16
// ran at 0.85x; 1, 2 or 3 KiB unused below it, or 2 KiB above it, all ran alike, and double
// was the same either way (small_gemm --pairs 21, paired builds, AVX-512 Zen 5 VM;
// docs/gemm.md, "Tall kernel"). No counters on that VM to say which addresses collide.
inline constexpr std::size_t kTallCopyGap = 1024;

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
      &tall_strip<Ops, 1>, &tall_strip<Ops, 2>, &tall_strip<Ops, 3>,
      &tall_strip<Ops, 4>, &tall_strip<Ops, 5>, &tall_strip<Ops, 6>};
  constexpr index_t kMaxStrips = (kTallMaxColumns + kTallStripWidth - 1) / kTallStripWidth;

  // The strips: as few as kTallStripWidth allows, their widths differing by at most one. Strip
  // s's values lie at bp + first[s] * k, one step of width[s] values after another, from
  // kTallCopyGap bytes into the buffer.
  alignas(64) T copy[(kTallCopyGap + kTallMaxDepth * kTallMaxColumns * sizeof(T)) / sizeof(T)];
  T* const bp = copy + kTallCopyGap / sizeof(T);
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
