// SPDX-License-Identifier: Apache-2.0
// gemm.cpp: argument checks, layout normalisation and the BLIS loop nest of gemm().
//
// The loop nest (BLIS): for jc (nc columns of C) / pc (kc of k): pack B's kc x nc panel;
// for ic (mc rows): pack A's mc x kc block; for jr (NR) / ir (MR): one microkernel call. The
// B micro-panel (kc x NR) stays in L1 across the ir loop, the A block in L2 across jr, the B
// panel in L3 across ic. Edge tiles are handled by the kernels themselves (masked loads and
// stores), so no tile is ever copied out.
//
// Small path: when op(A) is column-contiguous and small enough (reads_a_in_place), A is not
// packed (the kernel reads MR contiguous rows per k step straight from A); when op(B) has
// contiguous columns or rows, B is not packed either (gemm_in_place, which needs no workspace),
// and a small transposed A is copied onto the stack to take the same path (gemm_a_on_stack).
// Products of at most kTinyGemmVolume multiply-adds take it on the caller whatever the Exec
// (gemm_tiny). Parallel: run_wide() splits rows or columns over one claimed section. The
// design: docs/gemm.md; the measurements behind each choice: docs/perf/blocking.md and
// docs/perf/small.md.
#include <algorithm>
#include <cstdint>
#include <string>

#include "gemm/gemm_internal.hpp"
#include "gemm/gemm_tiny.hpp"
#include "gemm/planned_region.hpp"
#include "gemm/small_blocks.hpp"
#include "gemm/wide_split.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

index_t round_up(index_t v, index_t unit) { return (v + unit - 1) / unit * unit; }

// macro_block(): one mc x nc block of C from a packed B panel and a packed A block: a strip
// of the whole block per NR columns of B.
template <class T>
void macro_block(const KernelFns<T>& f, index_t mcb, index_t ncb, index_t kcb, const T* ap,
                 const T* bp, T* c, index_t ldc, T alpha, T beta) {
  const index_t nr = f.nr;
  for (index_t jr = 0; jr < ncb; jr += nr) {
    f.packed_strip(mcb, std::min(nr, ncb - jr), kcb, ap, f.mr, bp + jr * kcb, c + jr * ldc, ldc,
                   alpha, beta);
  }
}

// rows_per_block(): mc for a panel of kcb < kc steps, grown while the packed A block stays
// within half of this CPU's L2 (BLIS's rule) and within an mc x kc block (the buffer). A short
// k (PBLAS's rank-32 updates) otherwise cuts C into mc-row strips whose column pieces the
// prefetcher never catches up with. Half of L2, not the whole mc x kc budget: the larger block
// lost on ScaLAPACK's 1500 x 32 x 128 strips (docs/perf/blocking.md).
// A short block against at most kL1BlockStrips strips of B (ncb <= 16 NR: a tall A times a
// narrow B) stays within half of L1 instead: its packing then writes lines that are in L1,
// and the kernel reads them back from there, where a block of half L2, pushed out by the
// stream of A through L2, missed on the stores of its packing.
// kL1BlockStrips: an L1 block for every B lost on wide ones; 16 strips kept the tall-A gains
// (docs/perf/blocking.md).
constexpr index_t kL1BlockStrips = 16;

template <class T>
index_t rows_per_block(const KernelSet<T>& ks, index_t ncb, index_t kcb) {
  const Blocking& bl = ks.blocking;
  const index_t mr = ks.fns.mr;
  const auto sized = [&](std::size_t bytes, index_t cap) {
    const auto elems = static_cast<index_t>(bytes / sizeof(T));
    return std::max(cap, elems / std::max<index_t>(kcb, 1) / mr * mr);
  };
  if (kcb >= bl.kc) return bl.mc;
  if (ncb <= kL1BlockStrips * ks.fns.nr) {
    return std::min(bl.mc, sized(team::cpu_info().caches.l1d / 2, mr));
  }
  return sized(std::min<std::size_t>(bl.mc * bl.kc * sizeof(T), team::cpu_info().caches.l2 / 2),
               bl.mc);
}

