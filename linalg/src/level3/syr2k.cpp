// SPDX-License-Identifier: Apache-2.0
// syr2k.cpp: symmetric rank-2k update of one triangle: checks and the parallel split.
//
// The same reductions and split as syrk.cpp: an upper triangle is the lower triangle of
// C.transposed(), op = transpose is A.transposed() and B.transposed(), and each participant of a
// claimed section takes column ranges of equal triangle area. Each range runs the SYRK loop nest
// twice (syrk_serial.cpp), A*B^T and then B*A^T, so only the kept triangle is computed and C
// is read and written by the participant that owns the range.
#include <algorithm>

#include "level3/level3_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "unit_workspace.hpp"

namespace teamla::linalg {
namespace level3_detail {
namespace {

// kRangesPerParticipant: column ranges per participant of a claimed syr2k section. Half of
// syrk's: every range packs the rows of A and B below it again, once per product.
// 2: faster than 4 at n = 512-1024 on 2 threads, a little slower at 256 (docs/perf/blocking.md).
constexpr std::size_t kRangesPerParticipant = 2;

template <class T>
void syr2k_lower_parallel(T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                          MatrixView<T> c, Exec& exec) {
  const index_t n = c.rows;
  // Two rank-k products into the triangle: twice syrk's work, and the cost model's syrk rates.
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(a.cols);
  const RegionPlan plan = plan_region(RegionKind::syrk, sizeof(T), flops, exec);
  const std::size_t width = plan.width;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  if (width <= 1) {
    ++exec.stats.inline_regions;
    const std::uint64_t inline_start_ns = plan.timed ? team::monotonic_ns() : 0;
    syr2k_lower_cols(alpha, a, b, beta, c, 0, n);
    if (plan.timed) {
      record_region(plan, static_cast<double>(team::monotonic_ns() - inline_start_ns));
    }
    return;
  }
  ++exec.stats.sections;
  const std::uint64_t start_ns = team::monotonic_ns();
  const std::size_t units = kRangesPerParticipant * width;
  detail::run_claimed_units(*exec.team, width, units, *detail::exec_buffers(exec).ws,
                            [&](team::Section&, std::size_t unit) {
                              const index_t c0 = balanced_split(n, unit, units, 16);
                              const index_t c1 = balanced_split(n, unit + 1, units, 16);
                              if (c1 > c0) syr2k_lower_cols(alpha, a, b, beta, c, c0, c1);
                            });
  record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
}

template <class T>
void check_operand(const char* name, MatrixView<const T> op, index_t n, index_t k) {
  if (op.rows != n || op.cols != k) {
    fail_shape("syr2k", name,
               std::string("op(") + name + ") is " + std::to_string(op.rows) + " x " +
                   std::to_string(op.cols) + " but must be " + std::to_string(n) + " x " +
                   std::to_string(k) + " (C is " + std::to_string(n) + " x " + std::to_string(n) +
                   ")");
  }
}

}  // namespace
}  // namespace level3_detail

template <class T>
void syr2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
           MatrixView<T> c, Exec& exec) {
  using namespace level3_detail;
  const char* routine = "syr2k";
  check_uplo(routine, uplo);
  check_op(routine, "op", op);
  check_view(routine, "a", a.rows, a.cols, a.ld, a.layout, a.data);
  check_view(routine, "b", b.rows, b.cols, b.ld, b.layout, b.data);
  check_view(routine, "c", c.rows, c.cols, c.ld, c.layout, c.data);
  if (c.rows != c.cols) {
    fail_shape(
        routine, "c",
        "C is " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + " but must be square");
  }
  const MatrixView<const T> op_a = op == Op::transpose ? a.transposed() : a;
  const MatrixView<const T> op_b = op == Op::transpose ? b.transposed() : b;
  check_operand<T>("a", op_a, c.rows, op_a.cols);
  check_operand<T>("b", op_b, c.rows, op_a.cols);
  exec.stats = {};
  if (c.rows == 0) return;
  const MatrixView<T> lower = uplo == Uplo::upper ? c.transposed() : c;
  if (alpha == T(0) || op_a.cols == 0) {  // A and B are not read
    scale_lower(lower, beta);
    return;
  }
  syr2k_lower_parallel(alpha, op_a, op_b, beta, lower, exec);
}

template void syr2k<double>(Uplo, Op, double, MatrixView<const double>, MatrixView<const double>,
                            double, MatrixView<double>, Exec&);
template void syr2k<float>(Uplo, Op, float, MatrixView<const float>, MatrixView<const float>, float,
                           MatrixView<float>, Exec&);

}  // namespace teamla::linalg
