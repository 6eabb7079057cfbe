// SPDX-License-Identifier: Apache-2.0
// symm.cpp: symmetric matrix times a general one, as one gemm.
//
// Every case is reduced to "left side, lower triangle" by view identities: an upper triangle
// is the lower triangle of A.transposed(), and C = B*A is C^T = A*B^T with A symmetric. From
// the ISA's small_n on, with a column-major C, gemm reads S straight from its stored triangle
// (detail::Strided::lower_symmetric: its A packing fills each micro-panel from the triangle).
// Otherwise the triangle is expanded into a full m x m copy in the workspace (its shared
// buffer, which gemm does not use; on the team from kWideExpandOrder) and the product is one gemm
// on that: the copy is O(m^2) against the product's O(m^2 n), and gemm's packing, blocking and
// claimed work apply unchanged. When the workspace cannot grow, the product runs by block
// columns of A instead, each a gemm reading the stored triangle in place (and transposed),
// with the diagonal block expanded on the stack. The design: docs/level3.md; the measurements:
// docs/perf/blocking.md.
#include <algorithm>

#include "gemm/gemm_internal.hpp"
#include "level3/level3_internal.hpp"
#include "plan/width_internal.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace level3_detail {
namespace {

// kDiagonalBlock: the block size of the fallback, whose diagonal block is on the stack.
constexpr index_t kDiagonalBlock = 64;

// kExpandTile: the tile of the expansion: a 32 x 32 tile of doubles (8 KiB) read across its
// strided direction stays in L1 while the columns of `dense` are written.
constexpr index_t kExpandTile = 32;

// kWideExpandOrder: from this order on the copy (made for a right-side product, or at
// order small_n) runs on the team, in claimed blocks of kExpandTile columns. At m = 256 it
// moves 512 KiB of doubles (tens of us), against a section cost of a few us.
// 256: a copy by one thread held 2-thread dsymm_ 512 a sixth below the copy on the team
// (docs/perf/blocking.md).
constexpr index_t kWideExpandOrder = 256;

// copy_run(): dst[0..count) = src[0], src[step], ... (a copy when step is 1).
template <class T>
void copy_run(const T* src, index_t step, index_t count, T* dst) {
  if (step == 1) {
    std::copy_n(src, count, dst);
    return;
  }
  for (index_t i = 0; i < count; ++i) dst[i] = src[i * step];
}

// expand_columns(): columns [j0, j1) of dense (m x m column-major, ld) are those of the
// symmetric S whose lower triangle is `a`: S(i, j) = a(i, j) on and below the diagonal,
// a(j, i) above it. By row tiles, so that the strided reads of a tile stay in cache across
// the block's columns. Blocks of columns are independent of each other.
template <class T>
void expand_columns(MatrixView<const T> a, T* dense, index_t ld, index_t j0, index_t j1) {
  const index_t m = a.rows;
  const bool col_major = a.layout == Layout::col_major;
  const index_t row_step = col_major ? 1 : a.ld;  // a(i + 1, j) - a(i, j)
  const index_t col_step = col_major ? a.ld : 1;  // a(i, j + 1) - a(i, j)
  for (index_t i0 = 0; i0 < m; i0 += kExpandTile) {
    const index_t i1 = std::min(m, i0 + kExpandTile);
    for (index_t j = j0; j < j1; ++j) {
      T* column = dense + j * ld;
      const index_t split = std::clamp(j, i0, i1);  // rows [i0, split) lie above the diagonal
      copy_run(a.data + j * row_step + i0 * col_step, col_step, split - i0, column + i0);
      copy_run(a.data + split * row_step + j * col_step, row_step, i1 - split, column + split);
    }
  }
}

// expand_lower(): dense[i + j*ld] = S(i, j) for all of S, on the team when it is large enough
// to pay (kWideExpandOrder).
template <class T>
void expand_lower(MatrixView<const T> a, T* dense, index_t ld, Exec* exec) {
  const index_t m = a.rows;
  std::size_t width = 1;
  if (exec != nullptr && m >= kWideExpandOrder) width = detail::region_cap(*exec);
  const auto blocks = static_cast<std::size_t>((m + kExpandTile - 1) / kExpandTile);
  if (width <= 1) {
    expand_columns(a, dense, ld, 0, m);
    return;
  }
  exec->team->run_claimed(width, blocks, [&](team::Section&, std::size_t block) {
    const index_t j0 = static_cast<index_t>(block) * kExpandTile;
    expand_columns(a, dense, ld, j0, std::min(m, j0 + kExpandTile));
  });
}

template <class T>
void scale(MatrixView<T> c, T beta) {
  if (beta == T(1)) return;
  for (index_t j = 0; j < c.cols; ++j) {
    for (index_t i = 0; i < c.rows; ++i) c(i, j) = beta == T(0) ? T(0) : beta * c(i, j);
  }
}

// symm_by_block_columns(): C = alpha * S * B + beta * C with S's lower triangle `a`, as
// C += alpha * S(:, J) * B(J, :) over block columns J, none of which needs a copy of S but
// the diagonal block.
template <class T>
[[gnu::noinline]] void symm_by_block_columns(T alpha, MatrixView<const T> a, MatrixView<const T> b,
                                             T beta, MatrixView<T> c, Exec& exec) {
  const index_t m = a.rows;
  const index_t n = b.cols;
  scale(c, beta);
  alignas(64) T diagonal[kDiagonalBlock * kDiagonalBlock];
  for (index_t j0 = 0; j0 < m; j0 += kDiagonalBlock) {
    const index_t jb = std::min(kDiagonalBlock, m - j0);
    const index_t j1 = j0 + jb;
    const MatrixView<const T> b_rows = b.block(j0, 0, jb, n);
    if (j0 > 0) {  // S(0:j0, J) = A(J, 0:j0)^T
      gemm<T>(Op::transpose, Op::none, alpha, a.block(j0, 0, jb, j0), b_rows, T(1),
              c.block(0, 0, j0, n), exec);
    }
    expand_lower(a.block(j0, j0, jb, jb), diagonal, jb, nullptr);
    gemm<T>(Op::none, Op::none, alpha, col_major<const T>(diagonal, jb, jb), b_rows, T(1),
            c.block(j0, 0, jb, n), exec);
    if (j1 < m) {
      gemm<T>(Op::none, Op::none, alpha, a.block(j1, j0, m - j1, jb), b_rows, T(1),
              c.block(j1, 0, m - j1, n), exec);
    }
  }
}

}  // namespace
}  // namespace level3_detail

