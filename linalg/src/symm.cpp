// SPDX-License-Identifier: Apache-2.0
// symm.cpp: symmetric matrix times a general one, as one gemm on a dense copy of the symmetric
// operand.
//
// Every case is reduced to "left side, lower triangle" by view identities: an upper triangle
// is the lower triangle of A.transposed(), and C = B*A is C^T = A*B^T with A symmetric. The
// stored triangle is then expanded into a full m x m copy in the workspace (its scratch slot,
// which gemm does not use) and the product is one gemm on the team: the copy is O(m^2) against
// the product's O(m^2 n), and gemm's packing, blocking and claimed work apply unchanged. When
// the workspace cannot grow, the product runs by block columns of A instead, each a gemm
// reading the stored triangle in place (and transposed), with the diagonal block expanded on
// the stack.
#include <algorithm>

#include "chol_internal.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::linalg {
namespace chol_detail {
namespace {

// kDiagonalBlock: the block size of the fallback, whose diagonal block is on the stack.
constexpr index_t kDiagonalBlock = 64;

// kMirrorTile: the tile of the mirroring pass; a tile and its transposed image (32 x 32
// doubles, 8 KiB each) stay in L1 while one is read by columns and the other written by rows.
constexpr index_t kMirrorTile = 32;

// mirror_block(): dense(j, i) = dense(i, j) for i > j and j in [j0, j1) (m x m column-major,
// ld), by tiles.
template <class T>
void mirror_block(T* dense, index_t m, index_t ld, index_t j0, index_t j1) {
  for (index_t i0 = j0; i0 < m; i0 += kMirrorTile) {
    const index_t i1 = std::min(m, i0 + kMirrorTile);
    for (index_t i = i0; i < i1; ++i) {
      T* row_i = dense + i * ld;  // column i of dense, written in rows j0..j1
      const index_t j_end = std::min(j1, i);
      for (index_t j = j0; j < j_end; ++j) row_i[j] = dense[i + j * ld];
    }
  }
}

// expand_lower(): dense[i + j*ld] = S(i, j) for the symmetric S whose lower triangle is `a`.
// The stored triangle is copied along its contiguous direction into one triangle of `dense`
// (columns of a column-major A into the lower one; rows of a row-major A, which are the columns
// of S's upper triangle, into the upper one), then mirrored into the other; a column-major
// triangle is mirrored a block of columns at a time, while the block is still in cache.
template <class T>
void expand_lower(MatrixView<const T> a, T* dense, index_t ld) {
  const index_t m = a.rows;
  if (a.layout == Layout::col_major) {
    for (index_t j0 = 0; j0 < m; j0 += kMirrorTile) {
      const index_t j1 = std::min(m, j0 + kMirrorTile);
      for (index_t j = j0; j < j1; ++j) {
        std::copy_n(a.data + j + j * a.ld, m - j, dense + j + j * ld);
      }
      mirror_block(dense, m, ld, j0, j1);
    }
    return;
  }
  // Row i of a row-major lower triangle, a(i, 0..i), is S(0..i, i): column i's upper part.
  for (index_t i = 0; i < m; ++i) std::copy_n(a.data + i * a.ld, i + 1, dense + i * ld);
  // Mirror the upper triangle into the lower one: the transpose of mirror_lower's copy.
  for (index_t j0 = 0; j0 < m; j0 += kMirrorTile) {
    const index_t j1 = std::min(m, j0 + kMirrorTile);
    for (index_t i0 = j0; i0 < m; i0 += kMirrorTile) {
      const index_t i1 = std::min(m, i0 + kMirrorTile);
      for (index_t j = j0; j < j1; ++j) {
        T* column_j = dense + j * ld;
        for (index_t i = std::max(i0, j + 1); i < i1; ++i) column_j[i] = dense[j + i * ld];
      }
    }
  }
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
    expand_lower(a.block(j0, j0, jb, jb), diagonal, jb);
    gemm<T>(Op::none, Op::none, alpha, col_major<const T>(diagonal, jb, jb), b_rows, T(1),
            c.block(j0, 0, jb, n), exec);
    if (j1 < m) {
      gemm<T>(Op::none, Op::none, alpha, a.block(j1, j0, m - j1, jb), b_rows, T(1),
              c.block(j1, 0, m - j1, n), exec);
    }
  }
}

}  // namespace
}  // namespace chol_detail

template <class T>
void symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
          MatrixView<T> c, Exec& exec) {
  using namespace chol_detail;
  const char* routine = "symm";
  check_side(routine, side);
  check_uplo(routine, uplo);
  check_view(routine, "a", a.rows, a.cols, a.ld, a.layout, a.data);
  check_view(routine, "b", b.rows, b.cols, b.ld, b.layout, b.data);
  check_view(routine, "c", c.rows, c.cols, c.ld, c.layout, c.data);
  const index_t order = side == Side::left ? c.rows : c.cols;
  if (a.rows != order || a.cols != order) {
    fail_shape(routine, "a",
               "A is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " but must be " +
                   std::to_string(order) + " x " + std::to_string(order) +
                   (side == Side::left ? " (the rows of C)" : " (the columns of C)"));
  }
  if (b.rows != c.rows || b.cols != c.cols) {
    fail_shape(routine, "b",
               "B is " + std::to_string(b.rows) + " x " + std::to_string(b.cols) +
                   " but must be the shape of C, " + std::to_string(c.rows) + " x " +
                   std::to_string(c.cols));
  }
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
  Workspace& ws = exec.workspace != nullptr ? *exec.workspace : thread_local_workspace();
  const auto elems = static_cast<std::size_t>(order * order);
  T* dense = ws.try_buffer_of<T>(0, Workspace::Slot::scratch, elems);
  if (dense == nullptr) {
    team::note_shortfall(team::Shortfall::memory, elems * sizeof(T));
    symm_by_block_columns(alpha, a, b, beta, c, exec);
    return;
  }
  expand_lower(a, dense, order);
  gemm<T>(Op::none, Op::none, alpha, col_major<const T>(dense, order, order), b, beta, c, exec);
}

template void symm<double>(Side, Uplo, double, MatrixView<const double>, MatrixView<const double>,
                           double, MatrixView<double>, Exec&);
template void symm<float>(Side, Uplo, float, MatrixView<const float>, MatrixView<const float>,
                          float, MatrixView<float>, Exec&);

}  // namespace teamla::linalg
