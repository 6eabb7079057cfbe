// SPDX-License-Identifier: Apache-2.0
// complex_cholesky.cpp: potrf and potrs of a Hermitian positive definite matrix, in
// std::complex<double> and std::complex<float>, recursively on the complex product
// (gemm/complex_gemm.hpp).
//
// potrf (lower, A = L L^H) halves the matrix (Gustavson's recursive Cholesky, as LAPACK's
// zpotrf2): L11 from A11, then L21 = A21 L11^-H (a triangular solve), A22 -= L21 L21^H (a
// Hermitian rank-k update), then L22 from A22. The solve and the update halve again, so
// nearly every flop is in a product of half the order, each run at the width that pays;
// below kLeaf the leaves are LAPACK's unblocked loops. The upper form (A = U^H U) is the lower
// one on the transposed storage: A's upper triangle, read transposed, is the lower triangle of
// conj(A) = A^T, whose lower factor M gives U = M^T in place. The design: docs/complex.md.
#include <algorithm>
#include <cmath>
#include <complex>

#include "level3/complex_triangular.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// factor_leaf(): LAPACK's unblocked lower Cholesky (zpotf2) on n <= kLeaf: the first column
// whose pivot real(a_jj) - |l_j|^2 is not positive (or is NaN), 1-based, or 0.
template <class R>
index_t factor_leaf(ComplexTile<R> a, index_t n) {
  for (index_t j = 0; j < n; ++j) {
    R d = a(j, j).real();
    for (index_t k = 0; k < j; ++k) d -= std::norm(a(j, k));
    if (!(d > R(0))) return j + 1;
    const R root = std::sqrt(d);
    a(j, j) = root;
    for (index_t i = j + 1; i < n; ++i) {
      Cx<R> s = a(i, j);
      for (index_t k = 0; k < j; ++k) s -= times(a(i, k), std::conj(a(j, k)));
      a(i, j) = s / root;
    }
  }
  return 0;
}

// factor_lower(): the recursive lower Cholesky of a (n x n); LAPACK's info.
template <class R>
index_t factor_lower(ComplexTile<R> a, index_t n, Work& work) {
  if (n <= kLeaf) return factor_leaf(a, n);
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (const index_t info = factor_lower(a, n1, work)) return info;
  // L21 = A21 L11^-H, as conj(L11) L21^T = A21^T: a left solve on the transposed block.
  solve_left(true, false, a.operand(true), a.at(n1, 0).transposed(), n1, n2, work);
  update_lower(a.at(n1, n1), n2, n1, a.at(n1, 0).operand(), R(-1), work);
  const index_t info = factor_lower(a.at(n1, n1), n2, work);
  return info != 0 ? info + n1 : 0;
}

template <class R>
index_t complex_potrf(Uplo uplo, const MatrixView<Cx<R>>& a, Exec& exec) {
  check_potrf(uplo, a);
  Work work{exec, {}};
  const ComplexTile<R> tile{a.data, a.row_stride(), a.col_stride()};
  const index_t info = factor_lower(uplo == Uplo::lower ? tile : tile.transposed(), a.rows, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
  return info;
}

// complex_potrs(): A X = B with A = L L^H (L X' = B, then L^H X = X') or A = U^H U.
template <class R>
void complex_potrs(Uplo uplo, const MatrixView<const Cx<R>>& a, const MatrixView<Cx<R>>& b,
                   Exec& exec) {
  check_potrs(uplo, a, b);
  Work work{exec, {}};
  const ComplexOperand<R> factor{a.data, a.row_stride(), a.col_stride(), false};
  const ComplexTile<R> x{b.data, b.row_stride(), b.col_stride()};
  const bool lower = uplo == Uplo::lower;
  solve_left(true, false, lower ? factor : adjoint(factor), x, a.rows, b.cols, work);
  solve_left(false, false, lower ? adjoint(factor) : factor, x, a.rows, b.cols, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
}

}  // namespace
}  // namespace detail

template <>
index_t potrf<std::complex<double>>(Uplo uplo, MatrixView<std::complex<double>> a, Exec& exec) {
  return detail::complex_potrf<double>(uplo, a, exec);
}
template <>
index_t potrf<std::complex<float>>(Uplo uplo, MatrixView<std::complex<float>> a, Exec& exec) {
  return detail::complex_potrf<float>(uplo, a, exec);
}
template <>
void potrs<std::complex<double>>(Uplo uplo, MatrixView<const std::complex<double>> a,
                                 MatrixView<std::complex<double>> b, Exec& exec) {
  detail::complex_potrs<double>(uplo, a, b, exec);
}
template <>
void potrs<std::complex<float>>(Uplo uplo, MatrixView<const std::complex<float>> a,
                                MatrixView<std::complex<float>> b, Exec& exec) {
  detail::complex_potrs<float>(uplo, a, b, exec);
}

}  // namespace teamla::linalg
