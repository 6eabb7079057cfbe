// SPDX-License-Identifier: Apache-2.0
// syrk_serial.cpp: the serial SYRK/SYR2K loop nest, one triangle of C = alpha*X*Y^T + beta*C.
//
// The BLIS loops of gemm (jc / pc / ic / jr / ir), with both packed operands taken from the
// same A and every packed block used by the whole triangle: for each kc slice of A, the
// rows of A that index C's columns are packed once as B (kc x NR micro-panels), and each
// mc block of the rows below is packed once as A. Calling gemm per column panel instead
// would pack the rows below every 256-column panel again: in a 2-thread dpotrf at n = 4096,
// the repacking took a large share of the kernel's time that way (docs/cholesky.md, "SYRK").
//
// Tiles are classified against the triangle by syrk_tiles.hpp. SYRK packs the same A on both
// sides (X = Y = A); SYR2K runs the nest twice, X*Y^T with beta and then Y*X^T with 1.
//
// C may be stored either way: a lower triangle of row-major C is the upper triangle of the
// same storage read column-major, and since A*A^T (or A*B^T + B*A^T) is symmetric the update
// is the same. The column range [c0, c1) of the lower triangle is then a row range of the stored
// upper one.
#include <algorithm>

#include "gemm/gemm_internal.hpp"
#include "gemm/small_blocks.hpp"
#include "level3/level3_internal.hpp"
#include "level3/syrk_tiles.hpp"
#include "teamla/team/shortfall.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

using detail::KernelSet;

// The stored triangle, column-major: kept entries i >= j (lower) or i <= j (upper);
// [lo, hi) bounds the index that the caller's column range restricts (columns for lower,
// rows for upper).
struct Region {
  bool lower = true;
  index_t lo = 0;
  index_t hi = 0;
};

// Operands: rows of X (packed as gemm's A, indexing C's rows) and of Y (packed as gemm's B,
// indexing C's columns), each n x k at (data, rs, cs).
template <class T>
struct RowOperands {
  detail::Strided<T> x;
  detail::Strided<T> y;
};

// update_blocks(): the loop nest on column-major storage `c` (n x n, ldc) for the entries of
// region r: C = alpha * X * Y^T + beta * C, packing into `ap` and `bp`.
template <class T>
void update_blocks(const KernelSet<T>& ks, const Region& r, index_t n, index_t k, T alpha,
                   RowOperands<T> ops, T beta, T* c, index_t ldc, T* ap, T* bp) {
  const detail::Strided<T>& a = ops.x;
  const detail::Strided<T>& b = ops.y;
  const index_t mr = ks.fns.mr;
  const index_t nr = ks.fns.nr;
  const index_t mc = ks.blocking.mc;
  const index_t kc = ks.blocking.kc;
  const index_t nc = ks.blocking.nc;
  // Columns of storage that hold kept entries: [lo, hi) for lower, [lo, n) for upper.
  const index_t col_begin = r.lo;
  const index_t col_end = r.lower ? r.hi : n;
  for (index_t jc = col_begin; jc < col_end; jc += nc) {
    const index_t ncb = std::min(nc, col_end - jc);
    // Rows of storage with kept entries in these columns.
    const index_t row_begin = r.lower ? jc : r.lo;
    const index_t row_end = r.lower ? n : std::min(r.hi, jc + ncb);
    if (row_end <= row_begin) continue;
    for (index_t pc = 0; pc < k; pc += kc) {
      const index_t kcb = std::min(kc, k - pc);
      const T beta_block = pc == 0 ? beta : T(1);
      // B(p, j) = Y(j, p): the rows jc.. of Y, transposed by the strides.
      ks.fns.pack_b(kcb, ncb, b.data + jc * b.rs + pc * b.cs, b.cs, b.rs, bp);
      for (index_t ic = row_begin; ic < row_end; ic += mc) {
        const index_t mcb = std::min(mc, row_end - ic);
        // Column panels of this block that can hold kept entries.
        index_t jr_begin = 0;
        index_t jr_end = ncb;
        if (r.lower) {
          jr_end = std::min(ncb, ic + mcb - jc);  // columns j <= the block's last row
        } else {
          jr_begin = std::max<index_t>(0, ic - jc) / nr * nr;  // columns j >= its first row
        }
        if (jr_end <= jr_begin) continue;
        ks.fns.pack_a(mcb, kcb, a.data + ic * a.rs + pc * a.cs, a.rs, a.cs, ap);
        for (index_t jr = jr_begin; jr < jr_end; jr += nr) {
          const index_t nrb = std::min(nr, ncb - jr);
          const index_t j0 = jc + jr;
          const T* b_panel = bp + jr * kcb;
          for (index_t ir = 0; ir < mcb; ir += mr) {
            const index_t mrb = std::min(mr, mcb - ir);
            const index_t i0 = ic + ir;
            triangle_tile(ks.fns, r.lower, i0, j0, mrb, nrb, kcb, ap + ir * kcb, b_panel,
                          c + i0 + j0 * ldc, ldc, alpha, beta_block);
          }
        }
      }
    }
  }
}

