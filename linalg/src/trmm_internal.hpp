// SPDX-License-Identifier: Apache-2.0
// trmm_internal.hpp (internal): the leaf of TRMM's recursion (trmm.cpp), on the gemm microkernel.
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::chol_detail {

// kTrmmLeaf: the largest diagonal block the recursion hands to trmm_leaf().
inline constexpr index_t kTrmmLeaf = 64;

// trmm_leaf(): B = alpha * A * B with A (m x m, m <= kTrmmLeaf) lower or upper triangular (no
// transpose), unit or non-unit diagonal; A and B of any layout. Only A's triangle affects the
// result (the other one is read while packing, then replaced by zeros).
template <class T>
void trmm_leaf(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b);

}  // namespace teamla::linalg::chol_detail
