// SPDX-License-Identifier: Apache-2.0
// trmm_leaf.cpp: a small triangular block times B, in place, on the gemm microkernel.
//
// Each MR-row strip of the triangle reaches only part of the k range: [0, last row] for a lower
// triangle, [first row, m) for an upper one. The triangle is packed once as gemm's A, each
// micro-panel over its strip's range only, with the entries of its diagonal block outside the
// triangle set to zero and a unit diagonal written as ones. B is packed a chunk of columns at a
// time, before any of those columns is written, so the product may overwrite B; each strip then
// runs the microkernel over its range, its diagonal block a vector's rows further each. The flops
// are the triangle's, rounded to the kernel's row_step, not those of a dense m x m block. Buffers
// come from the calling thread's workspace (they only grow), or from the stack for smaller leaves
// when it cannot grow.
#include <algorithm>
#include <cstddef>

#include "isa_dispatch.hpp"
#include "level3/trmm_internal.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/shortfall.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kChunkCols: columns of B packed at once (rounded to NR).
constexpr index_t kChunkCols = 32;
// The largest NR of any kernel, and the largest MR for T (double avx512: 24; float: 48).
constexpr index_t kMaxNr = 8;
constexpr index_t kMaxMr = 48;
template <class T>
constexpr index_t max_mr() {
  return sizeof(T) == 8 ? 24 : kMaxMr;
}

// Elements of the packed triangle (ceil(leaf / MR) * MR rows of `leaf` columns) and of a packed
// chunk of B (leaf rows of kChunkCols + NR columns), for T's widest kernel.
template <class T>
constexpr std::size_t packed_a_elems(index_t leaf) {
  return static_cast<std::size_t>((leaf + max_mr<T>() - 1) / max_mr<T>() * max_mr<T>() * leaf);
}
constexpr std::size_t packed_b_elems(index_t leaf) {
  return static_cast<std::size_t>(leaf * (kChunkCols + kMaxNr));
}

// StripRange: the k range [k0, k1) that the strip of rows [i0, i1) reaches in the triangle.
struct StripRange {
  index_t k0, k1;
};
inline StripRange strip_range(bool lower, index_t m, index_t i0, index_t i1) {
  return lower ? StripRange{0, i1} : StripRange{i0, m};
}

// StripWalk: the strips of rows [r0, r1) in order, on the shifted grid (strip_grid_shift()),
// each packed panel (k1 - k0 steps of MR values) right after the one before. Advanced by adds
// only: the divisions of a closed form per strip and B micro-panel made most of the time that
// multiply_triangle_rows() itself takes of strmm_ 256 (perf; docs/level3.md, "TRMM";
// docs/perf/blocking.md).
struct StripWalk {
  index_t i0, i1;     // the strip's rows
  index_t r1, mr;     // the rows walked, and the grid's unit
  std::size_t panel;  // where the strip's packed panel starts, in elements from the first
  StripWalk(bool lower, index_t m, index_t mr_, index_t r0, index_t r1_)
      : i0(r0),
        i1(next_grid_edge(r0, strip_grid_shift(lower, m, mr_), mr_, r1_)),
        r1(r1_),
        mr(mr_),
        panel(0) {}
  bool done() const { return i0 >= r1; }
  void next(const StripRange& s) {
    panel += static_cast<std::size_t>((s.k1 - s.k0) * mr);
    i0 = i1;
    i1 = std::min(r1, i1 + mr);
  }
};

