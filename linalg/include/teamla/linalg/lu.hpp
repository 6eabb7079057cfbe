// SPDX-License-Identifier: Apache-2.0
// lu.hpp: LU factorization with partial pivoting, and the solves and inverse built on it, in
// double, float, std::complex<double> and std::complex<float>, on matrix views.
//
// The conventions are LAPACK's, so that results pass through the BLAS ABI unchanged: pivots are
// 1-based, ipiv[i] = r meaning that row i + 1 was interchanged with row r; info > 0 names the
// first exactly zero diagonal element of U (1-based). Every routine checks all its arguments
// first and throws InvalidArgument before it writes anything. Rows and columns must fit in an
// int, the type of a pivot.
#pragma once

#include <span>

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg {

// getrf(): A = P * L * U in place, A m x n in either layout: L unit lower triangular (its unit
// diagonal not stored) below the diagonal, U upper triangular on and above it. ipiv receives
// min(m, n) pivots. Returns 0, or the index i of the first U(i, i) that is exactly zero: the
// factorization is still completed, as LAPACK's is, and a solve with it would divide by zero.
// NaN and Inf propagate as in LAPACK (a pivot is the first entry of largest magnitude).
template <class T>
index_t getrf(MatrixView<T> a, int* ipiv, Exec& exec);

// getrs(): solves op(A) * X = B with A's factors from getrf (A n x n); B (n x nrhs) is
// overwritten with X. Complex factors take Op::conj_transpose too. A complex pivot is the first
// entry of largest |re| + |im|, as LAPACK's izamax picks it.
template <class T>
void getrs(Op op, MatrixView<const T> lu, const int* ipiv, MatrixView<T> b, Exec& exec);

// gesv(): getrf of A, then getrs for B when the factorization has no zero pivot. Returns
// getrf's info; B is untouched when it is not 0.
template <class T>
index_t gesv(MatrixView<T> a, int* ipiv, MatrixView<T> b, Exec& exec);

// getri(): A^-1 in place from getrf's factors of A (n x n). Returns 0, or the index of the
// first zero U(i, i), with A left untouched (the inverse does not exist). `work` is optional
// scratch: with n * kGetriBlock elements or more it is used instead of an allocation, and when
// memory is short the inverse is computed in blocks as narrow as whatever scratch there is
// (at least n elements of `work`, or the allocation fails with std::bad_alloc).
inline constexpr index_t kGetriBlock = 64;
template <class T>
index_t getri(MatrixView<T> a, const int* ipiv, Exec& exec, std::span<T> work = {});

// laswp(): LAPACK's row interchanges on every column of A: for k = k1 .. k2 (1-based; in that
// order when incx > 0, from k2 down to k1 when incx < 0, none when incx == 0), row k is
// swapped with row ipiv[k1 - 1 + (k - k1) * |incx|]. Serial: it moves memory, not flops.
template <class T>
void laswp(MatrixView<T> a, index_t k1, index_t k2, const int* ipiv, index_t incx);

}  // namespace teamla::linalg
