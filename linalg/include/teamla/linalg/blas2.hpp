// SPDX-License-Identifier: Apache-2.0
// blas2.hpp: the matrix-vector routines (BLAS level 2), on matrix and vector views.
//
// T is float, double, std::complex<float> or std::complex<double> (symv/syr/syr2 real only,
// hemv/her/her2/gerc complex only). Matrices may be column- or row-major views (a row-major
// view is the CBLAS form); vectors may have any non-zero stride, negative included.
//
// They are memory-bound: each element of A is read (and for the updates written) once. A call
// on a team runs at the width that pays (width.hpp, RegionKind::level2): inline while the data
// stays in one core's cache or the call is short, two or more threads where a second core's
// bandwidth wins. Width 1 runs inline and never touches the pool.
//
// Semantics follow the reference BLAS, edges included: beta == 0 means y is not read (a NaN
// in y does not propagate); alpha == 0 leaves A and x unread (gemv/symv/hemv only scale y;
// the updates return at once); an empty dimension is a no-op. Op::conj_transpose is the
// transpose for the real types. Every routine checks its views' shapes first and throws
// InvalidArgument before it writes anything.
#pragma once

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"
#include "teamla/linalg/vector_view.hpp"

namespace teamla::linalg {

// gemv(): y = alpha * op(A) * x + beta * y, op(A) m x n (x of n, y of m).
template <class T>
void gemv(Op op, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec);

// symv() (real) / hemv() (complex): y = alpha * A * x + beta * y, A n x n symmetric / Hermitian,
// read from its `uplo` triangle only (hemv: the diagonal's imaginary parts are not read).
template <class T>
void symv(Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec);
template <class T>
void hemv(Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec);

// ger(): A += alpha * x * y^T (A m x n; for complex, geru). gerc() (complex): A += alpha x y^H.
template <class T>
void ger(T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a, Exec& exec);
template <class T>
void gerc(T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a, Exec& exec);

// syr() (real): A += alpha * x * x^T; her() (complex): A += alpha * x * x^H with alpha real,
// the diagonal's imaginary parts set to 0 (as the reference). Only the `uplo` triangle is read
// and written.
template <class T>
void syr(Uplo uplo, T alpha, VectorView<const T> x, MatrixView<T> a, Exec& exec);
template <class T>
void her(Uplo uplo, real_t<T> alpha, VectorView<const T> x, MatrixView<T> a, Exec& exec);

// syr2() (real): A += alpha x y^T + alpha y x^T; her2() (complex): A += alpha x y^H +
// conj(alpha) y x^H, the diagonal's imaginary parts set to 0. The `uplo` triangle only.
template <class T>
void syr2(Uplo uplo, T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a,
          Exec& exec);
template <class T>
void her2(Uplo uplo, T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a,
          Exec& exec);

// trmv(): x = op(A) * x; trsv(): x = inv(op(A)) * x, A n x n triangular (`uplo` triangle read;
// Diag::unit: its diagonal is not read and taken as 1). trsv does no singularity test: a zero
// on the diagonal gives Inf/NaN, as the reference.
template <class T>
void trmv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec);
template <class T>
void trsv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec);

// level2_runs_inline(): whether a level-2 call that reads `elements` elements of A (of T) is
// below the width planner's floor on any team measured so far (width.hpp,
// inline_floor_flops()), so that a caller (the BLAS ABI) may run it on a serial Exec without
// taking the engine. One relaxed load.
template <class T>
bool level2_runs_inline(index_t elements);

}  // namespace teamla::linalg
