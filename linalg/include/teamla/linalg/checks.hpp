// SPDX-License-Identifier: Apache-2.0
// checks.hpp: the argument checks of linalg's routines, for a caller that must check before it
// calls one: the engine's tiny gemm path, which runs gemm_tiny() (unchecked), and solve_spd,
// which checks both of its steps before the first writes A. Each routine of blas3.hpp runs the
// same check itself, so a caller that just calls the routine checks nothing of its own.
//
// Each throws InvalidArgument naming the routine, the argument as a caller writes it ("A",
// "ldc", "op_a") and its value, e.g. "teamla::gemm: ldc = 3 is smaller than the rows of C (5)".
// Pure functions of their arguments: thread-safe, allocating only to throw.
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg {

template <class T>
void check_gemm(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                const MatrixView<T>& c);
// `routine` names the caller's routine in the message ("potrf", "solve_spd").
template <class T>
void check_potrf(Uplo uplo, const MatrixView<T>& a, const char* routine = "potrf");
template <class T>
void check_potrs(Uplo uplo, const MatrixView<const T>& a, const MatrixView<T>& b,
                 const char* routine = "potrs");
// The LU family (lu.hpp): views, order within an int, ipiv given; getrs and getri also check
// that every pivot names a row of A.
template <class T>
void check_getrf(const MatrixView<T>& a, const int* ipiv, const char* routine = "getrf");
template <class T>
void check_getrs(Op op, const MatrixView<const T>& lu, const int* ipiv, const MatrixView<T>& b,
                 const char* routine = "getrs");
template <class T>
void check_getri(const MatrixView<T>& a, const int* ipiv, const char* routine = "getri");

}  // namespace teamla::linalg
