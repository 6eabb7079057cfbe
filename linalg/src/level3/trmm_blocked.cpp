// SPDX-License-Identifier: Apache-2.0
// trmm_blocked.cpp: B = alpha * A * B and B = alpha * B * A (A triangular, B column-major) on
// gemm's loops.
//
// A on the left is a gemm whose A is the triangle, run one kc-deep panel of B at a time: B's
// rows [K0, K1) are packed once (the kernel's pack_b), and that one packed panel serves both
// the rows off the diagonal block (a rank-kc update through gemm's ic_loop, beta = 1) and the
// diagonal block's own rows (the triangle packed over each strip's k range,
// pack_triangle_rows, beta = 0: their first write). In place, the panels are visited so that
// every row of B is packed before it is written: bottom-up for a lower A (rows K1.. receive
// from panel K after their own diagonal block ran), top-down for an upper one. A on the right
// mirrors it with the triangle as gemm's B (pack_triangle_columns), panels of B's columns
// left to right for a lower A. B is packed once in all, as in a gemm of the same shape, where
// the recursion of trmm.cpp packs it once per level and once more in its leaves (pack_b there
// is a visible share of strmm_ 1024; docs/level3.md, "TRMM"; docs/perf/blocking.md).
#include <algorithm>

#include "gemm/gemm_internal.hpp"
#include "level3/trmm_internal.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/shortfall.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {

namespace {

// Panel: the kb rows (A on the left) or columns (on the right) of B from k0 that one kc-deep
// panel of the triangle's order covers.
struct Panel {
  index_t k0, kb;
};

// PanelBuffers: the packed blocks of one product, from the calling thread's workspace: ap for
// gemm's A (ic_loop's blocks, at most mc x kc of the kernel's blocking and never more than all
// `rows` rows; the diagonal's blocks fit the same), bp for gemm's B (kc x nc, or a kc x kc
// triangle packed in NR-column micro-panels); and the panels of the triangle's order.
template <class T>
struct PanelBuffers {
  T* ap = nullptr;
  T* bp = nullptr;
  index_t kc = 0;         // the depth of a panel: the kernel's kc, at most the triangle's order
  index_t nc = 0;         // the columns of a packed B panel, a multiple of NR
  index_t diag_rows = 0;  // the rows of a diagonal block packed at once: whole MR strips, <= mc
  index_t order = 0;      // the triangle's
  index_t panels = 0;     // kc-deep panels of `order`

