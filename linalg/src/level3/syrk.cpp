// SPDX-License-Identifier: Apache-2.0
// syrk.cpp: symmetric rank-k update of one triangle: checks and the parallel split.
//
// Reduced to the lower triangle of C (an upper triangle is the lower triangle of
// C.transposed()) and to op(A) = A (A.transposed() otherwise). The serial loop nest is in
// syrk_serial.cpp; the parallel version gives each participant a range of columns holding an
// equal share of the triangle's area.
#include <algorithm>

#include "level3/level3_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "unit_workspace.hpp"

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
  const std::size_t width = plan.width;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  if (width <= 1) {
    ++exec.stats.inline_regions;
    const std::uint64_t inline_start_ns = plan.timed ? team::monotonic_ns() : 0;
    syrk_lower_cols(alpha, a, beta, c, 0, n);
    if (plan.timed) {
      record_region(plan, static_cast<double>(team::monotonic_ns() - inline_start_ns));
    }
    return 1;
  }
  ++exec.stats.sections;
  const std::uint64_t start_ns = team::monotonic_ns();
  // Column ranges of equal triangle area, a few per participant and claimed, so that a late
  // participant's ranges are taken by the others.
  const std::size_t units = kRangesPerParticipant * width;
  detail::run_claimed_units(*exec.team, width, units, *detail::exec_buffers(exec).ws,
                            [&](team::Section&, std::size_t unit) {
                              const index_t c0 = balanced_split(n, unit, units, 16);
                              const index_t c1 = balanced_split(n, unit + 1, units, 16);
                              if (c1 > c0) syrk_lower_cols(alpha, a, beta, c, c0, c1);
                            });
  record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  return width;
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
  check_view(routine, "a", a.rows, a.cols, a.ld, a.layout, a.data);
  check_view(routine, "c", c.rows, c.cols, c.ld, c.layout, c.data);
  if (c.rows != c.cols) {
    fail_shape(
        routine, "c",
        "C is " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + " but must be square");
  }
  const MatrixView<const T> op = op_a == Op::transpose ? a.transposed() : a;
  if (op.rows != c.rows) {
    fail_shape(routine, "a",
               "op(A) has " + std::to_string(op.rows) + " rows but C is " + std::to_string(c.rows) +
                   " x " + std::to_string(c.cols));
  }
  exec.stats = {};
  if (c.rows == 0) return;
  const MatrixView<T> lower = uplo == Uplo::upper ? c.transposed() : c;
  if (alpha == T(0) || op.cols == 0) {  // A is not read
    scale_lower(lower, beta);
    return;
  }
  syrk_lower_parallel(alpha, op, beta, lower, exec);
}

template void syrk<double>(Uplo, Op, double, MatrixView<const double>, double, MatrixView<double>,
                           Exec&);
template void syrk<float>(Uplo, Op, float, MatrixView<const float>, float, MatrixView<float>,
                          Exec&);

}  // namespace teamla::linalg