template <class T>
void symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
          MatrixView<T> c, Exec& exec) {
  using namespace level3_detail;
  const char* routine = "symm";
  check_side(routine, side);
  check_uplo(routine, uplo);
  check_views(routine, "A", a, "B", b, "C", c);
  check_side_order(routine, side, a.rows, a.cols, "C", c.rows, c.cols);
  check_same_shape(routine, "B", b.rows, b.cols, "C", c.rows, c.cols);
  exec.stats = {};
  if (c.rows == 0 || c.cols == 0) return;
  if (alpha == T(0)) {  // A and B are not read
    scale(c, beta);
    return;
  }
  if (uplo == Uplo::upper) a = a.transposed();
  if (side == Side::right) {
    b = b.transposed();
    c = c.transposed();
  }
  const index_t order = c.rows;  // A's, on the left now
  // From the ISA's small_n on, with a column-major C, gemm packs S straight from its stored
  // triangle and no copy is made: at 512 the copy and its section were a share of a 2-thread dsymm_
  // worth saving (docs/perf/blocking.md). At small_n itself the packed triangle runs one section
  // where the copy needs two, and a section is where foreign load costs a wide call; the two
  // machines measured disagreed there (docs/perf/blocking.md). Below it the copy is a few
  // microseconds.
  if (order >= detail::kernels<T>().blocking.small_n && c.layout == Layout::col_major) {
    const detail::Strided<T> s{a.data, a.row_stride(), a.col_stride(), true};
    detail::gemm_strided(c.rows, c.cols, order, alpha, s, detail::strided_op(b, Op::none), beta,
                         c.data, c.ld, exec);
    return;
  }
  Workspace& ws = *detail::exec_buffers(exec).ws;
  const auto elems = static_cast<std::size_t>(order * order);
  // The shared buffer, not a rank's slot: the gemm below runs sections, after which the
  // ranks' slots are evened out and may move (workspace_units.hpp).
  T* dense = static_cast<T*>(ws.try_shared_buffer(elems * sizeof(T)));
  if (dense == nullptr) {
    team::note_shortfall(team::Shortfall::memory, elems * sizeof(T));
    symm_by_block_columns(alpha, a, b, beta, c, exec);
    return;
  }
  expand_lower(a, dense, order, &exec);
  gemm<T>(Op::none, Op::none, alpha, col_major<const T>(dense, order, order), b, beta, c, exec);
}

template void symm<double>(Side, Uplo, double, MatrixView<const double>, MatrixView<const double>,
                           double, MatrixView<double>, Exec&);
template void symm<float>(Side, Uplo, float, MatrixView<const float>, MatrixView<const float>,
                          float, MatrixView<float>, Exec&);

}  // namespace teamla::linalg
