// SPDX-License-Identifier: Apache-2.0
// abi_level2.hpp: the exported level-2 routines' common body (fortran_level2.cpp,
// cblas_level2.cpp), past their argument checks.
//
// A Level2Call is the call as its caller wrote it: a Fortran call is column-major; a CBLAS
// row-major call keeps its layout, letters and sizes, and linalg reads the row-major storage as
// such (blas2.hpp), so no operand is copied or conjugated here. The checks, which number errors
// as the reference does, ran before on the Fortran routine's arguments (for a row-major CBLAS
// call, the mapped ones: cblas_level2.cpp). Each function applies the reference routine's quick
// returns, then runs the kernel: inline on the caller when the call is below the width planner's
// floor or the caller's count is 1 (no lease, no lock), else on the process engine.
#pragma once

#include "argument_checks.hpp"
#include "teamla/linalg/matrix_view.hpp"
#include "teamla/linalg/vector_view.hpp"

namespace teamla::blas {

struct Level2Call {
  Level2Args args;  // as written
  linalg::Layout layout = linalg::Layout::col_major;
};

// gemv(): ?gemv. symv(): ?symv for a real T, ?hemv for a complex one.
template <class T>
void gemv(const Level2Call& call, T alpha, const T* a, const T* x, T beta, T* y);
template <class T>
void symv(const Level2Call& call, T alpha, const T* a, const T* x, T beta, T* y);
// ger(): ?ger, ?geru, or ?gerc with conj_y.
template <class T>
void ger(const Level2Call& call, T alpha, const T* x, const T* y, T* a, bool conj_y);
// syr(): ?syr for a real T, ?her for a complex one (alpha real); syr2(): ?syr2 / ?her2.
template <class T>
void syr(const Level2Call& call, linalg::real_t<T> alpha, const T* x, T* a);
template <class T>
void syr2(const Level2Call& call, T alpha, const T* x, const T* y, T* a);
template <class T>
void trmv(const Level2Call& call, const T* a, T* x);
template <class T>
void trsv(const Level2Call& call, const T* a, T* x);

}  // namespace teamla::blas
