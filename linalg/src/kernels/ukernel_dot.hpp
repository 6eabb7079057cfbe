// SPDX-License-Identifier: Apache-2.0
// ukernel_dot.hpp (internal): C = alpha A^T B + beta C as dot products along k, for a
// transposed A whose rows of op(A) are contiguous (a k x m column-major A) and a column-major B.
//
// With m and n small and k long (m = n = 16, k = 256: a Gram matrix, a block update of a
// tall-skinny solver), copying op(A) to read it in place costs as much as the product
// (docs/gemm.md, "Dot products"). Here each MI x NJ block of C keeps one
// vector accumulator per element, walks k a vector at a time (MI + NJ loads for MI x NJ
// multiply-adds, the tail under a mask), and sums each accumulator's lanes at the end, kLanes
// accumulators at a time into one vector of kLanes sums (a butterfly of shuffles and adds: per
// accumulator under three operations, where summing each alone takes eight for float, as many
// as its 16 multiply-adds at k = 256). The Ops type is the one of ukernel_simd.hpp, plus
// lane_sums(x), whose lane l is the sum of x[l]'s lanes, mask_bits(bits) and
// load_masked_into(v, p, mask) (v with the masked lanes read from p). MI divides
// kLanes, which divides MI x NJ: lane l of a group holds row l % MI of column l / MI.
#pragma once

#include <algorithm>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// dot_store(): C = alpha * acc + beta * C for dot_block()'s MI x NJ block at rows i0..,
// columns j0.., each accumulator summed across its lanes first; only the block's rows and
// columns inside C are written.
template <class Ops, int MI, int NJ>
[[gnu::always_inline]] inline void dot_store(const typename Ops::V (&acc)[MI][NJ], index_t m,
                                             index_t n, index_t i0, index_t j0,
                                             typename Ops::T alpha, typename Ops::T beta,
                                             typename Ops::T* c, index_t ldc) {
  using T = typename Ops::T;
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
  const index_t mb = std::min<index_t>(MI, m - i0);
  const index_t nb = std::min<index_t>(NJ, n - j0);
  constexpr int kColumnsPerGroup = kL / MI;
  static_assert(kL % MI == 0 && (MI * NJ) % kL == 0);
  const V va = Ops::set1(alpha);
  const V vb = Ops::set1(beta);
  const unsigned row_bits = (1U << mb) - 1U;
#pragma GCC unroll 8
  for (int g = 0; g < NJ / kColumnsPerGroup; ++g) {
    V group[kL];
#pragma GCC unroll 16
    for (int l = 0; l < kL; ++l) group[l] = acc[l % MI][g * kColumnsPerGroup + l / MI];
    V out = Ops::mul(va, Ops::lane_sums(group));
    // Column jj of the group is lanes [jj MI, jj MI + MI): each is read and written from an
    // address jj MI elements before the column's first row, under a mask of its own lanes.
    // All of the group's columns are read before any is written: with ldc near m, column
    // jj + 1's span overlaps column jj's, and a read of a span just written under a mask
    // waits for that write to reach the cache (perf put a third of sgemm TN 16x16x256 on
    // those reads; docs/perf/blocking.md).
    const auto at = [&](int jj) {
      return c + i0 + (j0 + g * kColumnsPerGroup + jj) * ldc - jj * MI;
    };
    const auto lanes = [&](int jj) { return Ops::mask_bits(row_bits << (jj * MI)); };
    const int columns =
        static_cast<int>(std::clamp<index_t>(nb - g * kColumnsPerGroup, 0, kColumnsPerGroup));
    if (beta != T(0)) {  // beta == 0: C is not read
      V old = Ops::zero();
#pragma GCC unroll 16
      for (int jj = 0; jj < columns; ++jj) old = Ops::load_masked_into(old, at(jj), lanes(jj));
      out = Ops::fmadd(vb, old, out);
    }
#pragma GCC unroll 16
    for (int jj = 0; jj < columns; ++jj) Ops::store_masked(at(jj), out, lanes(jj));
  }
}