// update_on_stack(): update_blocks with small blocks on this thread's stack, for when the
// workspace cannot grow (small_blocks.hpp). Not inlined: the buffer stays out of update's
// frame.
template <class T>
[[gnu::noinline]] void update_on_stack(const KernelSet<T>& ks, const Region& r, index_t n,
                                       index_t k, T alpha, RowOperands<T> a, T beta, T* c,
                                       index_t ldc, std::size_t refused_bytes) {
  team::note_shortfall(team::Shortfall::memory, refused_bytes);
  detail::StackBlocks blocks;
  update_blocks(detail::small_blocking(ks), r, n, k, alpha, a, beta, c, ldc, blocks.a<T>(),
                blocks.b<T>());
}

// update(): update_blocks with this thread's workspace, or on the stack without memory.
template <class T>
void update(const KernelSet<T>& ks, const Region& r, index_t n, index_t k, T alpha,
            RowOperands<T> a, T beta, T* c, index_t ldc) {
  const index_t mr = ks.fns.mr;
  const index_t nr = ks.fns.nr;
  const index_t kc = ks.blocking.kc;
  if ((r.lower ? r.hi : n) <= r.lo || k <= 0) return;
  const detail::RankBuffers buffers = detail::unit_buffers();
  // Sized for the whole triangle, not this column range: a rank's buffers then grow only in
  // the first call of a shape, whichever ranges it takes (workspace_units.hpp).
  const auto b_elems = static_cast<std::size_t>(std::min(k, kc) *
                                                ((std::min(ks.blocking.nc, n) + nr - 1) / nr * nr));
  const auto a_elems =
      static_cast<std::size_t>((ks.blocking.mc + mr - 1) / mr * mr * std::min(k, kc));
  T* bp = buffers.ws->try_buffer_of<T>(buffers.rank, Workspace::Slot::pack_b, b_elems);
  T* ap = buffers.ws->try_buffer_of<T>(buffers.rank, Workspace::Slot::pack_a, a_elems);
  if (bp == nullptr || ap == nullptr) {
    update_on_stack(ks, r, n, k, alpha, a, beta, c, ldc, (a_elems + b_elems) * sizeof(T));
    return;
  }
  update_blocks(ks, r, n, k, alpha, a, beta, c, ldc, ap, bp);
}

}  // namespace

template <class T>
void syrk_lower_cols(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, index_t c0,
                     index_t c1) {
  const index_t n = c.rows;
  const index_t k = a.cols;
  if (c1 <= c0 || n == 0) return;
  if (k == 0 || alpha == T(0)) {
    // Nothing to add: only beta applies, to the columns [c0, c1) of the lower triangle.
    if (beta == T(1)) return;
    for (index_t j = c0; j < c1; ++j) {
      for (index_t i = j; i < n; ++i) c(i, j) = beta == T(0) ? T(0) : beta * c(i, j);
    }
    return;
  }
  const Region region{c.layout == Layout::col_major, c0, c1};
  const detail::Strided<T> rows{a.data, a.row_stride(), a.col_stride()};
  update(detail::kernels<T>(), region, n, k, alpha, RowOperands<T>{rows, rows}, beta, c.data, c.ld);
}
template void syrk_lower_cols<double>(double, MatrixView<const double>, double, MatrixView<double>,
                                      index_t, index_t);
template void syrk_lower_cols<float>(float, MatrixView<const float>, float, MatrixView<float>,
                                     index_t, index_t);

template <class T>
void syr2k_lower_cols(T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                      MatrixView<T> c, index_t c0, index_t c1) {
  const index_t n = c.rows;
  const index_t k = a.cols;
  if (c1 <= c0 || n == 0) return;
  if (k == 0 || alpha == T(0)) {
    syrk_lower_cols(alpha, a, beta, c, c0, c1);  // only beta applies
    return;
  }
  const Region region{c.layout == Layout::col_major, c0, c1};
  const detail::Strided<T> x{a.data, a.row_stride(), a.col_stride()};
  const detail::Strided<T> y{b.data, b.row_stride(), b.col_stride()};
  const KernelSet<T>& ks = detail::kernels<T>();
  update(ks, region, n, k, alpha, RowOperands<T>{x, y}, beta, c.data, c.ld);
  update(ks, region, n, k, alpha, RowOperands<T>{y, x}, T(1), c.data, c.ld);
}
template void syr2k_lower_cols<double>(double, MatrixView<const double>, MatrixView<const double>,
                                       double, MatrixView<double>, index_t, index_t);
template void syr2k_lower_cols<float>(float, MatrixView<const float>, MatrixView<const float>,
                                      float, MatrixView<float>, index_t, index_t);

}  // namespace teamla::linalg::level3_detail
