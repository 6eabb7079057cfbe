// SPDX-License-Identifier: Apache-2.0
// trmm.cpp: triangular matrix times a general one, in place, on gemm.
//
// Every case is reduced to "left side, no transpose, lower or upper" as trsm.cpp reduces it:
// op(A) = A^T is A.transposed() with the triangle flipped, and B*op(A) is (op(A)^T * B^T)^T.
// The product runs on gemm's loops, one kc-deep panel at a time (trmm_blocked.cpp): a
// column-major B as A*B, a row-major one as its column-major transpose times A^T. When the
// workspace cannot hold the panels, the recursion runs instead: with A split into halves, the
// half of B that the other half of the result still needs is computed last. Lower: B2 = A22*B2
// (recursively), then B2 += A21*B1 (one gemm, where the flops are), then B1 = A11*B1; upper mirrors
// it. So no block of B is overwritten before every product that reads it has run, and the triangle
// is never expanded into a dense matrix (which would double the flops). Leaves of at most kTrmmLeaf
// rows run on the gemm microkernel (trmm_leaf.cpp). The columns of B are independent, so the
// parallel version splits them over the participants of one claimed section, as trsm does.
#include <algorithm>

#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"
#include "level3/trmm_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace level3_detail {
namespace {

// kSlicesPerParticipant: column slices per participant of a claimed trmm section. One, as in
// trsm: every slice packs the blocks of A again, and a slice must stay wide enough for its
// panels to run at gemm's rate. A late participant's slice is still claimed by the other.
// 1: faster than 2 and 4 at n = 256-512 on 2 threads, level at 1024 (docs/perf/blocking.md).
constexpr std::size_t kSlicesPerParticipant = 1;
// kMinSliceCols: the narrowest slice worth its own pass over A.
constexpr index_t kMinSliceCols = 64;

template <class T>
void trmm_recursive(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b,
                    const TrmmLeafBuffers<T>& buffers) {
  const index_t m = a.rows;
  if (m == 0 || b.cols == 0) return;
  if (m <= (buffers.packed_a != nullptr ? buffers.leaf : kTrmmStackLeaf)) {
    trmm_leaf(lower, unit, alpha, a, b, buffers);
    return;
  }
  const index_t m1 = split_rows(m);
  const index_t m2 = m - m1;
  const index_t n = b.cols;
  Exec serial;
  if (lower) {
    trmm_recursive(lower, unit, alpha, a.block(m1, m1, m2, m2), b.block(m1, 0, m2, n), buffers);
    gemm<T>(Op::none, Op::none, alpha, a.block(m1, 0, m2, m1), b.block(0, 0, m1, n), T(1),
            b.block(m1, 0, m2, n), serial);
    trmm_recursive(lower, unit, alpha, a.block(0, 0, m1, m1), b.block(0, 0, m1, n), buffers);
  } else {
    trmm_recursive(lower, unit, alpha, a.block(0, 0, m1, m1), b.block(0, 0, m1, n), buffers);
    gemm<T>(Op::none, Op::none, alpha, a.block(0, m1, m1, m2), b.block(m1, 0, m2, n), T(1),
            b.block(0, 0, m1, n), serial);
    trmm_recursive(lower, unit, alpha, a.block(m1, m1, m2, m2), b.block(m1, 0, m2, n), buffers);
  }
}

// trmm_left_serial(): the canonical product on the calling thread: on gemm's loops, or the
// recursion with the leaves' buffers taken once from its workspace.
template <class T>
void trmm_left_serial(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b) {
  if (b.row_stride() == 1 && trmm_blocked(Side::left, lower, unit, alpha, a, b)) return;
  // A row-major B is a column-major one times the transposed triangle on the right.
  if (b.col_stride() == 1 &&
      trmm_blocked(Side::right, !lower, unit, alpha, a.transposed(), b.transposed())) {
    return;
  }
  trmm_recursive(lower, unit, alpha, a, b, trmm_workspace_buffers<T>());
}

// trmm_left_parallel(): the canonical product with B's columns split over a section whose
// width the cost model picks (trsm's rates: the same shape of work).
template <class T>
void trmm_left_parallel(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b,
                        Exec& exec) {
  const double flops =
      static_cast<double>(a.rows) * static_cast<double>(a.rows) * static_cast<double>(b.cols);
  const RegionPlan plan = plan_region(RegionKind::trsm, sizeof(T), flops, exec);
  run_rhs_slices(plan, b.cols, kMinSliceCols, kSlicesPerParticipant, exec,
                 [&](index_t c0, index_t c1) {
                   trmm_left_serial(lower, unit, alpha, a, b.block(0, c0, b.rows, c1 - c0));
                 });
}

}  // namespace
}  // namespace level3_detail

template <class T>
void trmm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a, MatrixView<T> b,
          Exec& exec) {
  using namespace level3_detail;
  if (const auto left = to_left_triangular("trmm", side, uplo, op_a, diag, alpha, a, b, exec)) {
    trmm_left_parallel(left->lower, left->unit, alpha, left->a, left->b, exec);
  }
}

template void trmm<double>(Side, Uplo, Op, Diag, double, MatrixView<const double>,
                           MatrixView<double>, Exec&);
template void trmm<float>(Side, Uplo, Op, Diag, float, MatrixView<const float>, MatrixView<float>,
                          Exec&);

}  // namespace teamla::linalg
