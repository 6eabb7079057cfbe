// SPDX-License-Identifier: Apache-2.0
// getrs.cpp: solves with getrf's factors, and gesv (factor, then solve).
//
// op = none: P L U X = B, so B takes the interchanges in order, then L Y = B and U X = Y.
// op = transpose: U^T L^T P^T X = B, so U^T Y = B, then L^T Z = Y, then the interchanges in
// reverse (conj_transpose, for complex factors, the same with U^H and L^H). Each solve is a
// canonical left-side trsm on a view of the one factor (U^T and L^T are the transposed views),
// its right-hand sides split over a section where that pays.
#include "factor/lu_internal.hpp"
#include "level3/complex_triangular.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/checks.hpp"

namespace teamla::linalg {
namespace {

// solve_complex(): the same with complex factors, op none, transpose or conj_transpose: the
// complex solve's recursion takes op(A) as an operand, conjugated where op conjugates.
template <class R>
void solve_complex(Op op, MatrixView<const std::complex<R>> lu, const int* ipiv,
                   MatrixView<std::complex<R>> b, Exec& exec) {
  using namespace level3_detail;
  const ExecStats before = exec.stats;
  detail::Work work{exec, {}};
  const detail::ComplexOperand<R> factor = detail::complex_operand(lu, op);
  const detail::ComplexTile<R> x{b.data, b.row_stride(), b.col_stride()};
  const index_t n = lu.rows;
  if (op == Op::none) {
    apply_swaps(b, 0, n, ipiv, 0);
    detail::solve_left(true, true, factor, x, n, b.cols, work);
    detail::solve_left(false, false, factor, x, n, b.cols, work);
  } else {
    // op(U) is lower and op(L) upper.
    detail::solve_left(true, false, factor, x, n, b.cols, work);
    detail::solve_left(false, true, factor, x, n, b.cols, work);
    apply_swaps(b, 0, n, ipiv, 0, SwapOrder::backward);
  }
  exec.stats = before;
  exec.stats.add(work.totals);
}

template <class T>
void solve_real(Op op, MatrixView<const T> lu, const int* ipiv, MatrixView<T> b, Exec& exec) {
  using namespace level3_detail;
  const index_t n = lu.rows;
  if (op == Op::none) {
    apply_swaps(b, 0, n, ipiv, 0);
    trsm_left_parallel<T>(true, true, lu, b, exec);
    trsm_left_parallel<T>(false, false, lu, b, exec);
    return;
  }
  trsm_left_parallel<T>(true, false, lu.transposed(), b, exec);
  trsm_left_parallel<T>(false, true, lu.transposed(), b, exec);
  apply_swaps(b, 0, n, ipiv, 0, SwapOrder::backward);
}

template <class T>
void solve_factored(Op op, MatrixView<const T> lu, const int* ipiv, MatrixView<T> b, Exec& exec) {
  if constexpr (is_complex_v<T>) {
    solve_complex(op, lu, ipiv, b, exec);
  } else {
    solve_real(op, lu, ipiv, b, exec);
  }
}

}  // namespace

template <class T>
void getrs(Op op, MatrixView<const T> lu, const int* ipiv, MatrixView<T> b, Exec& exec) {
  check_getrs(op, lu, ipiv, b);
  exec.stats = {};
  if (b.rows == 0 || b.cols == 0) return;
  solve_factored(op, lu, ipiv, b, exec);
}

template <class T>
index_t gesv(MatrixView<T> a, int* ipiv, MatrixView<T> b, Exec& exec) {
  // Both steps are checked before the factorization writes A.
  check_getrf(a, ipiv, "gesv");
  using namespace level3_detail;
  check_square("gesv", "A", a.rows, a.cols);
  check_view("gesv", "B", b);
  check_rows("gesv", "B", "B", b.rows, b.cols, "A", a.rows, a.cols, a.rows);
  const index_t info = getrf(a, ipiv, exec);
  if (info != 0 || b.rows == 0 || b.cols == 0) return info;
  // The solves add their regions to the factorization's in exec.stats.
  solve_factored(Op::none, MatrixView<const T>(a), ipiv, b, exec);
  return 0;
}

template void getrs<double>(Op, MatrixView<const double>, const int*, MatrixView<double>, Exec&);
template void getrs<float>(Op, MatrixView<const float>, const int*, MatrixView<float>, Exec&);
template index_t gesv<double>(MatrixView<double>, int*, MatrixView<double>, Exec&);
template index_t gesv<float>(MatrixView<float>, int*, MatrixView<float>, Exec&);
template void getrs<std::complex<double>>(Op, MatrixView<const std::complex<double>>, const int*,
                                          MatrixView<std::complex<double>>, Exec&);
template void getrs<std::complex<float>>(Op, MatrixView<const std::complex<float>>, const int*,
                                         MatrixView<std::complex<float>>, Exec&);
template index_t gesv<std::complex<double>>(MatrixView<std::complex<double>>, int*,
                                            MatrixView<std::complex<double>>, Exec&);
template index_t gesv<std::complex<float>>(MatrixView<std::complex<float>>, int*,
                                           MatrixView<std::complex<float>>, Exec&);

}  // namespace teamla::linalg
