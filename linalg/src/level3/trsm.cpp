// SPDX-License-Identifier: Apache-2.0
// trsm.cpp: triangular solve with many right-hand sides, on gemm.
//
// Every case is reduced to "left side, no transpose, lower or upper" by view identities:
// op(A) = A^T is A.transposed() with the triangle flipped, and X*op(A) = B is
// op(A)^T * X^T = B^T. The canonical solve is recursive: split A into halves, solve the
// first, update the second with one gemm (where the flops are), solve the second. Leaves of
// at most kLeafSolve rows run the per-ISA substitution kernels. The right-hand sides are
// independent, so the parallel version splits them (the columns of the reduced B) over the
// participants of one section.
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

template <class T>
void solve_leaf(bool lower, bool unit, MatrixView<const T> a, MatrixView<T> b) {
  const index_t k = a.rows;
  alignas(64) T packed[kLeafSolve * kLeafSolve];
  alignas(64) T rdiag[kLeafSolve];
  for (index_t j = 0; j < k; ++j) {
    const index_t lo = lower ? j : 0;
    const index_t hi = lower ? k : j + 1;
    for (index_t i = lo; i < hi; ++i) packed[i + j * k] = a(i, j);
    rdiag[j] = unit ? T(1) : T(1) / a(j, j);
  }
  const LeafKernels<T>& kernels = leaf_kernels<T>();
  (lower ? kernels.solve_lower : kernels.solve_upper)(packed, rdiag, unit, k, b.data,
                                                      b.row_stride(), b.col_stride(), b.cols);
}

}  // namespace

template <class T>
void trsm_left_serial(bool lower, bool unit, MatrixView<const T> a, MatrixView<T> b) {
  const index_t m = a.rows;
  if (m == 0 || b.cols == 0) return;
  if (m <= kLeafSolve) {
    solve_leaf(lower, unit, a, b);
    return;
  }
  const index_t m1 = split_rows(m);
  const index_t m2 = m - m1;
  Exec serial;
  if (lower) {
    trsm_left_serial(lower, unit, a.block(0, 0, m1, m1), b.block(0, 0, m1, b.cols));
    gemm<T>(Op::none, Op::none, T(-1), a.block(m1, 0, m2, m1), b.block(0, 0, m1, b.cols), T(1),
            b.block(m1, 0, m2, b.cols), serial);
    trsm_left_serial(lower, unit, a.block(m1, m1, m2, m2), b.block(m1, 0, m2, b.cols));
  } else {
    trsm_left_serial(lower, unit, a.block(m1, m1, m2, m2), b.block(m1, 0, m2, b.cols));
    gemm<T>(Op::none, Op::none, T(-1), a.block(0, m1, m1, m2), b.block(m1, 0, m2, b.cols), T(1),
            b.block(0, 0, m1, b.cols), serial);
    trsm_left_serial(lower, unit, a.block(0, 0, m1, m1), b.block(0, 0, m1, b.cols));
  }
}
template void trsm_left_serial<double>(bool, bool, MatrixView<const double>, MatrixView<double>);
template void trsm_left_serial<float>(bool, bool, MatrixView<const float>, MatrixView<float>);

// kSlicesPerParticipant: column slices per participant of a claimed trsm section. One: each
// slice runs the whole recursion, whose gemm calls pack (or re-read in place) the blocks of A
// again, so narrow slices cost a pass over A for few columns. A late participant's slice is
// still claimed by the other.
// 1: four held 2-thread strsm below its 1-thread rate; one ran far faster (docs/perf/blocking.md).
constexpr std::size_t kSlicesPerParticipant = 1;
// kMinSliceCols: the narrowest slice worth its own pass over A.
// 32: two slices at 64 right-hand sides ran 2-thread strsm well past one (docs/perf/blocking.md).
constexpr index_t kMinSliceCols = 32;

// trsm_left_parallel(): the canonical solve with its right-hand sides split over a section
// whose width the cost model picks. Returns the width used.
template <class T>
std::size_t trsm_left_parallel(bool lower, bool unit, MatrixView<const T> a, MatrixView<T> b,
                               Exec& exec) {
  const double flops =
      static_cast<double>(a.rows) * static_cast<double>(a.rows) * static_cast<double>(b.cols);
  const RegionPlan plan = plan_region(RegionKind::trsm, sizeof(T), flops, exec);
  return run_rhs_slices(plan, b.cols, kMinSliceCols, kSlicesPerParticipant, exec,
                        [&](index_t c0, index_t c1) {
                          trsm_left_serial(lower, unit, a, b.block(0, c0, b.rows, c1 - c0));
                        });
}
template std::size_t trsm_left_parallel<double>(bool, bool, MatrixView<const double>,
                                                MatrixView<double>, Exec&);
template std::size_t trsm_left_parallel<float>(bool, bool, MatrixView<const float>,
                                               MatrixView<float>, Exec&);

}  // namespace level3_detail

template <class T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a, MatrixView<T> b,
          Exec& exec) {
  using namespace level3_detail;
  const auto left = to_left_triangular("trsm", side, uplo, op_a, diag, alpha, a, b, exec);
  if (!left) return;
  if (alpha != T(1)) {
    for (index_t j = 0; j < left->b.cols; ++j) {
      for (index_t i = 0; i < left->b.rows; ++i) left->b(i, j) *= alpha;
    }
  }
  trsm_left_parallel(left->lower, left->unit, left->a, left->b, exec);
}

template void trsm<double>(Side, Uplo, Op, Diag, double, MatrixView<const double>,
                           MatrixView<double>, Exec&);
template void trsm<float>(Side, Uplo, Op, Diag, float, MatrixView<const float>, MatrixView<float>,
                          Exec&);

}  // namespace teamla::linalg
