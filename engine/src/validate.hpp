// SPDX-License-Identifier: Apache-2.0
// validate.hpp: the engine's argument checks, run before a call takes the team or writes.
//
// Each check throws linalg::InvalidArgument naming the routine, the argument and its value.
// They are pure functions of their arguments (thread-safe) and allocate only to throw.
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::engine::detail {

using linalg::Diag;
using linalg::index_t;
using linalg::MatrixView;
using linalg::Op;
using linalg::Side;
using linalg::Uplo;

template <class T>
void validate_gemm(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                   const MatrixView<T>& c, const char* routine = "gemm");
// validate_gemm_batch_strided(): item 0's shapes (as validate_gemm), the count and strides.
// The span, source and group forms are checked by linalg::gemm_batch itself, in the one pass over
// the items that also sums their flops: a second pass would cost ~5 % of a batch of 8^3 items.
template <class T>
void validate_gemm_batch_strided(Op op_a, Op op_b, MatrixView<const T> a, index_t stride_a,
                                 MatrixView<const T> b, index_t stride_b, MatrixView<T> c,
                                 index_t stride_c, index_t count);
template <class T>
void validate_trsm(Side side, Uplo uplo, Op op_a, Diag diag, MatrixView<const T> a,
                   MatrixView<T> b);
template <class T>
void validate_syrk(Uplo uplo, Op op_a, MatrixView<const T> a, MatrixView<T> c);
template <class T>
void validate_potrf(Uplo uplo, MatrixView<T> a, const char* routine = "potrf");
template <class T>
void validate_potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b,
                    const char* routine = "potrs");

}  // namespace teamla::engine::detail