// pack_a_symmetric(): pack_a of rows [i0, i0 + rows) and columns [p0, p0 + kc) of a symmetric
// operand (Strided::lower_symmetric), micro-panel by micro-panel: the columns a panel has
// entirely on or below the diagonal and those entirely above it (read from the transposed
// position) go through the ISA's packer, the few across the diagonal element by element.
template <class T>
void pack_a_symmetric(const KernelFns<T>& f, index_t i0, index_t rows, index_t p0, index_t kc,
                      Strided<T> a, T* dst) {
  const index_t mr = f.mr;
  const index_t p_end = p0 + kc;
  for (index_t r0 = i0; r0 < i0 + rows; r0 += mr) {
    const index_t panel_rows = std::min(mr, i0 + rows - r0);
    T* panel = dst + (r0 - i0) * kc;  // kc columns of mr values
    const index_t lower_end = std::clamp(r0 + 1, p0, p_end);
    const index_t upper_begin = std::clamp(r0 + panel_rows, lower_end, p_end);
    if (lower_end > p0) {
      f.pack_a(panel_rows, lower_end - p0, a.data + r0 * a.rs + p0 * a.cs, a.rs, a.cs, panel);
    }
    if (upper_begin < p_end) {
      f.pack_a(panel_rows, p_end - upper_begin, a.data + upper_begin * a.rs + r0 * a.cs, a.cs, a.rs,
               panel + (upper_begin - p0) * mr);
    }
    for (index_t p = lower_end; p < upper_begin; ++p) {
      T* out = panel + (p - p0) * mr;
      for (index_t i = 0; i < panel_rows; ++i) {
        const index_t r = r0 + i;
        out[i] = r >= p ? a.data[r * a.rs + p * a.cs] : a.data[p * a.rs + r * a.cs];
      }
      std::fill(out + panel_rows, out + mr, T(0));
    }
  }
}

}  // namespace

// ic_loop(): rows [m0, m1) of C for one packed B panel (kcb x ncb, columns [pc, pc + kcb) of
// op(A)): pack each block of A (rows_per_block x kcb) and run the macro block.
template <class T>
void ic_loop(const KernelSet<T>& ks, index_t m0, index_t m1, index_t ncb, index_t kcb, Strided<T> a,
             index_t pc, T* ap, const T* bp, T* c, index_t ldc, T alpha, T beta) {
  const KernelFns<T>& f = ks.fns;
  const index_t mc = rows_per_block(ks, ncb, kcb);
  for (index_t ic = m0; ic < m1; ic += mc) {
    const index_t mcb = std::min(mc, m1 - ic);
    if (a.lower_symmetric) {
      pack_a_symmetric(f, ic, mcb, pc, kcb, a, ap);
    } else {
      f.pack_a(mcb, kcb, a.data + ic * a.rs + pc * a.cs, a.rs, a.cs, ap);
    }
    macro_block(f, mcb, ncb, kcb, ap, bp, c + ic, ldc, alpha, beta);
  }
}

template void ic_loop<double>(const KernelSet<double>&, index_t, index_t, index_t, index_t,
                              Strided<double>, index_t, double*, const double*, double*, index_t,
                              double, double);
template void ic_loop<float>(const KernelSet<float>&, index_t, index_t, index_t, index_t,
                             Strided<float>, index_t, float*, const float*, float*, index_t, float,
                             float);