// dot_block(): the MI x NJ block of C at rows i0.., columns j0..; rows of op(A) and columns of
// B past the matrix repeat its last one (their results are not stored).
template <class Ops, int MI, int NJ>
[[gnu::always_inline]] inline void dot_block(index_t m, index_t n, index_t k, index_t i0,
                                             index_t j0, typename Ops::T alpha,
                                             const typename Ops::T* a, index_t lda,
                                             const typename Ops::T* b, index_t ldb,
                                             typename Ops::T beta, typename Ops::T* c,
                                             index_t ldc) {
  using T = typename Ops::T;
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
  const T* rows[MI];
  const T* cols[NJ];
#pragma GCC unroll 8
  for (int i = 0; i < MI; ++i) rows[i] = a + std::min<index_t>(i0 + i, m - 1) * lda;
#pragma GCC unroll 8
  for (int j = 0; j < NJ; ++j) cols[j] = b + std::min<index_t>(j0 + j, n - 1) * ldb;
  V acc[MI][NJ];
#pragma GCC unroll 8
  for (int i = 0; i < MI; ++i) {
#pragma GCC unroll 8
    for (int j = 0; j < NJ; ++j) acc[i][j] = Ops::zero();
  }
  const auto step = [&](auto load) __attribute__((always_inline)) {
    V av[MI];
#pragma GCC unroll 8
    for (int i = 0; i < MI; ++i) av[i] = load(rows[i]);
#pragma GCC unroll 8
    for (int j = 0; j < NJ; ++j) {
      const V bv = load(cols[j]);
#pragma GCC unroll 8
      for (int i = 0; i < MI; ++i) acc[i][j] = Ops::fmadd(av[i], bv, acc[i][j]);
    }
  };
  // The walk does not start at a line of op(A): a masked head up to the line would run operands
  // 16 bytes past a line a fifth faster, but would make the order of the sums, and so the
  // rounding, depend on where A lies (docs/perf/blocking.md).
  index_t p = 0;
#pragma GCC unroll 2
  for (; p + kL <= k; p += kL) {
    step([p](const T* x) __attribute__((always_inline)) { return Ops::load(x + p); });
  }
  if (p < k) {
    const typename Ops::Mask tail = Ops::mask_of(static_cast<int>(k - p));
    step([ p, tail ](const T* x)
             __attribute__((always_inline)) { return Ops::load_masked(x + p, tail); });
  }
  dot_store<Ops, MI, NJ>(acc, m, n, i0, j0, alpha, beta, c, ldc);
}

// kDotChunkBytes: k is walked in chunks of this many bytes of each row, every block of C
// summing one chunk before the next, so that a chunk of all of op(A)'s rows stays in L2 while
// the blocks of B's columns stream it. Unchunked, a long k re-reads op(A) from memory once per
// 4 columns of C: dgemm TN 64x64x4096 ran well below the packed path that way, and closer to
// it in chunks (docs/gemm.md, "Dot products"; docs/perf/blocking.md).
inline constexpr index_t kDotChunkBytes = 4096;

// simd_kernel_dot(): the MicroKernelDot entry (isa_dispatch.hpp).
template <class Ops, int MI, int NJ>
void simd_kernel_dot(index_t m, index_t n, index_t k, typename Ops::T alpha,
                     const typename Ops::T* a, index_t lda, const typename Ops::T* b, index_t ldb,
                     typename Ops::T beta, typename Ops::T* c, index_t ldc) {
  using T = typename Ops::T;
  constexpr index_t kChunk = kDotChunkBytes / static_cast<index_t>(sizeof(T));
  for (index_t pc = 0; pc < k; pc += kChunk) {
    const index_t kcb = std::min(kChunk, k - pc);
    const T beta_chunk = pc == 0 ? beta : T(1);  // later chunks add to the first one's C
    for (index_t j0 = 0; j0 < n; j0 += NJ) {
      for (index_t i0 = 0; i0 < m; i0 += MI) {
        dot_block<Ops, MI, NJ>(m, n, kcb, i0, j0, alpha, a + pc, lda, b + pc, ldb, beta_chunk, c,
                               ldc);
      }
    }
  }
}

}  // namespace teamla::linalg::detail
