// SPDX-License-Identifier: Apache-2.0
// potrf_step.cpp: one blocked Cholesky step on a claimed section: the panel solve, then the
// trailing update in tiles, every piece a unit claimed in order.
//
// Units 0 .. groups-1: the panel, L21 = A21 * L11^-T, solved in 48-row groups straight into the
// shared A micro-panels (MR rows) that the trailing update reads, each group then packed as B
// (NR columns) while still in cache.
// Units groups .. groups+tiles-1: the trailing triangle cut into square tiles (tile_side()); a
// tile unit first waits until every group has finished (they were all claimed before it, so
// their holders are running). Claiming balances the work where a static split cannot: on a
// shared or virtual machine a participant loses a few percent of a step to the hypervisor or
// to a foreign thread (perf of a 2-thread dpotrf at n = 4096 with a static area split found a real
// share of the samples in waits; docs/cholesky.md, "The team step"), and a participant that starts
// late leaves its share to the others.
// Lookahead: with next_kb > 0, the tiles covering the next diagonal block come first, and
// whoever finishes the last of them factors that block while the others go on updating.
#include <algorithm>
#include <atomic>

#include "gemm/gemm_internal.hpp"
#include "level3/level3_internal.hpp"
#include "level3/syrk_tiles.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kRowAlign: row splits and tile edges fall on multiples of 48, a multiple of every kernel's
// MR and NR (24/8, 48/8, 8/6, 16/6, 4/4), so packed micro-panels never straddle two
// participants and a tile starts on a micro-panel.
constexpr index_t kRowAlign = 48;

// tile_side(): 240 (10 double or 5 float register tiles of rows; a 240 x 240 x 128 tile is
// ~15 Mflop, ~0.3 ms), made smaller while the trailing triangle would have fewer than 4
// tiles per participant to claim.
index_t tile_side(index_t m2, std::size_t width) {
  for (index_t side : {240, 144, 96}) {
    const index_t t = (m2 + side - 1) / side;
    if (t * (t + 1) / 2 >= 4 * static_cast<index_t>(width)) return side;
  }
  return kRowAlign;
}

// TileOrder: the lower-triangle tiles (row tile i >= column tile j) of a t x t grid, the p x p
// leading block first (p = 0: no priority), then the rest column by column.
struct TileOrder {
  index_t t = 0;
  index_t p = 0;
  [[nodiscard]] index_t priority_count() const { return p * (p + 1) / 2; }
  [[nodiscard]] index_t count() const { return t * (t + 1) / 2; }
  void at(index_t idx, index_t& i, index_t& j) const {
    if (idx < priority_count()) {
      for (j = 0; idx >= p - j; ++j) idx -= p - j;
      i = j + idx;
      return;
    }
    idx -= priority_count();
    for (j = 0;; ++j) {
      const index_t first = std::max(j, p);
      if (idx < t - first) {
        i = first + idx;
        return;
      }
      idx -= t - first;
    }
  }
};

// ---- the fused panel solve --------------------------------------------------------------
// L21 = A21 * L11^-T is solved one MR-row micro-panel at a time, NR columns at a time: the
// columns [c0, c0 + NR) of a micro-panel are A21's minus the solved columns to their left
// times L11's rows [c0, c0 + NR) (one microkernel call with k = c0, reading the micro-panel
// itself as A), then solved against L11's NR x NR diagonal block in the tile. The result is
// the trailing update's packed A, written in place: a recursive trsm on the panel rows would
// re-pack the rows for its gemm updates at every level of the recursion.

// The triangle L11 packed for the fused solve: chunk j (columns c0 = j * NR) holds rows
// p < c0 + NR of L11^T as a gemm B micro-panel, element (p, c) = L11(c0 + c, p), so the chunk's
// update reads its first c0 rows and the diagonal solve the NR after them.
index_t chunk_offset(index_t j, index_t nr) { return nr * nr * j * (j + 1) / 2; }

// triangle_elems(): the packed triangle of a kb-wide block, with its reciprocal diagonal
// after it. The triangle sits at the start of the step's shared buffer, so that a lookahead
// step can pack the next step's triangle there while its own packed panel is still in use.
index_t triangle_elems(index_t kb, index_t nr) { return chunk_offset((kb + nr - 1) / nr, nr) + kb; }

template <class T>
void pack_triangle(MatrixView<const T> l11, index_t nr, T* dst) {
  const index_t kb = l11.rows;
  const index_t rs = l11.row_stride();
  for (index_t j = 0, c0 = 0; c0 < kb; ++j, c0 += nr) {
    T* chunk = dst + chunk_offset(j, nr);
    const index_t w = std::min(nr, kb - c0);
    // Rows p < c0: all w values stored, read down a column of L11 (contiguous if col-major).
    for (index_t p = 0; p < c0; ++p) {
      const T* src = &l11(c0, p);
      T* out = chunk + p * nr;
      for (index_t c = 0; c < w; ++c) out[c] = src[c * rs];
      std::fill(out + w, out + nr, T(0));
    }
    // The diagonal block: its upper part is zero.
    for (index_t p = c0; p < c0 + nr; ++p) {
      for (index_t c = 0; c < nr; ++c) {
        const bool stored = c0 + c < kb && p < kb && p <= c0 + c;
        chunk[p * nr + c] = stored ? l11(c0 + c, p) : T(0);
      }
    }
  }
  T* rdiag = dst + chunk_offset((kb + nr - 1) / nr, nr);
  for (index_t i = 0; i < kb; ++i) rdiag[i] = T(1) / l11(i, i);
}