// triangle_strip(): rows [i0, i0 + mrb) of the product for one NR-column panel of packed B
// (b_panel, k from 0), into c, beta = 0 (the first write of every row), with the zeros of the
// diagonal block multiplied on row_step x row_step corners only instead of the whole MR x MR
// block (float's MR of 48 multiplied many more than the triangle's flops at strmm_ 256;
// docs/level3.md, "TRMM"). The kernel's triangle tile (KernelFns::packed_triangle) does it in
// one call, its vectors reaching a row_step further each. A kernel without one runs the same
// staircase as tiles: level t runs the rows that reach the block's k range
// [i0 + t * step, i0 + (t + 1) * step) (lower: rows [t * step, mrb); upper: rows
// [0, (t + 1) * step)), on a narrower instantiation each, and the level whose rows are all of
// the strip also runs the rectangle off the diagonal block, first, with beta = 0. Every level
// starts at a multiple of row_step into the packed panel (KernelFns::row_step).
template <class T>
void triangle_strip(const detail::KernelFns<T>& f, bool lower, T alpha, index_t i0, index_t mrb,
                    index_t nrb, const StripRange& s, const T* a_panel, const T* b_panel, T* c,
                    index_t ldc) {
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  if (f.packed_triangle != nullptr) {
    f.packed_triangle(lower, mrb, nrb, s.k1 - s.k0, i0 - s.k0, a_panel, mr, b_panel + s.k0 * nr, c,
                      ldc, alpha, T(0));
    return;
  }
  const index_t step = f.row_step;
  index_t levels = 1;
  while (levels * step < mrb) ++levels;
  const auto level = [&](index_t t, T beta) {
    const index_t r0 = lower ? t * step : 0;  // the level's rows [r0, r1) of the strip
    const index_t r1 = lower ? mrb : std::min(mrb, (t + 1) * step);
    const index_t k0 = lower && t == 0 ? s.k0 : i0 + t * step;  // its k range [k0, k1)
    const index_t k1 = !lower && t == levels - 1 ? s.k1 : std::min(i0 + mrb, i0 + (t + 1) * step);
    f.packed(r1 - r0, nrb, k1 - k0, a_panel + (k0 - s.k0) * mr + r0, mr, b_panel + k0 * nr, c + r0,
             ldc, alpha, beta);
  };
  const index_t full = lower ? 0 : levels - 1;
  level(full, T(0));
  for (index_t t = 0; t < levels; ++t) {
    if (t != full) level(t, T(1));
  }
}

}  // namespace

template <class T>
void pack_triangle_rows(const detail::KernelFns<T>& f, bool lower, bool unit, MatrixView<const T> a,
                        index_t r0, index_t r1, T* ap) {
  const index_t m = a.rows;
  const index_t rs = a.row_stride();
  const index_t cs = a.col_stride();
  for (StripWalk w(lower, m, f.mr, r0, r1); !w.done();) {
    const index_t s0 = w.i0;
    const index_t rows = w.i1 - w.i0;
    const StripRange s = strip_range(lower, m, w.i0, w.i1);
    T* panel = ap + w.panel;
    f.pack_a(rows, s.k1 - s.k0, a.data + s0 * rs + s.k0 * cs, rs, cs, panel);
    // Step p of the diagonal block: rows i < p - s0 lie above the diagonal (zero in a lower
    // triangle), rows i > p - s0 below it (zero in an upper one); row p - s0 is on it.
    for (index_t p = s0; p < s0 + rows; ++p) {
      T* step = panel + (p - s.k0) * f.mr;
      const index_t on = p - s0;
      if (lower) {
        std::fill(step, step + on, T(0));
      } else {
        std::fill(step + on + 1, step + rows, T(0));
      }
      if (unit) step[on] = T(1);
    }
    w.next(s);
  }
}

template <class T>
void multiply_triangle_rows(const detail::KernelFns<T>& f, bool lower, T alpha, index_t r0,
                            index_t r1, const T* ap, const T* bp, MatrixView<T> b) {
  const index_t m = b.rows;
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  const index_t ncb = b.cols;
  const bool col_major = b.row_stride() == 1;
  alignas(64) T tile[kMaxMr * kMaxNr];
  for (index_t jr = 0; jr < ncb; jr += nr) {
    const index_t nrb = std::min(nr, ncb - jr);
    const T* b_panel = bp + jr * m;
    for (StripWalk w(lower, m, mr, r0, r1); !w.done();) {
      const index_t i0 = w.i0;
      const index_t mrb = w.i1 - w.i0;
      const StripRange s = strip_range(lower, m, w.i0, w.i1);
      const T* a_panel = ap + w.panel;
      w.next(s);
      if (col_major) {
        triangle_strip(f, lower, alpha, i0, mrb, nrb, s, a_panel, b_panel, &b(i0, jr),
                       b.col_stride());
        continue;
      }
      triangle_strip(f, lower, alpha, i0, mrb, nrb, s, a_panel, b_panel, tile, mr);
      for (index_t j = 0; j < nrb; ++j) {
        for (index_t i = 0; i < mrb; ++i) b(i0 + i, jr + j) = tile[i + j * mr];
      }
    }
  }
}

