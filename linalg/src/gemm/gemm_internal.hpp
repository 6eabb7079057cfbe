// SPDX-License-Identifier: Apache-2.0
// gemm_internal.hpp (internal): the GEMM machinery for reuse by the level-3 and Cholesky
// routines (SYMM, TRMM, SYRK and SYR2K, POTRF's step) and the batches.
//
// Everything here works on column-major C and on operands given by strides, with all
// arguments already validated (no checks). A "strided" operand has element (i, j) at
// data[i*rs + j*cs], so a transpose or a row-major view is only a swap of strides.
//
//   gemm_serial(...)   C = alpha*A*B + beta*C on the calling thread, using the rank-`rank`
//                      buffers of `ws` (BLIS loops jc/pc/ic/jr/ir around the microkernel).
//   gemm_strided(...)  the same, choosing the width with the cost model (width.hpp) and
//                      running on exec.team when it pays; fills exec.stats.
//   strided_op(view, op) gives (data, rs, cs) of op(view).
#pragma once

#include <cstddef>

#include "isa_dispatch.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"
#include "teamla/linalg/workspace.hpp"

namespace teamla::linalg::detail {

// Strided: element (i, j) of an operand at data[i*rs + j*cs]. With lower_symmetric (op(A) of
// SYMM only), the operand is a symmetric S of which only the lower triangle is read: S(i, j)
// is data[i*rs + j*cs] on and below the diagonal and data[j*rs + i*cs] above it. gemm then
// packs it straight from the triangle (pack_a_symmetric) and takes none of the paths that
// read A in place.
template <class T>
struct Strided {
  const T* data = nullptr;
  index_t rs = 0;
  index_t cs = 0;
  bool lower_symmetric = false;
};

template <class T>
Strided<T> strided_op(MatrixView<const T> v, Op op) {
  if (op == Op::none) {
    return {v.data, v.row_stride(), v.col_stride()};
  }
  return {v.data, v.col_stride(), v.row_stride()};
}

// gemm_serial(): m x n x k on one thread with kernel set `ks`; C column-major (ldc).
template <class T>
void gemm_serial(const KernelSet<T>& ks, index_t m, index_t n, index_t k, T alpha, Strided<T> a,
                 Strided<T> b, T beta, T* c, index_t ldc, Workspace& ws, std::size_t rank);

// gemm_strided(): the validated, layout-normalised entry; may run on exec.team.
template <class T>
void gemm_strided(index_t m, index_t n, index_t k, T alpha, Strided<T> a, Strided<T> b, T beta,
                  T* c, index_t ldc, Exec& exec);

// ic_loop(): rows [m0, m1) of C = alpha A B + beta C, where B is the kcb x ncb panel packed in
// bp (the kernel's pack_b) and A the columns [pc, pc + kcb) of op(A): each block of A packed
// into ap (rows_per_block x kcb, within an mc x kc block) and multiplied.
template <class T>
void ic_loop(const KernelSet<T>& ks, index_t m0, index_t m1, index_t ncb, index_t kcb, Strided<T> a,
             index_t pc, T* ap, const T* bp, T* c, index_t ldc, T alpha, T beta);

// scale_c(): C = beta*C on m x n column-major C (beta == 0 writes zeros, never reads C).
template <class T>
void scale_c(index_t m, index_t n, T beta, T* c, index_t ldc);

}  // namespace teamla::linalg::detail
