// SPDX-License-Identifier: Apache-2.0
// getrf_panel.cpp: the serial LU of a panel (m x n, m >= n) with partial pivoting, recursive as
// LAPACK's dgetrf2: the left half is factored, its interchanges applied to the right half,
// U12 = L11^-1 * A12 solved and A22 -= L21 * U12 updated by gemm, the right half's lower part
// factored, and its interchanges applied back to the left half. Most of a panel's flops are
// then in gemm; the leaves of kLeafCols columns are unblocked (LAPACK's dgetf2).
//
// Pivoting is LAPACK's to the letter: the pivot of a column is the first entry of largest
// magnitude (idamax: NaN is never larger, so a column whose first entry is NaN pivots there),
// a zero pivot is recorded and skipped, and the column below a pivot is scaled by its reciprocal,
// or divided by it when the reciprocal would overflow.
#include <algorithm>
#include <cmath>
#include <limits>

#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kLeafCols: panels this narrow are factored column by column. Each of a leaf's columns passes
// over the leaf's later columns once (a rank-1 update), so a narrow leaf leaves more of the
// panel's flops to gemm calls, which pass over several columns at once.
// 8: the fastest of 4, 8, 16 and 32 on 2048 x 128 and 512 x 64 panels (docs/perf/lu.md).
constexpr index_t kLeafCols = 8;

// pivot_row(): the first index of largest magnitude among x[0], x[rs], ... (n >= 1), as idamax.
template <class T>
index_t pivot_row(const T* x, index_t n, index_t rs) {
  index_t best = 0;
  T best_abs = std::fabs(x[0]);
  for (index_t i = 1; i < n; ++i) {
    const T v = std::fabs(x[i * rs]);
    if (v > best_abs) {
      best_abs = v;
      best = i;
    }
  }
  return best;
}

// scale_below(): x[1 .. n) divided by the pivot x[0], by its reciprocal when that is finite.
template <class T>
void scale_below(T* x, index_t n, index_t rs) {
  const T pivot = x[0];
  if (std::fabs(pivot) >= std::numeric_limits<T>::min()) {
    const T r = T(1) / pivot;
    for (index_t i = 1; i < n; ++i) x[i * rs] *= r;
  } else {
    for (index_t i = 1; i < n; ++i) x[i * rs] /= pivot;
  }
}

// factor_leaf(): LAPACK's dgetf2 on p (m x n, n <= kLeafCols): right-looking, rank-1 updates.
template <class T>
index_t factor_leaf(MatrixView<T> p, int* ipiv, index_t base) {
  const index_t m = p.rows;
  const index_t n = p.cols;
  const index_t rs = p.row_stride();
  index_t info = 0;
  for (index_t j = 0; j < n; ++j) {
    T* col = &p(j, j);
    const index_t piv = j + pivot_row(col, m - j, rs);
    ipiv[j] = static_cast<int>(piv + 1 + base);
    if (p(piv, j) != T(0)) {
      if (piv != j) {
        for (index_t c = 0; c < n; ++c) std::swap(p(j, c), p(piv, c));
      }
      scale_below(col, m - j, rs);
    } else if (info == 0) {
      info = j + 1;
    }
    // A22 -= a21 * a12^T on the leaf's remaining columns.
    for (index_t c = j + 1; c < n; ++c) {
      const T u = p(j, c);
      T* __restrict dst = &p(j, c) + rs;
      const T* __restrict l = col + rs;
      if (rs == 1) {
        for (index_t i = 0; i < m - j - 1; ++i) dst[i] -= l[i] * u;
      } else {
        for (index_t i = 0; i < m - j - 1; ++i) dst[i * rs] -= l[i * rs] * u;
      }
    }
  }
  return info;
}

index_t split_panel(index_t n) {
  const index_t half = n / 2;
  return half >= kLeafCols ? half / kLeafCols * kLeafCols : half;
}

}  // namespace

template <class T>
index_t factor_panel(MatrixView<T> p, int* ipiv, index_t base) {
  const index_t m = p.rows;
  const index_t n = p.cols;
  if (n <= kLeafCols) return factor_leaf(p, ipiv, base);
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

}  // namespace teamla::linalg::level3_detail
