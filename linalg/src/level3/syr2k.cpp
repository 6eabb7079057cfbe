// SPDX-License-Identifier: Apache-2.0
// syr2k.cpp: symmetric rank-2k update of one triangle: checks and the parallel split.
//
// The same reductions and split as syrk.cpp: an upper triangle is the lower triangle of
// C.transposed(), op = transpose is A.transposed() and B.transposed(), and each participant of a
// claimed section takes column ranges of equal triangle area. Each range runs the SYRK loop nest
// twice (syrk_serial.cpp), A*B^T and then B*A^T, so only the kept triangle is computed and C
// is read and written by the participant that owns the range.
#include <algorithm>

#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

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
  run_triangle_ranges(plan, n, kRangesPerParticipant, exec, [&](index_t c0, index_t c1) {
    syr2k_lower_cols(alpha, a, b, beta, c, c0, c1);
  });
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
  check_views(routine, "A", a, "B", b, "C", c);
  check_square(routine, "C", c.rows, c.cols);
  const MatrixView<const T> op_a = op == Op::transpose ? a.transposed() : a;
  const MatrixView<const T> op_b = op == Op::transpose ? b.transposed() : b;
  check_operand<T>("A", op_a, c.rows, op_a.cols);
  check_operand<T>("B", op_b, c.rows, op_a.cols);
  if (const auto lower = rank_k_lower(uplo, alpha, op_a.cols, beta, c, exec)) {
    syr2k_lower_parallel(alpha, op_a, op_b, beta, *lower, exec);
  }
}

template void syr2k<double>(Uplo, Op, double, MatrixView<const double>, MatrixView<const double>,
                            double, MatrixView<double>, Exec&);
template void syr2k<float>(Uplo, Op, float, MatrixView<const float>, MatrixView<const float>, float,
                           MatrixView<float>, Exec&);

}  // namespace teamla::linalg