namespace {

// reads_a_in_place(): op(A) column-contiguous, n <= small_n, and either m <= small_n or a tall
// A whose in-place block is re-read from L1 (tall_a_in_place()). Any other tall A is packed:
// read in place it is re-read for every NR columns of B, and its columns, a leading dimension
// apart, share cache sets, by virtual address in L1 and by the luck of physical pages in L2
// (packed ran 4096 x 64 x 64 and 3840 x 128 x 128 faster: docs/perf/blocking.md).
//
// kTallInPlaceStrips: a tall A is read in place when B has at most this many strips of NR
// columns and the ic loop's block of A (mc rows x k) fits L1d: each strip after the first then
// reads the block from L1, where packing reads A once more and writes it.
// 4: in place beat packed at 1-4 strips within L1 and lost past L1 (docs/perf/blocking.md).
constexpr index_t kTallInPlaceStrips = 4;

template <class T>
bool tall_a_in_place(const KernelSet<T>& ks, index_t n, index_t k) {
  return n <= kTallInPlaceStrips * ks.fns.nr &&
         static_cast<std::size_t>(ks.blocking.mc) * static_cast<std::size_t>(k) * sizeof(T) <=
             team::cpu_info().caches.l1d;
}

template <class T>
bool reads_a_in_place(const KernelSet<T>& ks, Strided<T> a, index_t m, index_t n, index_t k) {
  if (a.rs != 1 || a.lower_symmetric || n > ks.blocking.small_n) return false;
  return m <= ks.blocking.small_n || tall_a_in_place(ks, n, k);
}

// pack_a_elems(): the A block buffer: never more than an mc x kc block (rows_per_block() keeps
// every panel's block within it), nor more than all of A's rows for one panel.
template <class T>
std::size_t pack_a_elems(const KernelSet<T>& ks, index_t m, index_t k) {
  const index_t kk = std::min(k, ks.blocking.kc);
  return static_cast<std::size_t>(
      std::min(round_up(m, ks.fns.mr) * kk, round_up(ks.blocking.mc, ks.fns.mr) * ks.blocking.kc));
}

template <class T>
std::size_t pack_b_elems(const KernelSet<T>& ks, index_t n, index_t k) {
  return static_cast<std::size_t>(std::min(k, ks.blocking.kc) *
                                  round_up(std::min(n, ks.blocking.nc), ks.fns.nr));
}

// kUnitsPerParticipant: the in-place row split and the column split cut their work into about
// this many units per participant, so that a participant that starts late (or is preempted)
// leaves units that the others take, while each unit still covers whole micro-tiles (width 2 at
// n = 128 on AVX-512: 6 row units, one 24-row tile each). The packed row split has one per
// participant (run_wide()).
constexpr std::size_t kUnitsPerParticipant = 4;

// work_units(): how many units `tiles` whole tiles make on a section of `width`.
std::size_t work_units(index_t tiles, std::size_t width) {
  return std::max<std::size_t>(
      1, std::min(static_cast<std::size_t>(tiles), kUnitsPerParticipant * width));
}

// kInPlaceSplitL2Share: the in-place row split reads all of B (k x n, in place) in every unit;
// once the units' reads of B pass this share of a core's L2, the packed row split (B packed
// once per participant into L1-sized panels) runs faster.
// 0.75: packed won above it and tied or lost below it at 2 threads (docs/perf/blocking.md).
constexpr double kInPlaceSplitL2Share = 0.75;

// in_place_split_pays(): whether `units` units, each reading k x n of B, stay within that share.
bool in_place_split_pays(std::size_t units, index_t n, index_t k, std::size_t scalar_bytes) {
  const auto l2 = static_cast<double>(team::cpu_info().caches.l2);
  const double b_reads = static_cast<double>(units) * static_cast<double>(n) *
                         static_cast<double>(k) * static_cast<double>(scalar_bytes);
  return l2 <= 0 || b_reads < kInPlaceSplitL2Share * l2;
}

}  // namespace

template <class T>
void scale_c(index_t m, index_t n, T beta, T* c, index_t ldc) {
  if (beta == T(1)) {
    return;
  }
  for (index_t j = 0; j < n; ++j) {
    T* cj = c + j * ldc;
    if (beta == T(0)) {
      std::fill(cj, cj + m, T(0));
    } else {
      for (index_t i = 0; i < m; ++i) {
        cj[i] *= beta;
      }
    }
  }
}