  // at(): panel `step` of the walk, from the last panel when `from_end`: the walk packs every
  // row (column) of B before the diagonal block of a panel writes it.
  Panel at(index_t step, bool from_end) const {
    const index_t k0 = (from_end ? panels - 1 - step : step) * kc;
    return {k0, std::min(kc, order - k0)};
  }
};

template <class T>
PanelBuffers<T> panel_buffers(const detail::KernelSet<T>& ks, index_t rows, index_t order,
                              index_t cols) {
  const index_t mr = ks.fns.mr;
  const index_t nr = ks.fns.nr;
  const auto round_up = [](index_t v, index_t unit) { return (v + unit - 1) / unit * unit; };
  PanelBuffers<T> p;
  p.kc = std::max<index_t>(1, std::min(ks.blocking.kc, order));
  p.nc = std::max<index_t>(nr, std::min(ks.blocking.nc, cols) / nr * nr);
  p.diag_rows = std::max(mr, ks.blocking.mc / mr * mr);
  p.order = order;
  p.panels = (order + p.kc - 1) / p.kc;
  const index_t a_elems =
      std::min(round_up(rows, mr) * p.kc, round_up(ks.blocking.mc, mr) * ks.blocking.kc);
  const index_t b_elems = p.kc * std::max(p.nc, round_up(p.kc, nr));
  const detail::RankBuffers buffers = detail::unit_buffers();
  p.ap = buffers.ws->try_buffer_of<T>(buffers.rank, Workspace::Slot::pack_a,
                                      static_cast<std::size_t>(a_elems));
  p.bp = p.ap == nullptr ? nullptr
                         : buffers.ws->try_buffer_of<T>(buffers.rank, Workspace::Slot::pack_b,
                                                        static_cast<std::size_t>(b_elems));
  if (p.bp == nullptr) {
    team::note_shortfall(team::Shortfall::memory,
                         static_cast<std::size_t>(a_elems + b_elems) * sizeof(T));
    p.ap = nullptr;
  }
  return p;
}

// KColumnRange: the k range [k0, k1) that the NR columns from j0 reach in a kb x kb triangle.
struct KColumnRange {
  index_t k0, k1;
};
KColumnRange column_k_range(bool lower, index_t kb, index_t j0, index_t cols) {
  return lower ? KColumnRange{j0, kb} : KColumnRange{0, j0 + cols};
}

// pack_triangle_columns(): the kb x kb triangle packed as gemm's B, each NR-column micro-panel
// over only the k range its columns reach, its diagonal corner made triangular (zeros outside
// the triangle, ones on a unit diagonal); the micro-panels follow each other in `bp`.
template <class T>
void pack_triangle_columns(const detail::KernelFns<T>& f, bool lower, bool unit,
                           MatrixView<const T> tri, T* bp) {
  const index_t kb = tri.rows;
  const index_t nr = f.nr;
  T* panel = bp;
  for (index_t j0 = 0; j0 < kb; j0 += nr) {
    const index_t cols = std::min(nr, kb - j0);
    const KColumnRange r = column_k_range(lower, kb, j0, cols);
    f.pack_b(r.k1 - r.k0, cols, tri.data + r.k0 * tri.row_stride() + j0 * tri.col_stride(),
             tri.row_stride(), tri.col_stride(), panel);
    // Step k of the diagonal corner: columns j > k - j0 lie above the diagonal (zero in a
    // lower triangle), columns j < k - j0 below it (zero in an upper one).
    for (index_t k = j0; k < j0 + cols; ++k) {
      T* step = panel + (k - r.k0) * nr;
      const index_t on = k - j0;
      if (lower) {
        std::fill(step + on + 1, step + cols, T(0));
      } else {
        std::fill(step, step + on, T(0));
      }
      if (unit) step[on] = T(1);
    }
    panel += (r.k1 - r.k0) * nr;
  }
}

// multiply_left(): A on the left, B's rows packed by kc-deep panels, bottom-up for a lower A.
template <class T>
void multiply_left(const detail::KernelSet<T>& ks, const PanelBuffers<T>& buf, bool lower,
                   bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b) {
  const detail::KernelFns<T>& f = ks.fns;
  const detail::Strided<T> sa{a.data, a.row_stride(), a.col_stride()};
  const index_t ldb = b.col_stride();
  for (index_t j0 = 0; j0 < b.cols; j0 += buf.nc) {
    const index_t ncb = std::min(buf.nc, b.cols - j0);
    T* c = &b(0, j0);
    for (index_t step = 0; step < buf.panels; ++step) {
      const auto [k0, kb] = buf.at(step, lower);
      f.pack_b(kb, ncb, c + k0, 1, ldb, buf.bp);
      if (lower && k0 + kb < b.rows) {
        detail::ic_loop(ks, k0 + kb, b.rows, ncb, kb, sa, k0, buf.ap, buf.bp, c, ldb, alpha, T(1));
      } else if (!lower && k0 > 0) {
        detail::ic_loop(ks, 0, k0, ncb, kb, sa, k0, buf.ap, buf.bp, c, ldb, alpha, T(1));
      }
      const MatrixView<const T> diag = a.block(k0, k0, kb, kb);
      const MatrixView<T> rows = b.block(k0, j0, kb, ncb);
      const index_t shift = strip_grid_shift(lower, kb, f.mr);
      for (index_t r0 = 0; r0 < kb; r0 = next_grid_edge(r0, shift, buf.diag_rows, kb)) {
        const index_t r1 = next_grid_edge(r0, shift, buf.diag_rows, kb);
        pack_triangle_rows(f, lower, unit, diag, r0, r1, buf.ap);
        multiply_triangle_rows(f, lower, alpha, r0, r1, buf.ap, buf.bp, rows);
      }
    }
  }
}

// multiply_right(): A on the right, the triangle packed as gemm's B by kc-deep panels of B's
// columns, left to right for a lower A.
template <class T>
void multiply_right(const detail::KernelSet<T>& ks, const PanelBuffers<T>& buf, bool lower,
                    bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b) {
  const detail::KernelFns<T>& f = ks.fns;
  const index_t m = b.rows;
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  const detail::Strided<T> sb{b.data, 1, b.col_stride()};
  const index_t ldb = b.col_stride();
  for (index_t step = 0; step < buf.panels; ++step) {
    const auto [k0, kb] = buf.at(step, !lower);
    // Off the diagonal block: columns [0, k0) (lower) or [k0 + kb, n) (upper) += B(:, panel) *
    // A(panel, columns), before the diagonal block overwrites B(:, panel).
    const index_t c0 = lower ? 0 : k0 + kb;
    const index_t c1 = lower ? k0 : b.cols;
    for (index_t j0 = c0; j0 < c1; j0 += buf.nc) {
      const index_t ncb = std::min(buf.nc, c1 - j0);
      f.pack_b(kb, ncb, a.data + k0 * a.row_stride() + j0 * a.col_stride(), a.row_stride(),
               a.col_stride(), buf.bp);
      detail::ic_loop(ks, 0, m, ncb, kb, sb, k0, buf.ap, buf.bp, &b(0, j0), ldb, alpha, T(1));
    }
    // The diagonal block: columns [k0, k0 + kb) = B(:, panel) * triangle, a block of B's rows
    // packed before its own rows are written.
    pack_triangle_columns(f, lower, unit, a.block(k0, k0, kb, kb), buf.bp);
    for (index_t i0 = 0; i0 < m; i0 += buf.diag_rows) {
      const index_t rows = std::min(buf.diag_rows, m - i0);
      f.pack_a(rows, kb, &b(i0, k0), 1, ldb, buf.ap);
      const T* panel = buf.bp;
      for (index_t j0 = 0; j0 < kb; j0 += nr) {
        const index_t cols = std::min(nr, kb - j0);
        const KColumnRange r = column_k_range(lower, kb, j0, cols);
        for (index_t ir = 0; ir < rows; ir += mr) {
          f.packed(std::min(mr, rows - ir), cols, r.k1 - r.k0, buf.ap + ir * kb + r.k0 * mr, mr,
                   panel, &b(i0 + ir, k0 + j0), ldb, alpha, T(0));
        }
        panel += (r.k1 - r.k0) * nr;
      }
    }
  }
}

}  // namespace

template <class T>
bool trmm_blocked(Side side, bool lower, bool unit, T alpha, MatrixView<const T> a,
                  MatrixView<T> b) {
  const detail::KernelSet<T>& ks = detail::kernels<T>();
  const bool left = side == Side::left;
  const PanelBuffers<T> buf = panel_buffers(ks, b.rows, a.rows, left ? b.cols : a.rows);
  if (buf.ap == nullptr) return false;
  if (left) {
    multiply_left(ks, buf, lower, unit, alpha, a, b);
  } else {
    multiply_right(ks, buf, lower, unit, alpha, a, b);
  }
  return true;
}

template bool trmm_blocked<double>(Side, bool, bool, double, MatrixView<const double>,
                                   MatrixView<double>);
template bool trmm_blocked<float>(Side, bool, bool, float, MatrixView<const float>,
                                  MatrixView<float>);

}  // namespace teamla::linalg::level3_detail
