// SPDX-License-Identifier: Apache-2.0
// trmm_internal.hpp (internal): the leaf of TRMM's recursion (trmm.cpp), on the gemm microkernel.
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::chol_detail {

// kTrmmLeaf: the largest diagonal block the recursion hands to trmm_leaf() when the leaf's
// buffers come from the workspace. A leaf runs at the microkernel's rate on the triangle's own
// flops, while the gemm calls of the recursion above it have a depth of half their block:
// large leaves keep the shallow gemms (k = 64) out. 128 x 128 packed doubles (128 KiB) stay in
// L2 next to the B panels.
inline constexpr index_t kTrmmLeaf = 128;
// kTrmmStackLeaf: the leaf size when the workspace cannot grow; its buffers then fit on the
// stack (about 60 KiB for doubles).
inline constexpr index_t kTrmmStackLeaf = 64;

// TrmmLeafBuffers: where a leaf packs A (the triangle) and B (a chunk of columns), and the
// largest leaf they hold.
template <class T>
struct TrmmLeafBuffers {
  T* packed_a = nullptr;
  T* packed_b = nullptr;
  index_t leaf = 0;
};

// trmm_workspace_buffers(): buffers for leaves of kTrmmLeaf from the calling thread's workspace
// (nullptr members when it cannot grow).
template <class T>
TrmmLeafBuffers<T> trmm_workspace_buffers();

// trmm_leaf(): B = alpha * A * B with A (m x m, m <= buffers.leaf) lower or upper triangular (no
// transpose), unit or non-unit diagonal; A and B of any layout. Only A's triangle affects the
// result (the other one is read while packing, then replaced by zeros). With null buffers the
// leaf packs on its stack (m <= kTrmmStackLeaf).
template <class T>
void trmm_leaf(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b,
               const TrmmLeafBuffers<T>& buffers);

}  // namespace teamla::linalg::chol_detail