namespace {

// kTallMinTiles: from this many of the tall kernel's tiles of rows on (96 rows of double, 192 of
// float), a product within its n and k runs on it (KernelFns::tall, kernels/ukernel_tall.hpp)
// instead of the in-place tiles.
// 4: from 4-5 tiles on the tall kernel tied or beat the in-place tiles (docs/perf/blocking.md).
constexpr index_t kTallMinTiles = 4;

template <class T>
bool uses_tall_kernel(const KernelFns<T>& f, index_t m, index_t n, index_t k) {
  return f.tall != nullptr && m >= kTallMinTiles * kTallVectors * f.row_step &&
         n <= kTallMaxColumns && k <= kTallMaxDepth;
}

// gemm_in_place(): the no-packing path: op(A) column-contiguous and op(B) read in place by
// the in-place kernels (B's columns or B's rows, whichever is contiguous), edges included.
// Loops pc / ic here, jr / ir in the kernel, as the packed path's: A's mc x kc block stays in
// L2 across the jr loop, the kc x NR slice of B in L1 across the ir loop. A product that
// uses_tall_kernel() goes to the tall kernel instead.
// Forced inline (as gemm_without_workspace() and gemm_inline()): at n = 1-4 a call is a few
// tens of ns, and each out-of-line step passed the operands through memory again.
template <class T>
[[gnu::always_inline]] inline void gemm_in_place(const KernelSet<T>& ks, index_t m, index_t n,
                                                 index_t k, T alpha, Strided<T> a, Strided<T> b,
                                                 T beta, T* c, index_t ldc) {
  const KernelFns<T>& f = ks.fns;
  if (uses_tall_kernel(f, m, n, k)) {
    f.tall(m, n, k, a.data, a.cs, b.data, b.rs, b.cs, c, ldc, alpha, beta);
    return;
  }
  const bool b_columns = b.rs == 1;
  const MicroKernelInPlace<T> kernel = b_columns ? f.in_place_b_cols : f.in_place_b_rows;
  const index_t ldb = b_columns ? b.cs : b.rs;
  const index_t mc = ks.blocking.mc;
  const index_t kc = ks.blocking.kc;
  for (index_t pc = 0; pc < k; pc += kc) {
    const index_t kcb = std::min(kc, k - pc);
    const T beta_block = pc == 0 ? beta : T(1);
    for (index_t ic = 0; ic < m; ic += mc) {
      kernel(std::min(mc, m - ic), n, kcb, a.data + ic + pc * a.cs, a.cs, b.data + pc * b.rs, ldb,
             c + ic, ldc, alpha, beta_block);
    }
  }
}

// kStackTransposeElems: an op(A) whose rows are not contiguous (A transposed) with at most
// 64 x 64 elements (rows rounded up to kTransposeRowUnit) is copied column-major onto the
// stack, 32 KiB of double, and then read in place: the small-matrix range of
// docs/perf/small.md, where the copy is one pass over A and needs neither the workspace nor a
// packed B.
constexpr index_t kStackTransposeElems = 64 * 64;
constexpr index_t kSmallTransposeElems = 16 * 16;

template <class T>
bool in_place_b(Strided<T> b) {
  return b.rs == 1 || b.cs == 1;
}

template <class T>
bool in_place_path(const KernelSet<T>& ks, Strided<T> a, Strided<T> b, index_t m, index_t n,
                   index_t k) {
  return reads_a_in_place(ks, a, m, n, k) && in_place_b(b);
}

template <class T>
bool transposes_a_on_stack(const KernelSet<T>& ks, Strided<T> a, Strided<T> b, index_t m, index_t n,
                           index_t k) {
  return a.rs != 1 && a.cs == 1 && !a.lower_symmetric &&
         round_up(m, kTransposeRowUnit) * k <= kStackTransposeElems && n <= ks.blocking.small_n &&
         in_place_b(b);
}

// kDotDepth: a transposed-A product (TN) whose k is at least kDotDepth<T> x max(m, n), with m
// and n at most kDotMaxSide<T>, runs as dot products along k (KernelFns::dot) instead of
// copying or packing op(A); below, the copy's vector tiles win.
// kDotDepth, kDotMaxSide: where dot products beat the copy and the packed path
// (docs/perf/blocking.md).
template <class T>
constexpr index_t kDotDepth = 32 / sizeof(T);  // 4 for double, 8 for float (twice the lanes)
template <class T>
constexpr index_t kDotMaxSide = sizeof(T) == 8 ? 48 : 64;
// kDotDepthPastCopy: where op(A) is past the stack copy (more than kStackTransposeElems), the
// alternative is the packed path.
// 3: dot products won from k = 3 max(m, n) for both types and lost below (docs/perf/blocking.md).
constexpr index_t kDotDepthPastCopy = 3;

template <class T>
bool uses_dot_products(const KernelSet<T>& ks, Strided<T> a, Strided<T> b, index_t m, index_t n,
                       index_t k) {
  if (ks.fns.dot == nullptr || a.cs != 1 || a.lower_symmetric || b.rs != 1 || m > kDotMaxSide<T> ||
      n > kDotMaxSide<T>) {
    return false;
  }
  const index_t depth = transposes_a_on_stack(ks, a, b, m, n, k) ? kDotDepth<T> : kDotDepthPastCopy;
  return k >= depth * std::max(m, n);
}

// gemm_a_on_stack(): op(A) copied into a column-major tile on this thread's stack, then
// gemm_in_place(). Not inlined: the tile stays out of the other paths' frames. kElems: the
// tile's capacity; a product that fits kSmallTransposeElems takes a 2 KiB tile, so that the
// smallest calls do not touch 32 KiB of stack.
template <class T, index_t kElems>
[[gnu::noinline]] void gemm_a_on_stack(const KernelSet<T>& ks, index_t m, index_t n, index_t k,
                                       T alpha, Strided<T> a, Strided<T> b, T beta, T* c,
                                       index_t ldc) {
  alignas(64) T tile[kElems];
  const index_t ld = round_up(m, kTransposeRowUnit);
  ks.fns.copy_transposed(m, k, a.data, a.rs, tile, ld);
  gemm_in_place(ks, m, n, k, alpha, Strided<T>{tile, 1, ld}, b, beta, c, ldc);
}

// gemm_packed(): the BLIS loops on rows [m0, m1) of C, B packed into `bp` and A into `ap`.
// Row indices are C's and op(A)'s own (a symmetric A is packed by its absolute rows).
template <class T>
void gemm_packed(const KernelSet<T>& ks, index_t m0, index_t m1, index_t n, index_t k, T alpha,
                 Strided<T> a, Strided<T> b, T beta, T* c, index_t ldc, T* ap, T* bp) {
  const KernelFns<T>& f = ks.fns;
  const Blocking& bl = ks.blocking;
  for (index_t jc = 0; jc < n; jc += bl.nc) {
    const index_t ncb = std::min(bl.nc, n - jc);
    for (index_t pc = 0; pc < k; pc += bl.kc) {
      const index_t kcb = std::min(bl.kc, k - pc);
      f.pack_b(kcb, ncb, b.data + pc * b.rs + jc * b.cs, b.rs, b.cs, bp);
      ic_loop(ks, m0, m1, ncb, kcb, a, pc, ap, bp, c + jc * ldc, ldc, alpha, pc == 0 ? beta : T(1));
    }
  }
}

// gemm_on_stack(): gemm_packed with small blocks in a buffer on this thread's stack, for when
// the workspace cannot grow (small_blocks.hpp). Not inlined: the buffer stays out of the
// normal path's frame.
template <class T>
[[gnu::noinline]] void gemm_on_stack(const KernelSet<T>& ks, index_t m, index_t n, index_t k,
                                     T alpha, Strided<T> a, Strided<T> b, T beta, T* c, index_t ldc,
                                     std::size_t refused_bytes) {
  team::note_shortfall(team::Shortfall::memory, refused_bytes);
  StackBlocks blocks;
  gemm_packed(small_blocking(ks), 0, m, n, k, alpha, a, b, beta, c, ldc, blocks.a<T>(),
              blocks.b<T>());
}

}  // namespace

