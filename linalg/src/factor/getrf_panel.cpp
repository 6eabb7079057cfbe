// SPDX-License-Identifier: Apache-2.0
// getrf_panel.cpp: the serial LU of a panel (m x n, m >= n) with partial pivoting, recursive as
// LAPACK's dgetrf2: the left half is factored, its interchanges applied to the right half,
// U12 = L11^-1 * A12 solved and A22 -= L21 * U12 updated by gemm, the right half's lower part
// factored, and its interchanges applied back to the left half. Most of a panel's flops are
// then in gemm; the leaves of kLeafCols columns are unblocked, LAPACK's dgetf2 compiled for the
// active ISA (kernels/lu_leaf.hpp); the complex leaves are LAPACK's zgetf2, likewise
// (kernels/complex_lu_leaf.hpp).
//
// Pivoting is LAPACK's to the letter: the pivot of a column is the first entry of largest
// magnitude (idamax: NaN is never larger, so a column whose first entry is NaN pivots there),
// a zero pivot is recorded and skipped, and the column below a pivot is scaled by its reciprocal,
// or divided by it when the reciprocal would overflow.

#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kLeafCols: panels this narrow are factored column by column. Each of a leaf's columns passes
// over the leaf's later columns once (a rank-1 update), so a narrow leaf leaves more of the
// panel's flops to gemm calls, which pass over several columns at once.
// 8: leaves of 4 ran the panel alone faster, but the whole factorization slower; 16 ran both
// slower (docs/perf/lu.md, "Leaf width").
constexpr index_t kLeafCols = 8;

index_t split_panel(index_t n) {
  const index_t half = n / 2;
  return half >= kLeafCols ? half / kLeafCols * kLeafCols : half;
}

}  // namespace

template <class T>
index_t factor_panel(MatrixView<T> p, int* ipiv, index_t base) {
  const index_t m = p.rows;
  const index_t n = p.cols;
  if (n <= kLeafCols) {
    if constexpr (is_complex_v<T>) {
      return leaf_kernels<typename T::value_type>().complex_getf2(p.data, m, n, p.row_stride(),
                                                                  p.col_stride(), ipiv, base);
    } else {
      return leaf_kernels<T>().getf2(p.data, m, n, p.row_stride(), p.col_stride(), ipiv, base);
    }
  }
  const index_t n1 = split_panel(n);
  const index_t n2 = n - n1;
  const index_t info_left = factor_panel(p.block(0, 0, m, n1), ipiv, base);
  MatrixView<T> right = p.block(0, n1, m, n2);
  apply_swaps(right, 0, n1, ipiv, base);
  trsm_left_serial<T>(true, true, p.block(0, 0, n1, n1), right.block(0, 0, n1, n2));
  Exec serial;
  gemm<T>(Op::none, Op::none, T(-1), p.block(n1, 0, m - n1, n1), right.block(0, 0, n1, n2), T(1),
          right.block(n1, 0, m - n1, n2), serial);
  const index_t info_right = factor_panel(right.block(n1, 0, m - n1, n2), ipiv + n1, base + n1);
  apply_swaps(p.block(0, 0, m, n1), n1, n, ipiv, base);
  if (info_left != 0) return info_left;
  return info_right != 0 ? info_right + n1 : 0;
}

template index_t factor_panel<double>(MatrixView<double>, int*, index_t);
template index_t factor_panel<float>(MatrixView<float>, int*, index_t);
template index_t factor_panel<std::complex<double>>(MatrixView<std::complex<double>>, int*,
                                                    index_t);
template index_t factor_panel<std::complex<float>>(MatrixView<std::complex<float>>, int*, index_t);

}  // namespace teamla::linalg::level3_detail
