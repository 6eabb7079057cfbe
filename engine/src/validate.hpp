// SPDX-License-Identifier: Apache-2.0
// validate.hpp: CpuEngine's own argument checks, run before a call takes the team or writes.
//
// Each check throws linalg::InvalidArgument naming the routine, the argument as CpuEngine's
// callers write it ("A", "ldc", "op_a") and its value. gemm needs them: its tiny path skips
// linalg's checks, which leave op and layout values unchecked. trsm, syrk, potrf, potrs and
// solve_spd keep them for the messages CpuEngine documents (docs/engine.md, "Errors"), which
// linalg words otherwise. The other routines leave their checks to the linalg kernel
// (cpu_engine_routines.cpp). The checks are pure functions of their arguments (thread-safe) and
// allocate only to throw.
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::engine::detail {

using linalg::MatrixView;
using linalg::Op;
using linalg::Uplo;

template <class T>
void validate_gemm(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                   const MatrixView<T>& c);
template <class T>
void validate_trsm(linalg::Side side, Uplo uplo, Op op_a, linalg::Diag diag, MatrixView<const T> a,
                   MatrixView<T> b);
template <class T>
void validate_syrk(Uplo uplo, Op op_a, MatrixView<const T> a, MatrixView<T> c);
template <class T>
void validate_potrf(Uplo uplo, MatrixView<T> a, const char* routine = "potrf");
template <class T>
void validate_potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b,
                    const char* routine = "potrs");

}  // namespace teamla::engine::detail
