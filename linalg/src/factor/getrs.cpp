// SPDX-License-Identifier: Apache-2.0
// getrs.cpp: solves with getrf's factors, and gesv (factor, then solve).
//
// op = none: P L U X = B, so B takes the interchanges in order, then L Y = B and U X = Y.
// op = transpose: U^T L^T P^T X = B, so U^T Y = B, then L^T Z = Y, then the interchanges in
// reverse. Each solve is a canonical left-side trsm on a view of the one factor (U^T and L^T
// are the transposed views), its right-hand sides split over a section where that pays.
#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/checks.hpp"

namespace teamla::linalg {
namespace {

template <class T>
void solve_factored(Op op, MatrixView<const T> lu, const int* ipiv, MatrixView<T> b, Exec& exec) {
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

}  // namespace teamla::linalg