// gemm_scalar() (gemm_tiny.hpp). GCC inlines it here, into gemm_tiny_col_major() and
// gemm_without_workspace(): out of line ([[gnu::noinline]]), the 2x2x2 calls through dgemm_/sgemm_
// run slower (docs/gemm.md, "Tiny products"; docs/perf/blocking.md). The batch's files call it out
// of line.
template <class T>
void gemm_scalar(index_t m, index_t n, index_t k, T alpha, Strided<T> a, Strided<T> b, T beta, T* c,
                 index_t ldc) {
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      T sum = T(0);
      for (index_t p = 0; p < k; ++p)
        sum += a.data[i * a.rs + p * a.cs] * b.data[p * b.rs + j * b.cs];
      T& cij = c[i + j * ldc];
      cij = beta == T(0) ? alpha * sum : alpha * sum + beta * cij;
    }
  }
}

template void gemm_scalar<double>(index_t, index_t, index_t, double, Strided<double>,
                                  Strided<double>, double, double*, index_t);
template void gemm_scalar<float>(index_t, index_t, index_t, float, Strided<float>, Strided<float>,
                                 float, float*, index_t);

namespace {

// gemm_without_workspace(): the cases that need no buffer (empty, scaling only, the in-place
// paths); false, having done nothing, for the others.
template <class T>
[[gnu::always_inline]] inline bool gemm_without_workspace(const KernelSet<T>& ks, index_t m,
                                                          index_t n, index_t k, T alpha,
                                                          Strided<T> a, Strided<T> b, T beta, T* c,
                                                          index_t ldc) {
  if (m <= 0 || n <= 0) {
    return true;
  }
  if (k <= 0 || alpha == T(0)) {
    scale_c(m, n, beta, c, ldc);
    return true;
  }
  // Each bound first, so that m * n * k cannot overflow.
  if (m <= kScalarVolume && n <= kScalarVolume && k <= kScalarVolume &&
      m * n * k <= kScalarVolume) {
    gemm_scalar(m, n, k, alpha, a, b, beta, c, ldc);
    return true;
  }
  // One row of op(A) has no row stride: a transposed A of one row is read in place (its k
  // values are contiguous), not copied (TN at m = 1 paid the copy's fixed cost).
  if (m == 1 && a.cs == 1 && !a.lower_symmetric) a = Strided<T>{a.data, 1, 1};
  if (in_place_path(ks, a, b, m, n, k)) {
    gemm_in_place(ks, m, n, k, alpha, a, b, beta, c, ldc);
    return true;
  }
  if (uses_dot_products(ks, a, b, m, n, k)) {
    ks.fns.dot(m, n, k, alpha, a.data, a.rs, b.data, b.cs, beta, c, ldc);
    return true;
  }
  if (transposes_a_on_stack(ks, a, b, m, n, k)) {
    if (round_up(m, kTransposeRowUnit) * k <= kSmallTransposeElems) {
      gemm_a_on_stack<T, kSmallTransposeElems>(ks, m, n, k, alpha, a, b, beta, c, ldc);
    } else {
      gemm_a_on_stack<T, kStackTransposeElems>(ks, m, n, k, alpha, a, b, beta, c, ldc);
    }
    return true;
  }
  return false;
}

}  // namespace

