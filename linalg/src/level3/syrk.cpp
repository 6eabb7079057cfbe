// SPDX-License-Identifier: Apache-2.0
// syrk.cpp: symmetric rank-k update of one triangle: checks and the parallel split.
//
// Reduced to the lower triangle of C (an upper triangle is the lower triangle of
// C.transposed()) and to op(A) = A (A.transposed() otherwise). The serial loop nest is in
// syrk_serial.cpp; the parallel version gives each participant a range of columns holding an
// equal share of the triangle's area.
#include <algorithm>

#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace level3_detail {

// kRangesPerParticipant: column ranges per participant of a claimed syrk section.
constexpr std::size_t kRangesPerParticipant = 4;

template <class T>
std::size_t syrk_lower_parallel(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c,
                                Exec& exec) {
  const index_t n = c.rows;
  const double flops =
      static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(a.cols);
  const RegionPlan plan = plan_region(RegionKind::syrk, sizeof(T), flops, exec);
  return run_triangle_ranges(plan, n, kRangesPerParticipant, exec, [&](index_t c0, index_t c1) {
    syrk_lower_cols(alpha, a, beta, c, c0, c1);
  });
}
template std::size_t syrk_lower_parallel<double>(double, MatrixView<const double>, double,
                                                 MatrixView<double>, Exec&);
template std::size_t syrk_lower_parallel<float>(float, MatrixView<const float>, float,
                                                MatrixView<float>, Exec&);

}  // namespace level3_detail

template <class T>
void syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, Exec& exec) {
  using namespace level3_detail;
  const char* routine = "syrk";
  check_uplo(routine, uplo);
  check_op(routine, "op_a", op_a);
  check_views(routine, "A", a, "C", c);
  check_square(routine, "C", c.rows, c.cols);
  const MatrixView<const T> op = op_a == Op::transpose ? a.transposed() : a;
  check_rows(routine, "A", "op(A)", op.rows, op.cols, "C", c.rows, c.cols, c.rows);
  if (const auto lower = rank_k_lower(uplo, alpha, op.cols, beta, c, exec)) {
    syrk_lower_parallel(alpha, op, beta, *lower, exec);
  }
}

template void syrk<double>(Uplo, Op, double, MatrixView<const double>, double, MatrixView<double>,
                           Exec&);
template void syrk<float>(Uplo, Op, float, MatrixView<const float>, float, MatrixView<float>,
                          Exec&);

}  // namespace teamla::linalg