// solve_into_panels(): the rows `rows` (m x kb) of the panel, packed into their micro-panels
// `a_packed`, solved there and written back to the matrix. Packing first (gemm's packer)
// takes the same panel time as copying each tile in just before its solve (instrumented, 2
// threads, n = 4096: ~27.5 ms of ~230 ms per call either way) and needs no buffer for a chunk
// cut short by the panel's edge.
template <class T>
void solve_into_panels(const detail::KernelFns<T>& f, const LeafKernels<T>& leaf,
                       MatrixView<T> rows, const T* tri, const T* rdiag, T* a_packed) {
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  const index_t kb = rows.cols;
  const index_t rs = rows.row_stride();
  f.pack_a(rows.rows, kb, rows.data, rs, rows.col_stride(), a_packed);
  for (index_t i0 = 0; i0 < rows.rows; i0 += mr) {
    const index_t mi = std::min(mr, rows.rows - i0);
    T* micro = a_packed + i0 * kb;
    for (index_t j = 0, c0 = 0; c0 < kb; ++j, c0 += nr) {
      // The tile is the micro-panel's columns [c0, c0 + w); the kernel and the solve touch
      // those w columns only, so a chunk cut short by the panel's edge needs no copy.
      const index_t w = std::min(nr, kb - c0);
      T* x = micro + c0 * mr;
      const T* chunk = tri + chunk_offset(j, nr);
      if (c0 > 0) f.packed(mr, w, c0, micro, mr, chunk, x, mr, T(-1), T(1));
      leaf.solve_panel_tile(x, mr, w, chunk + c0 * nr, nr, rdiag + c0);
      for (index_t c = 0; c < w; ++c) {
        T* __restrict dst = &rows(i0, c0 + c);
        const T* __restrict src = x + c * mr;
        if (rs == 1) {
          std::copy(src, src + mi, dst);
        } else {
          for (index_t i = 0; i < mi; ++i) dst[i * rs] = src[i];
        }
      }
    }
  }
}

// StepBuffers: the step's shared buffer, [L11 packed | A21 packed as A | A21 packed as B];
// offsets of 64 elements keep the panels' starts on cache lines. tri is null when the
// workspace could not grow to `bytes`. Every step of a factorization asks for the first
// step's size: whichever steps run wide (the width is chosen step by step), the buffer grows
// in the first call of an order only, and never between two steps (a step's triangle, packed
// by the step before, must stay where it is).
template <class T>
struct StepBuffers {
  T* tri = nullptr;
  T* a_packed = nullptr;
  T* b_packed = nullptr;
  std::size_t bytes = 0;
};

template <class T>
StepBuffers<T> step_buffers(Workspace& ws, index_t n, index_t kb, index_t m2, index_t mr,
                            index_t nr) {
  const auto round64 = [](index_t e) { return (e + 63) / 64 * 64; };
  const index_t tri_elems = round64(triangle_elems(kb, nr));
  const auto a_elems = [&](index_t rows) { return round64((rows + mr - 1) / mr * mr * kb); };
  const auto b_elems = [&](index_t rows) { return (rows + nr - 1) / nr * nr * kb; };
  const index_t first_m2 = n - kb;  // every wide step's kb is the block size (only the last is
                                    // shorter, and it has no trailing matrix)
  StepBuffers<T> b;
  b.bytes = static_cast<std::size_t>(tri_elems + a_elems(first_m2) + b_elems(first_m2)) * sizeof(T);
  b.tri = static_cast<T*>(ws.try_shared_buffer(b.bytes));
  if (b.tri != nullptr) {
    b.a_packed = b.tri + tri_elems;
    b.b_packed = b.a_packed + a_elems(m2);
  }
  return b;
}

// update_tile(): the trailing update of the side x side tile at (i_begin, j_begin) of
// `trailing` (m2 x m2, clipped), from the packed panels.
template <class T>
void update_tile(const detail::KernelFns<T>& f, bool lower, index_t i_begin, index_t j_begin,
                 index_t side, index_t kb, const T* a_packed, const T* b_packed,
                 MatrixView<T> trailing) {
  const index_t m2 = trailing.rows;
  const index_t i_end = std::min(m2, i_begin + side);
  const index_t j_end = std::min(m2, j_begin + side);
  for (index_t j = j_begin; j < j_end; j += f.nr) {
    const T* b_panel = b_packed + j * kb;
    for (index_t i = i_begin; i < i_end; i += f.mr) {
      triangle_tile(f, lower, i, j, std::min<index_t>(f.mr, i_end - i),
                    std::min<index_t>(f.nr, j_end - j), kb, a_packed + i * kb, b_panel,
                    trailing.data + i + j * trailing.ld, trailing.ld, T(-1), T(1));
    }
  }
}

}  // namespace