template <class T>
void gemm_serial(const KernelSet<T>& ks, index_t m, index_t n, index_t k, T alpha, Strided<T> a,
                 Strided<T> b, T beta, T* c, index_t ldc, Workspace& ws, std::size_t rank) {
  if (gemm_without_workspace(ks, m, n, k, alpha, a, b, beta, c, ldc)) {
    return;
  }
  // Buffers first, before anything is written: one that cannot be had sends the whole call
  // to gemm_on_stack.
  const std::size_t b_elems = pack_b_elems(ks, n, k);
  const std::size_t a_elems = pack_a_elems(ks, m, k);
  T* bp = ws.try_buffer_of<T>(rank, Workspace::Slot::pack_b, b_elems);
  T* ap = ws.try_buffer_of<T>(rank, Workspace::Slot::pack_a, a_elems);
  if (bp == nullptr || ap == nullptr) {
    gemm_on_stack(ks, m, n, k, alpha, a, b, beta, c, ldc, (a_elems + b_elems) * sizeof(T));
    return;
  }
  gemm_packed(ks, 0, m, n, k, alpha, a, b, beta, c, ldc, ap, bp);
}

// private_panels(): every rank's packed-B panel and A block for the row split, taken before
// its section (a unit must not find its buffer missing after others have written C); false
// when the memory cannot be had.
template <class T>
bool private_panels(const KernelSet<T>& ks, std::size_t width, index_t m, index_t n, index_t k,
                    Workspace& ws) {
  for (std::size_t rank = 0; rank < width; ++rank) {
    if (ws.try_buffer_of<T>(rank, Workspace::Slot::pack_a, pack_a_elems(ks, m, k)) == nullptr ||
        ws.try_buffer_of<T>(rank, Workspace::Slot::pack_b, pack_b_elems(ks, n, k)) == nullptr) {
      return false;
    }
  }
  return true;
}

// run_wide(): one claimed section of up to `width` participants computing C. False when it
// could not start one (no memory for the panels): the caller then runs C serially.
template <class T>
bool run_wide(const KernelSet<T>& ks, std::size_t width, index_t m, index_t n, index_t k, T alpha,
              Strided<T> a, Strided<T> b, T beta, T* c, index_t ldc, Workspace& ws, team::Team& on,
              team::Team::Linger linger) {
  const index_t row_tiles = (m + ks.fns.mr - 1) / ks.fns.mr;
  const index_t col_tiles = (n + ks.fns.nr - 1) / ks.fns.nr;
  const bool in_place = in_place_path(ks, a, b, m, n, k);
  const bool split_rows = splits_rows(row_tiles, col_tiles, width, m, n);
  const std::size_t in_place_units = work_units(row_tiles, width);
  if (split_rows && in_place && in_place_split_pays(in_place_units, n, k, sizeof(T))) {
    // Nothing to share: each unit runs the no-packing path on its rows. Handed out home first,
    // so a rank computes the same rows call after call: in claim order a 2048 x 16 x 16 dgemm
    // called again at width 2 finds its rows of A and C in the other core's caches and runs
    // markedly slower (docs/gemm.md, "Parallel split"; docs/perf/blocking.md).
    const std::size_t units = in_place_units;
    run_home_units(on, width, units, ws,
                   unit_parts(m, ks.fns.mr, units,
                              [&](std::size_t rank, index_t i0, index_t i1) {
                                gemm_serial(ks, i1 - i0, n, k, alpha,
                                            {a.data + i0 * a.rs, a.rs, a.cs}, b, beta, c + i0, ldc,
                                            ws, rank);
                              }),
                   linger);
  } else if (split_rows) {
    // One unit per participant, each the whole BLIS loop nest on its rows with B packed into
    // its own panels: no unit ever waits for another. One shared packed panel (pack units,
    // then row chunks waiting for them, each reading half of the panel from the other CPU's
    // packing) ran 2-thread dgemm 512 slower than this; two units per participant, each
    // packing B again, lost at 512-1024 (docs/perf/blocking.md; docs/gemm.md, "Parallel split").
    if (!private_panels(ks, width, m, n, k, ws)) return false;
    const std::size_t units = std::min(width, static_cast<std::size_t>(row_tiles));
    run_claimed_units(
        on, width, units, ws,
        unit_parts(m, ks.fns.mr, units,
                   [&](std::size_t rank, index_t i0, index_t i1) {
                     gemm_packed(
                         ks, i0, i1, n, k, alpha, a, b, beta, c, ldc,
                         ws.buffer_of<T>(rank, Workspace::Slot::pack_a, pack_a_elems(ks, m, k)),
                         ws.buffer_of<T>(rank, Workspace::Slot::pack_b, pack_b_elems(ks, n, k)));
                   }),
        linger);
  } else {
    // About 4 units per participant when nothing is packed; one when packing, as the packed
    // row split, since each unit packs all of A (four ran dgemm 768^3 and 1024^3 slower than the
    // row split; docs/gemm.md, "Parallel split").
    const std::size_t units = in_place ? work_units(col_tiles, width)
                                       : std::min(width, static_cast<std::size_t>(col_tiles));
    run_home_units(on, width, units, ws,
                   unit_parts(n, ks.fns.nr, units,
                              [&](std::size_t rank, index_t j0, index_t j1) {
                                gemm_serial(ks, m, j1 - j0, k, alpha, a,
                                            {b.data + j0 * b.cs, b.rs, b.cs}, beta, c + j0 * ldc,
                                            ldc, ws, rank);
                              }),
                   linger);
  }
  return true;
}

