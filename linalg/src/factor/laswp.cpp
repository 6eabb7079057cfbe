// SPDX-License-Identifier: Apache-2.0
// laswp.cpp: row interchanges, LAPACK's dlaswp, and the form the LU routines apply.
#include <algorithm>
#include <string>
#include <utility>

#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level3_detail {

template <class T>
void apply_swaps(MatrixView<T> a, index_t i0, index_t i1, const int* ipiv, index_t base,
                 SwapOrder order) {
  if (i1 <= i0 || a.cols == 0) return;
  const bool forward = order == SwapOrder::forward;
  const index_t first = forward ? i0 : i1 - 1;
  const index_t step = forward ? 1 : -1;
  const index_t count = i1 - i0;
  if (a.layout == Layout::col_major) {
    // A column's swaps touch that column alone: all of them while it is in cache. The rows
    // they reach are scattered, so each swap also asks for its rows of the next column, whose
    // lines are then on their way while this column's swaps run.
    for (index_t j = 0; j < a.cols; ++j) {
      T* col = a.data + j * a.ld;
      const T* next = j + 1 < a.cols ? col + a.ld : col;
      for (index_t t = 0, i = first; t < count; ++t, i += step) {
        const index_t p = ipiv[i] - 1 - base;
        __builtin_prefetch(next + p, 1);
        if (p != i) std::swap(col[i], col[p]);
      }
    }
    return;
  }
  // Row-major: each swap exchanges two contiguous rows.
  for (index_t t = 0, i = first; t < count; ++t, i += step) {
    const index_t p = ipiv[i] - 1 - base;
    if (p != i) std::swap_ranges(&a(i, 0), &a(i, 0) + a.cols, &a(p, 0));
  }
}

template void apply_swaps<double>(MatrixView<double>, index_t, index_t, const int*, index_t,
                                  SwapOrder);
template void apply_swaps<float>(MatrixView<float>, index_t, index_t, const int*, index_t,
                                 SwapOrder);
template void apply_swaps<std::complex<double>>(MatrixView<std::complex<double>>, index_t, index_t,
                                                const int*, index_t, SwapOrder);
template void apply_swaps<std::complex<float>>(MatrixView<std::complex<float>>, index_t, index_t,
                                               const int*, index_t, SwapOrder);

}  // namespace level3_detail

template <class T>
void laswp(MatrixView<T> a, index_t k1, index_t k2, const int* ipiv, index_t incx) {
  using namespace level3_detail;
  check_view("laswp", "A", a);
  if (incx == 0 || k2 < k1 || a.cols == 0) return;
  if (k1 < 1) fail_shape("laswp", "k1", "k1 = " + std::to_string(k1) + " is not positive");
  if (ipiv == nullptr) fail_shape("laswp", "ipiv", "ipiv is null");
  const index_t stride = incx > 0 ? incx : -incx;
  // Every pivot names a row of A, or nothing is swapped.
  for (index_t k = k1; k <= k2; ++k) {
    const index_t row = std::max<index_t>(k, ipiv[(k1 - 1) + (k - k1) * stride]);
    if (row > a.rows || ipiv[(k1 - 1) + (k - k1) * stride] < 1) {
      fail_shape("laswp", "ipiv",
                 "the interchange of row " + std::to_string(k) + " names a row outside the " +
                     std::to_string(a.rows) + " rows of A");
    }
  }
  const SwapOrder order = incx > 0 ? SwapOrder::forward : SwapOrder::backward;
  if (stride == 1) {
    // ipiv's entries k1 .. k2 are its elements k1 - 1 .. k2 - 1: apply_swaps' numbering.
    apply_swaps(a, k1 - 1, k2, ipiv, 0, order);
    return;
  }
  // A strided ipiv (rare): one swap at a time.
  for (index_t t = 0; t <= k2 - k1; ++t) {
    const index_t k = incx > 0 ? k1 + t : k2 - t;
    const index_t p = ipiv[(k1 - 1) + (k - k1) * stride] - 1;
    if (p == k - 1) continue;
    for (index_t j = 0; j < a.cols; ++j) std::swap(a(k - 1, j), a(p, j));
  }
}

template void laswp<double>(MatrixView<double>, index_t, index_t, const int*, index_t);
template void laswp<float>(MatrixView<float>, index_t, index_t, const int*, index_t);
template void laswp<std::complex<double>>(MatrixView<std::complex<double>>, index_t, index_t,
                                          const int*, index_t);
template void laswp<std::complex<float>>(MatrixView<std::complex<float>>, index_t, index_t,
                                         const int*, index_t);

}  // namespace teamla::linalg
