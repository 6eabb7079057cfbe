// SPDX-License-Identifier: Apache-2.0
// complex_symmetric.cpp: the complex symmetric and Hermitian level 3, on the complex product.
//
// The rank updates (syrk, herk, syr2k, her2k) are one or two terms of update_lower()
// (complex_triangular.hpp) on the lower triangle; the upper one is the lower triangle of C^T,
// which is C for a symmetric C, and conj(C) for a Hermitian one: its terms are conjugated.
//
// symm and hemm multiply by a matrix stored as one triangle, read as the lower one (the upper
// triangle of A is the lower one of A^T, which is A, or conj(A) for a Hermitian A), copied a
// panel of columns at a time with both triangles filled (multiply_stored()).
#include <algorithm>
#include <complex>
#include <memory>
#include <new>
#include <string>

#include "level3/complex_triangular.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/errors.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// check_op_of(): op none, or the one transpose the routine takes (zsyrk's 'T', zherk's 'C').
void check_op_of(const char* routine, Op op, bool hermitian) {
  const Op other = hermitian ? Op::conj_transpose : Op::transpose;
  if (op != Op::none && op != other) {
    throw InvalidArgument(routine, "op",
                          "op = " + std::to_string(static_cast<int>(op)) + " is not Op::none or " +
                              (hermitian ? "Op::conj_transpose" : "Op::transpose"));
  }
}

// conjugated(): the terms of conj(C): each operand and alpha conjugated.
template <class R>
RankTerms<R> conjugated(RankTerms<R> terms) {
  for (int t = 0; t < terms.count; ++t) {
    terms.alpha[t] = std::conj(terms.alpha[t]);
    terms.x[t].conj = !terms.x[t].conj;
    terms.y[t].conj = !terms.y[t].conj;
  }
  return terms;
}

// scale_triangle(): the lower triangle of c (n x n) times beta; beta == 0 writes zeros without
// reading C, and a Hermitian C's diagonal keeps its real part alone (as zherk's does).
template <class R>
void scale_triangle(ComplexTile<R> c, index_t n, Cx<R> beta, bool hermitian) {
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = j; i < n; ++i) {
      Cx<R>& z = c(i, j);
      if (beta == Cx<R>(0)) {
        z = Cx<R>(0);
      } else if (hermitian && i == j) {
        z = Cx<R>(beta.real() * z.real(), R(0));
      } else if (beta != Cx<R>(1)) {
        z = times(beta, z);
      }
    }
  }
}