template <class T>
void gemm_strided(index_t m, index_t n, index_t k, T alpha, Strided<T> a, Strided<T> b, T beta,
                  T* c, index_t ldc, Exec& exec) {
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (m <= 0 || n <= 0) {
    return;
  }
  // Inside a claimed unit (trsm's and trmm's recursions), the unit's rank of the leader's
  // workspace (workspace_units.hpp).
  const RankBuffers buffers = exec_buffers(exec);
  Workspace& ws = *buffers.ws;
  const KernelSet<T> ks = kernels<T>();
  RegionPlan plan;
  if (exec.team != nullptr && k > 0 && alpha != T(0)) {
    const double flops =
        2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    plan = plan_region(RegionKind::gemm, sizeof(T), flops, exec);
    exec.stats.inline_regions = plan.width == 1 ? 1 : 0;
  }
  // A wide run needs every rank's buffers; without the memory for them C is computed inline.
  run_planned(
      plan, exec, 2 * pack_b_elems(ks, n, k) * sizeof(T),
      [&] {
        return ws.try_prepare(plan.width) && run_wide(ks, plan.width, m, n, k, alpha, a, b, beta, c,
                                                      ldc, ws, *exec.team, linger_of(plan));
      },
      [&] { gemm_serial(ks, m, n, k, alpha, a, b, beta, c, ldc, ws, buffers.rank); });
}

// gemm_inline(): gemm_serial on the calling thread, with the thread's workspace only if the
// product needs one.
template <class T>
[[gnu::always_inline]] inline void gemm_inline(index_t m, index_t n, index_t k, T alpha,
                                               Strided<T> a, Strided<T> b, T beta, T* c,
                                               index_t ldc) {
  const KernelSet<T>& ks = kernels<T>();
  if (!gemm_without_workspace(ks, m, n, k, alpha, a, b, beta, c, ldc)) {
    const RankBuffers buffers = unit_buffers();
    gemm_serial(ks, m, n, k, alpha, a, b, beta, c, ldc, *buffers.ws, buffers.rank);
  }
}

// gemm_normalised(): runs `body` on column-major C (m, n, k, op(A), op(B) as strides): a
// row-major C is column-major C^T = op(B)^T op(A)^T, the operands and their strides swapped.
template <class T, class Body>
void gemm_normalised(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                     const MatrixView<T>& c, index_t k, Body&& body) {
  const Strided<T> sa = strided_op(a, op_a);
  const Strided<T> sb = strided_op(b, op_b);
  if (c.layout == Layout::col_major) {
    body(c.rows, c.cols, k, sa, sb);
  } else {
    body(c.cols, c.rows, k, Strided<T>{sb.data, sb.cs, sb.rs}, Strided<T>{sa.data, sa.cs, sa.rs});
  }
}

}  // namespace detail