namespace {

// run_leaf(): the leaf on the given buffers.
template <class T>
void run_leaf(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b, T* ap,
              T* bp) {
  const detail::KernelFns<T>& f = detail::kernels<T>().fns;
  const index_t m = a.rows;
  const index_t nr = f.nr;
  const index_t chunk = std::max<index_t>(nr, kChunkCols / nr * nr);
  pack_triangle_rows(f, lower, unit, a, 0, m, ap);
  for (index_t j0 = 0; j0 < b.cols; j0 += chunk) {
    const index_t ncb = std::min(chunk, b.cols - j0);
    // B(p, j) for p < m: the whole chunk is packed before any of it is written.
    f.pack_b(m, ncb, &b(0, j0), b.row_stride(), b.col_stride(), bp);
    multiply_triangle_rows(f, lower, alpha, 0, m, ap, bp, b.block(0, j0, m, ncb));
  }
}

// leaf_on_stack(): run_leaf with stack buffers; not inlined, so that only this frame has them.
template <class T>
[[gnu::noinline]] void leaf_on_stack(bool lower, bool unit, T alpha, MatrixView<const T> a,
                                     MatrixView<T> b) {
  alignas(64) T ap[packed_a_elems<T>(kTrmmStackLeaf)];
  alignas(64) T bp[packed_b_elems(kTrmmStackLeaf)];
  run_leaf(lower, unit, alpha, a, b, ap, bp);
}

}  // namespace

template <class T>
TrmmLeafBuffers<T> trmm_workspace_buffers() {
  // The scratch slot, which gemm does not use: the recursion's gemm calls between two leaves
  // may grow the packing slots, but never move these buffers.
  const std::size_t a_elems = packed_a_elems<T>(kTrmmLeaf);
  const std::size_t elems = a_elems + packed_b_elems(kTrmmLeaf);
  const detail::RankBuffers buffers = detail::unit_buffers();
  T* buffer = buffers.ws->try_buffer_of<T>(buffers.rank, Workspace::Slot::scratch, elems);
  if (buffer == nullptr) {
    team::note_shortfall(team::Shortfall::memory, elems * sizeof(T));
    return {};
  }
  // a_elems is a multiple of 16 elements (leaf is), so the B buffer stays 64-byte aligned.
  return {buffer, buffer + a_elems, kTrmmLeaf};
}
template TrmmLeafBuffers<double> trmm_workspace_buffers<double>();
template TrmmLeafBuffers<float> trmm_workspace_buffers<float>();

template <class T>
void trmm_leaf(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b,
               const TrmmLeafBuffers<T>& buffers) {
  if (buffers.packed_a == nullptr) {
    leaf_on_stack(lower, unit, alpha, a, b);
    return;
  }
  run_leaf(lower, unit, alpha, a, b, buffers.packed_a, buffers.packed_b);
}

template void pack_triangle_rows<double>(const detail::KernelFns<double>&, bool, bool,
                                         MatrixView<const double>, index_t, index_t, double*);
template void pack_triangle_rows<float>(const detail::KernelFns<float>&, bool, bool,
                                        MatrixView<const float>, index_t, index_t, float*);
template void multiply_triangle_rows<double>(const detail::KernelFns<double>&, bool, double,
                                             index_t, index_t, const double*, const double*,
                                             MatrixView<double>);
template void multiply_triangle_rows<float>(const detail::KernelFns<float>&, bool, float, index_t,
                                            index_t, const float*, const float*, MatrixView<float>);
template void trmm_leaf<double>(bool, bool, double, MatrixView<const double>, MatrixView<double>,
                                const TrmmLeafBuffers<double>&);
template void trmm_leaf<float>(bool, bool, float, MatrixView<const float>, MatrixView<float>,
                               const TrmmLeafBuffers<float>&);

}  // namespace teamla::linalg::level3_detail
