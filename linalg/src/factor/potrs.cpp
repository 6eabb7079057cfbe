// SPDX-License-Identifier: Apache-2.0
// potrs.cpp: solve A X = B with the Cholesky factor from potrf.
//
// Lower: L Y = B, then L^T X = Y. Upper: U^T Y = B, then U X = Y. Both are canonical
// left-side solves (trsm.cpp) on views of the one factor; the right-hand sides are split over
// a section when the cost model says it pays.
#include "level3/level3_internal.hpp"
#include "teamla/linalg/checks.hpp"

namespace teamla::linalg {

template <class T>
void potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b, Exec& exec) {
  using namespace level3_detail;
  check_potrs(uplo, a, b);
  exec.stats = {};
  if (b.rows == 0 || b.cols == 0) return;
  // The factor as a lower triangle L (A = L L^T) in either case.
  const MatrixView<const T> l = uplo == Uplo::upper ? a.transposed() : a;
  trsm_left_parallel<T>(true, false, l, b, exec);
  trsm_left_parallel<T>(false, false, l.transposed(), b, exec);
}

template void potrs<double>(Uplo, MatrixView<const double>, MatrixView<double>, Exec&);
template void potrs<float>(Uplo, MatrixView<const float>, MatrixView<float>, Exec&);

}  // namespace teamla::linalg