template <class T>
void gemm_tiny(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a,
               const MatrixView<const T>& b, T beta, const MatrixView<T>& c) {
  const index_t k = op_a == Op::none ? a.cols : a.rows;
  if (c.layout == Layout::col_major) {
    // A row-major operand is the column-major transpose: the BLAS convention's fast path.
    const auto as_col_major = [](Op op, Layout layout) {
      return (op == Op::none) == (layout == Layout::col_major) ? Op::none : Op::transpose;
    };
    gemm_tiny_col_major(as_col_major(op_a, a.layout), as_col_major(op_b, b.layout), c.rows, c.cols,
                        k, alpha, a.data, a.ld, b.data, b.ld, beta, c.data, c.ld);
    return;
  }
  detail::gemm_normalised(op_a, op_b, a, b, c, k,
                          [&](index_t m, index_t n, index_t kk, auto sa, auto sb) {
                            detail::gemm_inline<T>(m, n, kk, alpha, sa, sb, beta, c.data, c.ld);
                          });
}

template <class T>
void gemm_tiny_col_major(Op op_a, Op op_b, index_t m, index_t n, index_t k, T alpha, const T* a,
                         index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc) {
  const auto kernel_set = []() -> const detail::KernelSet<T>& { return detail::kernels<T>(); };
  if (detail::tiny_shortcut(kernel_set, op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) {
    return;
  }
  detail::gemm_inline<T>(m, n, k, alpha, detail::col_major_operand(op_a, a, lda),
                         detail::col_major_operand(op_b, b, ldb), beta, c, ldc);
}

template <class T>
void gemm(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a, const MatrixView<const T>& b,
          T beta, const MatrixView<T>& c, Exec& exec) {
  check_gemm(op_a, op_b, a, b, c);
  const index_t m = c.rows;
  const index_t n = c.cols;
  const index_t k = op_a == Op::none ? a.cols : a.rows;
  if (gemm_is_tiny(m, n, k)) {
    exec.stats = ExecStats{};
    exec.stats.max_width_used = 1;
    exec.stats.inline_regions = exec.team != nullptr ? 1 : 0;
    gemm_tiny(op_a, op_b, alpha, a, b, beta, c);
    return;
  }
  detail::gemm_normalised(
      op_a, op_b, a, b, c, k, [&](index_t mm, index_t nn, index_t kk, auto sa, auto sb) {
        detail::gemm_strided<T>(mm, nn, kk, alpha, sa, sb, beta, c.data, c.ld, exec);
      });
}

template void gemm<double>(Op, Op, double, const MatrixView<const double>&,
                           const MatrixView<const double>&, double, const MatrixView<double>&,
                           Exec&);
template void gemm<float>(Op, Op, float, const MatrixView<const float>&,
                          const MatrixView<const float>&, float, const MatrixView<float>&, Exec&);
template void gemm_tiny<double>(Op, Op, double, const MatrixView<const double>&,
                                const MatrixView<const double>&, double, const MatrixView<double>&);
template void gemm_tiny<float>(Op, Op, float, const MatrixView<const float>&,
                               const MatrixView<const float>&, float, const MatrixView<float>&);
template void gemm_tiny_col_major<double>(Op, Op, index_t, index_t, index_t, double, const double*,
                                          index_t, const double*, index_t, double, double*,
                                          index_t);
template void gemm_tiny_col_major<float>(Op, Op, index_t, index_t, index_t, float, const float*,
                                         index_t, const float*, index_t, float, float*, index_t);

namespace detail {
template void scale_c<double>(index_t, index_t, double, double*, index_t);
template void scale_c<float>(index_t, index_t, float, float*, index_t);
template void gemm_serial<double>(const KernelSet<double>&, index_t, index_t, index_t, double,
                                  Strided<double>, Strided<double>, double, double*, index_t,
                                  Workspace&, std::size_t);
template void gemm_serial<float>(const KernelSet<float>&, index_t, index_t, index_t, float,
                                 Strided<float>, Strided<float>, float, float*, index_t, Workspace&,
                                 std::size_t);
template void gemm_strided<double>(index_t, index_t, index_t, double, Strided<double>,
                                   Strided<double>, double, double*, index_t, Exec&);
template void gemm_strided<float>(index_t, index_t, index_t, float, Strided<float>, Strided<float>,
                                  float, float*, index_t, Exec&);
}  // namespace detail

}  // namespace teamla::linalg