// rank_update(): C = alpha op(A) op(B)^T + ... + beta C on the uplo triangle: syrk and herk when
// b is null (B = A), syr2k and her2k otherwise. Hermitian: op(X)^H for op(X)^T, and the second
// term's alpha conjugated.
template <class R>
void rank_update(const char* routine, bool hermitian, Uplo uplo, Op op, Cx<R> alpha,
                 const MatrixView<const Cx<R>>& a, const MatrixView<const Cx<R>>* b, Cx<R> beta,
                 const MatrixView<Cx<R>>& c, Exec& exec) {
  using namespace level3_detail;
  check_uplo(routine, uplo);
  check_op_of(routine, op, hermitian);
  check_views(routine, "A", a, "C", c);
  check_square(routine, "C", c.rows, c.cols);
  const index_t n = c.rows;
  const index_t k = op == Op::none ? a.cols : a.rows;
  check_rows(routine, "A", "op(A)", op == Op::none ? a.rows : a.cols, k, "C", c.rows, c.cols, n);
  if (b != nullptr) {
    check_view(routine, "B", *b);
    check_same_shape(routine, "B", b->rows, b->cols, "A", a.rows, a.cols);
  }
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  const bool no_product = alpha == Cx<R>(0) || k == 0;
  if (n == 0 || (no_product && beta == Cx<R>(1))) return;
  const ComplexTile<R> tile{c.data, c.row_stride(), c.col_stride()};
  const ComplexTile<R> triangle = uplo == Uplo::lower ? tile : tile.transposed();
  scale_triangle(triangle, n, beta, hermitian);
  if (no_product) return;
  const ComplexOperand<R> x = complex_operand(a, op);
  const auto across = [hermitian](ComplexOperand<R> v) {  // op(X)^T, or op(X)^H
    return hermitian ? adjoint(v) : v.transposed();
  };
  RankTerms<R> terms{1, {alpha}, {x}, {across(x)}, hermitian};
  if (b != nullptr) {
    const ComplexOperand<R> xb = complex_operand(*b, op);
    terms = {2,
             {alpha, hermitian ? std::conj(alpha) : alpha},
             {x, xb},
             {across(xb), across(x)},
             hermitian};
  }
  if (uplo == Uplo::upper && hermitian) terms = conjugated(terms);
  Work work{exec, {}};
  update_lower(triangle, n, k, terms, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
}

// StoredLower: a symmetric or Hermitian matrix by its lower triangle `l`: element (i, j) is
// l(i, j) for i >= j, and l(j, i), or its conjugate, above the diagonal.
template <class R>
struct StoredLower {
  ComplexOperand<R> l;
  bool hermitian;

  [[nodiscard]] Cx<R> operator()(index_t i, index_t j) const {
    if (i > j) return element(l, i, j);
    const Cx<R> z = element(l, j, i);
    if (i < j) return hermitian ? std::conj(z) : z;
    return hermitian ? Cx<R>(z.real(), R(0)) : z;
  }
  // above(): rows [i0, i0 + rows) of the columns from i1 on, the stored block read transposed.
  [[nodiscard]] ComplexOperand<R> above(index_t i0, index_t i1) const {
    const ComplexOperand<R> block = l.at(i1, i0);
    return hermitian ? adjoint(block) : block.transposed();
  }
};

// diagonal_block(): S's diagonal block from row and column i0, order ib, both triangles
// filled, into d (column-major, ld ib), as an operand.
template <class R>
ComplexOperand<R> diagonal_block(const StoredLower<R>& s, index_t i0, index_t ib, Cx<R>* d) {
  for (index_t j = 0; j < ib; ++j) {
    for (index_t i = 0; i < ib; ++i) d[i + j * ib] = s(i0 + i, i0 + j);
  }
  return {d, 1, ib, false};
}

// multiply_rows(): C = alpha S B + beta C on the calling thread's columns, in row blocks of
// `block` whose diagonal blocks are copied to d (block x block elements).
template <class R>
void multiply_rows(const StoredLower<R>& s, ComplexOperand<R> b, ComplexTile<R> c, index_t m,
                   index_t w, Cx<R> alpha, Cx<R> beta, index_t block, Cx<R>* d, Work& part) {
  for (index_t i0 = 0; i0 < m; i0 += block) {
    const index_t ib = std::min(block, m - i0);
    const index_t i1 = i0 + ib;
    const ComplexTile<R> ci = c.at(i0, 0);
    part.update(ci, ib, w, ib, diagonal_block(s, i0, ib, d), b.at(i0, 0), alpha, beta);
    if (i0 > 0) part.update(ci, ib, w, i0, s.l.at(i0, 0), b, alpha);
    if (i1 < m) part.update(ci, ib, w, m - i1, s.above(i0, i1), b.at(i1, 0), alpha);
  }
}

// multiply_by_rows(): multiply_stored() without memory for its panels: C's columns in parts,
// each in row blocks of kStackBlock whose diagonal blocks are copied to the stack.
template <class R>
void multiply_by_rows(const StoredLower<R>& s, ComplexOperand<R> b, ComplexTile<R> c, index_t m,
                      index_t n, Cx<R> alpha, Cx<R> beta, Work& work) {
  constexpr index_t kStackBlock = 16;
  const double flops =
      8.0 * static_cast<double>(m) * static_cast<double>(m) * static_cast<double>(n);
  in_column_parts<R>(work, flops, n, [&](index_t j0, index_t j1, Work& part) {
    Cx<R> stack[kStackBlock * kStackBlock];
    multiply_rows(s, b.at(0, j0), c.at(0, j0), m, j1 - j0, alpha, beta, kStackBlock, stack, part);
  });
}

// multiply_stored(): C = alpha S B + beta C, S m x m (stored lower), B and C m x n: S's columns
// in panels of kPanelCols, each copied whole (both triangles) and multiplied by its rows of B,
// one product at the width that pays. The copies are m^2 elements in all, against the 8 m^2 n
// flops of the products, which then run at gemm's rate: a product per block of the stored
// triangle packed B again for every block of rows.
template <class R>
void multiply_stored(const StoredLower<R>& s, ComplexOperand<R> b, ComplexTile<R> c, index_t m,
                     index_t n, Cx<R> alpha, Cx<R> beta, Work& work) {
  constexpr index_t kPanelCols = 256;
  const index_t width = std::min(m, kPanelCols);
  const auto elems = static_cast<std::size_t>(m * width);
  const std::unique_ptr<Cx<R>[]> panel(new (std::nothrow) Cx<R>[elems]);
  if (panel == nullptr) {
    team::note_shortfall(team::Shortfall::memory, elems * sizeof(Cx<R>));
    multiply_by_rows(s, b, c, m, n, alpha, beta, work);
    return;
  }
  for (index_t p0 = 0; p0 < m; p0 += width) {
    const index_t pb = std::min(width, m - p0);
    for (index_t j = 0; j < pb; ++j) {
      for (index_t i = 0; i < m; ++i) panel[i + j * m] = s(i, p0 + j);
    }
    work.update(c, m, n, pb, ComplexOperand<R>{panel.get(), 1, m, false}, b.at(p0, 0), alpha,
                p0 == 0 ? beta : Cx<R>(1));
  }
}

// symmetric_product(): symm's and hemm's C = alpha A B + beta C (left) or alpha B A + beta C
// (right), A stored in its uplo triangle. The right one is C^T = alpha A^T B^T + beta C^T, and
// A^T is A, or conj(A) for a Hermitian A.
template <class R>
void symmetric_product(const char* routine, bool hermitian, Side side, Uplo uplo, Cx<R> alpha,
                       const MatrixView<const Cx<R>>& a, const MatrixView<const Cx<R>>& b,
                       Cx<R> beta, const MatrixView<Cx<R>>& c, Exec& exec) {
  using namespace level3_detail;
  check_side(routine, side);
  check_uplo(routine, uplo);
  check_views(routine, "A", a, "B", b, "C", c);
  check_side_order(routine, side, a.rows, a.cols, "C", c.rows, c.cols);
  check_same_shape(routine, "B", b.rows, b.cols, "C", c.rows, c.cols);
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (c.rows == 0 || c.cols == 0) return;
  ComplexTile<R> ct{c.data, c.row_stride(), c.col_stride()};
  if (alpha == Cx<R>(0)) {  // A and B are not read
    for (index_t j = 0; j < c.cols; ++j) {
      for (index_t i = 0; i < c.rows; ++i) {
        ct(i, j) = beta == Cx<R>(0) ? Cx<R>(0) : times(beta, ct(i, j));
      }
    }
    return;
  }
  ComplexOperand<R> stored = complex_operand(a, Op::none);
  if (uplo == Uplo::upper) stored = hermitian ? adjoint(stored) : stored.transposed();
  ComplexOperand<R> bo = complex_operand(b, Op::none);
  index_t m = c.rows;
  index_t n = c.cols;
  if (side == Side::right) {
    if (hermitian) stored.conj = !stored.conj;
    bo = bo.transposed();
    ct = ct.transposed();
    std::swap(m, n);
  }
  Work work{exec, {}};
  multiply_stored(StoredLower<R>{stored, hermitian}, bo, ct, m, n, alpha, beta, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
}

}  // namespace
}  // namespace detail

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_COMPLEX_SYMMETRIC(R)                                                                \
  template <>                                                                                      \
  void syrk<std::complex<R>>(Uplo uplo, Op op_a, std::complex<R> alpha,                            \
                             MatrixView<const std::complex<R>> a, std::complex<R> beta,            \
                             MatrixView<std::complex<R>> c, Exec & exec) {                         \
    detail::rank_update<R>("syrk", false, uplo, op_a, alpha, a, nullptr, beta, c, exec);           \
  }                                                                                                \
  template <>                                                                                      \
  void syr2k<std::complex<R>>(Uplo uplo, Op op, std::complex<R> alpha,                             \
                              MatrixView<const std::complex<R>> a,                                 \
                              MatrixView<const std::complex<R>> b, std::complex<R> beta,           \
                              MatrixView<std::complex<R>> c, Exec & exec) {                        \
    detail::rank_update<R>("syr2k", false, uplo, op, alpha, a, &b, beta, c, exec);                 \
  }                                                                                                \
  void herk(Uplo uplo, Op op_a, R alpha, MatrixView<const std::complex<R>> a, R beta,              \
            MatrixView<std::complex<R>> c, Exec& exec) {                                           \
    detail::rank_update<R>("herk", true, uplo, op_a, std::complex<R>(alpha), a, nullptr,           \
                           std::complex<R>(beta), c, exec);                                        \
  }                                                                                                \
  void her2k(Uplo uplo, Op op, std::complex<R> alpha, MatrixView<const std::complex<R>> a,         \
             MatrixView<const std::complex<R>> b, R beta, MatrixView<std::complex<R>> c,           \
             Exec& exec) {                                                                         \
    detail::rank_update<R>("her2k", true, uplo, op, alpha, a, &b, std::complex<R>(beta), c, exec); \
  }                                                                                                \
  template <>                                                                                      \
  void symm<std::complex<R>>(Side side, Uplo uplo, std::complex<R> alpha,                          \
                             MatrixView<const std::complex<R>> a,                                  \
                             MatrixView<const std::complex<R>> b, std::complex<R> beta,            \
                             MatrixView<std::complex<R>> c, Exec & exec) {                         \
    detail::symmetric_product<R>("symm", false, side, uplo, alpha, a, b, beta, c, exec);           \
  }                                                                                                \
  void hemm(Side side, Uplo uplo, std::complex<R> alpha, MatrixView<const std::complex<R>> a,      \
            MatrixView<const std::complex<R>> b, std::complex<R> beta,                             \
            MatrixView<std::complex<R>> c, Exec& exec) {                                           \
    detail::symmetric_product<R>("hemm", true, side, uplo, alpha, a, b, beta, c, exec);            \
  }
TEAMLA_COMPLEX_SYMMETRIC(double)
TEAMLA_COMPLEX_SYMMETRIC(float)
#undef TEAMLA_COMPLEX_SYMMETRIC
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace teamla::linalg
