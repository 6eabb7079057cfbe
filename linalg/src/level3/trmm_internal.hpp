// SPDX-License-Identifier: Apache-2.0
// trmm_internal.hpp (internal): TRMM on gemm's panels (trmm_blocked.cpp) and the leaf of its
// fallback recursion (trmm.cpp, trmm_leaf.cpp), on the gemm microkernel.
#pragma once

#include "isa_dispatch.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

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

// trmm_blocked(): B = alpha * A * B (side left) or alpha * B * A (right) with A lower or upper
// (no transpose) and B column-major, on gemm's loops (trmm_blocked.cpp; on the right A's
// triangle is packed as gemm's B, B's columns as its A); false, with nothing written, when the
// calling thread's workspace cannot hold the packed blocks.
template <class T>
bool trmm_blocked(Side side, bool lower, bool unit, T alpha, MatrixView<const T> a,
                  MatrixView<T> b);

// trmm_workspace_buffers(): buffers for leaves of kTrmmLeaf from the calling thread's workspace
// (nullptr members when it cannot grow).
template <class T>
TrmmLeafBuffers<T> trmm_workspace_buffers();

// The strips of a triangle's rows: MR rows each, on a grid shifted by strip_grid_shift() so that
// the one partial strip (m % MR rows, run on a narrower and slower kernel instance) is the
// strip with the shortest k range: the first rows of a lower triangle ([0, m % MR) reach k up to
// m % MR), the last ones of an upper triangle (as unshifted). At the end of a lower triangle it
// reached all m columns: at strmm_ 256, 16 rows on the 16-row kernel over k = 256, a sixth of
// the kernel's time (docs/level3.md, "TRMM").
inline index_t strip_grid_shift(bool lower, index_t m, index_t mr) {
  return lower ? (mr - m % mr) % mr : 0;
}
// next_grid_edge(): the first edge after row r (an edge itself) of the shifted grid of `unit`
// rows (MR, or a multiple of it), at most m.
inline index_t next_grid_edge(index_t r, index_t shift, index_t unit, index_t m) {
  const index_t edge = ((r + shift) / unit + 1) * unit - shift;
  return edge < m ? edge : m;
}

// pack_triangle_rows(): rows [r0, r1) of the m x m triangle A (edges of the shifted MR grid) packed
// as gemm's A, each MR-row strip over the k range it reaches in the triangle only ([0, last row]
// lower, [first row, m) upper), its diagonal block made triangular: zeros outside the triangle,
// ones on a unit diagonal. Nothing outside the triangle is read by the products.
template <class T>
void pack_triangle_rows(const detail::KernelFns<T>& f, bool lower, bool unit, MatrixView<const T> a,
                        index_t r0, index_t r1, T* ap);

// multiply_triangle_rows(): rows [r0, r1) of B = alpha * A * B, from those rows of the triangle
// packed by pack_triangle_rows() (ap) and B's m rows packed by the kernel's pack_b (bp, NR
// columns per micro-panel). B is only written: every row it reads is in bp.
template <class T>
void multiply_triangle_rows(const detail::KernelFns<T>& f, bool lower, T alpha, index_t r0,
                            index_t r1, const T* ap, const T* bp, MatrixView<T> b);

// trmm_leaf(): B = alpha * A * B with A (m x m, m <= buffers.leaf) lower or upper triangular (no
// transpose), unit or non-unit diagonal; A and B of any layout. Only A's triangle affects the
// result (the other one is read while packing, then replaced by zeros). With null buffers the
// leaf packs on its stack (m <= kTrmmStackLeaf).
template <class T>
void trmm_leaf(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b,
               const TrmmLeafBuffers<T>& buffers);

}  // namespace teamla::linalg::level3_detail