template <class T>
index_t potrf_parallel_step(MatrixView<T> a, index_t k, index_t kb, std::size_t width,
                            index_t next_kb, bool triangle_packed, Exec& exec) {
  const index_t n = a.rows;
  const index_t m2 = n - k - kb;
  const MatrixView<const T> l11 = a.block(k, k, kb, kb);
  MatrixView<T> panel = a.block(k + kb, k, m2, kb);
  MatrixView<T> trailing = a.block(k + kb, k + kb, m2, m2);
  const detail::KernelFns<T> f = detail::kernels<T>().fns;
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  // Storage of the trailing triangle read column-major: a row-major lower triangle is the
  // upper triangle of its storage (see syrk_serial.cpp); the update is the same.
  const bool lower = trailing.layout == Layout::col_major;
  const index_t rs = panel.row_stride();
  const index_t cs = panel.col_stride();

  Workspace& ws = *detail::exec_buffers(exec).ws;
  const StepBuffers<T> buffers = step_buffers<T>(ws, n, kb, m2, mr, nr);
  if (buffers.tri == nullptr) {
    // No memory for the packed panels: the step's inline form, which packs on the stack when
    // it must (small_blocks.hpp).
    team::note_shortfall(team::Shortfall::memory, buffers.bytes);
    trsm_left_serial<T>(true, false, l11, panel.transposed());
    syrk_lower_cols<T>(T(-1), MatrixView<const T>(panel), T(1), trailing, 0, m2);
    return kStepNotAhead;
  }
  T* tri = buffers.tri;
  T* a_packed = buffers.a_packed;
  T* b_packed = buffers.b_packed;
  const T* rdiag = tri + chunk_offset((kb + nr - 1) / nr, nr);
  if (!triangle_packed) pack_triangle(l11, nr, tri);
  const LeafKernels<T>& leaf = leaf_kernels<T>();

  const index_t side = tile_side(m2, width);
  const TileOrder order{(m2 + side - 1) / side, next_kb > 0 ? (next_kb + side - 1) / side : 0};
  const index_t groups = (m2 + kRowAlign - 1) / kRowAlign;
  std::atomic<index_t> groups_done{0};
  std::atomic<index_t> priority_done{0};
  index_t next_info = 0;

  ++exec.stats.sections;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  const auto units = static_cast<std::size_t>(groups + order.count());
  // Claimed units with ranked buffers: the next diagonal block's copy (scratch()) lands on
  // whichever rank factors it.
  detail::run_claimed_units(*exec.team, width, units, ws, [&](team::Section& s, std::size_t unit) {
    const auto idx_unit = static_cast<index_t>(unit);
    if (idx_unit < groups) {
      const index_t g = idx_unit * kRowAlign;
      MatrixView<T> rows = panel.block(g, 0, std::min(kRowAlign, m2 - g), kb);
      solve_into_panels(f, leaf, rows, tri, rdiag, a_packed + g * kb);
      f.pack_b(kb, rows.rows, rows.data, cs, rs, b_packed + g * kb);
      groups_done.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    s.wait_for([&] { return groups_done.load(std::memory_order_acquire) == groups; });
    const index_t idx = idx_unit - groups;
    index_t ti = 0;
    index_t tj = 0;
    order.at(idx, ti, tj);
    if (!lower) std::swap(ti, tj);
    update_tile(f, lower, ti * side, tj * side, side, kb, a_packed, b_packed, trailing);
    if (idx < order.priority_count() &&
        priority_done.fetch_add(1, std::memory_order_acq_rel) + 1 == order.priority_count()) {
      next_info = factor_diagonal(trailing.block(0, 0, next_kb, next_kb));
      if (next_info == kNoScratch) next_info = kStepNotAhead;  // the next step factors it
      // The next step's triangle, off its critical path: packed serially before its
      // section, it would lengthen every step of a 2-thread n = 4096 factorization
      // (docs/perf/blocking.md).
      // Every group unit has finished, so nothing reads this step's triangle any more.
      if (next_info == 0) pack_triangle<T>(trailing.block(0, 0, next_kb, next_kb), nr, tri);
    }
  });
  return next_info;
}
template index_t potrf_parallel_step<double>(MatrixView<double>, index_t, index_t, std::size_t,
                                             index_t, bool, Exec&);
template index_t potrf_parallel_step<float>(MatrixView<float>, index_t, index_t, std::size_t,
                                            index_t, bool, Exec&);

}  // namespace teamla::linalg::level3_detail
