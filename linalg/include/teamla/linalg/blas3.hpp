// SPDX-License-Identifier: Apache-2.0
// blas3.hpp: the dense routines, in double, float, std::complex<double> and std::complex<float>
// (herk, her2k and hemm: complex only), on matrix views.
//
// Semantics follow the reference BLAS/LAPACK, including at the edges: beta == 0 means C is
// not read (NaN in C does not propagate); alpha == 0 or k == 0 only scales C; an empty
// dimension is a no-op. Every routine validates all its arguments first and throws
// InvalidArgument before it writes anything.
#pragma once

#include <complex>

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg {

// gemm(): C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n, C m x n. The
// views are taken by reference: a tiny product costs tens of ns, and copies of three views
// showed in it (docs/engine.md, "Cost of a call").
template <class T>
void gemm(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a, const MatrixView<const T>& b,
          T beta, const MatrixView<T>& c, Exec& exec);
// The complex products take Op::conj_transpose too, and run the real microkernel on operands
// packed by the 1m method (docs/complex.md). No tiny path: gemm_tiny() is real only.
template <>
void gemm<std::complex<double>>(Op op_a, Op op_b, std::complex<double> alpha,
                                const MatrixView<const std::complex<double>>& a,
                                const MatrixView<const std::complex<double>>& b,
                                std::complex<double> beta,
                                const MatrixView<std::complex<double>>& c, Exec& exec);
template <>
void gemm<std::complex<float>>(Op op_a, Op op_b, std::complex<float> alpha,
                               const MatrixView<const std::complex<float>>& a,
                               const MatrixView<const std::complex<float>>& b,
                               std::complex<float> beta, const MatrixView<std::complex<float>>& c,
                               Exec& exec);

// Tiny products. A gemm of at most kTinyGemmVolume multiply-adds (m * n * k) runs on the
// calling thread whatever the Exec: no section can pay there (32^3 is about 2 us of work).
// 32^3: up to it a 2-thread process ran slower than a 1-thread one (docs/perf/blocking.md).
// gemm_tiny() is that path on its own, for callers that test gemm_is_tiny() before their own
// bookkeeping (CpuEngine, the BLAS ABI): no team, lock, clock, atomic read-modify-write or
// allocation, and no workspace unless a transposed A too large for the stack must be packed.
// Its arguments must be valid (gemm() checks them; gemm_tiny() does not).
inline constexpr index_t kTinyGemmVolume = 32 * 32 * 32;

constexpr bool gemm_is_tiny(index_t m, index_t n, index_t k) {
  // m * n is bounded first, so that m * n * k cannot overflow.
  return m <= kTinyGemmVolume && n <= kTinyGemmVolume && m * n <= kTinyGemmVolume &&
         k <= kTinyGemmVolume && m * n * k <= kTinyGemmVolume;
}

template <class T>
void gemm_tiny(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a,
               const MatrixView<const T>& b, T beta, const MatrixView<T>& c);

// gemm_tiny_col_major(): gemm_tiny() in the BLAS convention (column-major C, A, B; op(A) is
// m x k, op(B) k x n), for a caller that has checked the Fortran arguments itself (the ABI): no
// view is built or normalised. With k == 0 or alpha == 0, A and B are not read.
template <class T>
void gemm_tiny_col_major(Op op_a, Op op_b, index_t m, index_t n, index_t k, T alpha, const T* a,
                         index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc);

// trsm(): B = alpha * inv(op(A)) * B (Side::left) or alpha * B * inv(op(A)) (Side::right),
// with A triangular (uplo), unit or non-unit diagonal. B is overwritten with the solution.
template <class T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a, MatrixView<T> b,
          Exec& exec);

// The complex solves take Op::conj_transpose too (docs/complex.md).
template <>
void trsm<std::complex<double>>(Side side, Uplo uplo, Op op_a, Diag diag,
                                std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a,
                                MatrixView<std::complex<double>> b, Exec& exec);
template <>
void trsm<std::complex<float>>(Side side, Uplo uplo, Op op_a, Diag diag, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a,
                               MatrixView<std::complex<float>> b, Exec& exec);

// herk(): C = alpha * op(A) * op(A)^H + beta * C on the `uplo` triangle of the Hermitian C
// (n x n), alpha and beta real, op(A) n x k with op none or conj_transpose. The other triangle
// is neither read nor written; the diagonal's imaginary parts are set to zero (as zherk does).
void herk(Uplo uplo, Op op_a, double alpha, MatrixView<const std::complex<double>> a, double beta,
          MatrixView<std::complex<double>> c, Exec& exec);
void herk(Uplo uplo, Op op_a, float alpha, MatrixView<const std::complex<float>> a, float beta,
          MatrixView<std::complex<float>> c, Exec& exec);

// her2k(): C = alpha * op(A) * op(B)^H + conj(alpha) * op(B) * op(A)^H + beta * C on the `uplo`
// triangle of the Hermitian C (n x n), beta real, op none or conj_transpose; as herk, the other
// triangle is untouched and the diagonal's imaginary parts are set to zero.
void her2k(Uplo uplo, Op op, std::complex<double> alpha, MatrixView<const std::complex<double>> a,
           MatrixView<const std::complex<double>> b, double beta,
           MatrixView<std::complex<double>> c, Exec& exec);
void her2k(Uplo uplo, Op op, std::complex<float> alpha, MatrixView<const std::complex<float>> a,
           MatrixView<const std::complex<float>> b, float beta, MatrixView<std::complex<float>> c,
           Exec& exec);

// syrk(): C = alpha * op(A) * op(A)^T + beta * C on the `uplo` triangle of C only (n x n);
// op(A) is n x k. The other triangle is neither read nor written.
template <class T>
void syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, Exec& exec);
// The complex forms (complex symmetric, not Hermitian: no conjugation; op none or transpose).
template <>
void syrk<std::complex<double>>(Uplo uplo, Op op_a, std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a, std::complex<double> beta,
                                MatrixView<std::complex<double>> c, Exec& exec);
template <>
void syrk<std::complex<float>>(Uplo uplo, Op op_a, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a, std::complex<float> beta,
                               MatrixView<std::complex<float>> c, Exec& exec);

// symm(): C = alpha * A * B + beta * C (Side::left, A m x m) or alpha * B * A + beta * C
// (Side::right, A n x n), with C m x n and A symmetric: only its `uplo` triangle is read.
template <class T>
void symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
          MatrixView<T> c, Exec& exec);
template <>
void symm<std::complex<double>>(Side side, Uplo uplo, std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a,
                                MatrixView<const std::complex<double>> b, std::complex<double> beta,
                                MatrixView<std::complex<double>> c, Exec& exec);
template <>
void symm<std::complex<float>>(Side side, Uplo uplo, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a,
                               MatrixView<const std::complex<float>> b, std::complex<float> beta,
                               MatrixView<std::complex<float>> c, Exec& exec);
// hemm(): symm() with A Hermitian: the imaginary parts of its diagonal are not read.
void hemm(Side side, Uplo uplo, std::complex<double> alpha,
          MatrixView<const std::complex<double>> a, MatrixView<const std::complex<double>> b,
          std::complex<double> beta, MatrixView<std::complex<double>> c, Exec& exec);
void hemm(Side side, Uplo uplo, std::complex<float> alpha, MatrixView<const std::complex<float>> a,
          MatrixView<const std::complex<float>> b, std::complex<float> beta,
          MatrixView<std::complex<float>> c, Exec& exec);

// trmm(): B = alpha * op(A) * B (Side::left) or alpha * B * op(A) (Side::right), with A
// triangular (uplo), unit or non-unit diagonal; only A's triangle is read. B is overwritten.
template <class T>
void trmm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a, MatrixView<T> b,
          Exec& exec);
// The complex products take Op::conj_transpose too.
template <>
void trmm<std::complex<double>>(Side side, Uplo uplo, Op op_a, Diag diag,
                                std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a,
                                MatrixView<std::complex<double>> b, Exec& exec);
template <>
void trmm<std::complex<float>>(Side side, Uplo uplo, Op op_a, Diag diag, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a,
                               MatrixView<std::complex<float>> b, Exec& exec);

// syr2k(): C = alpha * (op(A) * op(B)^T + op(B) * op(A)^T) + beta * C on the `uplo` triangle of
// C only (n x n); op(A) and op(B) are n x k. The other triangle is neither read nor written.
template <class T>
void syr2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
           MatrixView<T> c, Exec& exec);
template <>
void syr2k<std::complex<double>>(Uplo uplo, Op op, std::complex<double> alpha,
                                 MatrixView<const std::complex<double>> a,
                                 MatrixView<const std::complex<double>> b,
                                 std::complex<double> beta, MatrixView<std::complex<double>> c,
                                 Exec& exec);
template <>
void syr2k<std::complex<float>>(Uplo uplo, Op op, std::complex<float> alpha,
                                MatrixView<const std::complex<float>> a,
                                MatrixView<const std::complex<float>> b, std::complex<float> beta,
                                MatrixView<std::complex<float>> c, Exec& exec);

// potrf(): Cholesky factorization of the `uplo` triangle of A (n x n) in place: A = L*L^T
// (lower) or U^T*U (upper). The other triangle is untouched. Returns LAPACK's info: 0, or the
// 1-based column of the first non-positive (or NaN) pivot, with A left as LAPACK leaves it.
template <class T>
index_t potrf(Uplo uplo, MatrixView<T> a, Exec& exec);

// potrs(): solves A*X = B with A's Cholesky factor from potrf (same uplo); B (n x nrhs) is
// overwritten with X.
template <class T>
void potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b, Exec& exec);

// The Hermitian positive definite forms: A = L L^H or U^H U; the imaginary parts of A's
// diagonal are not read, and the factor's diagonal is real (docs/complex.md).
template <>
index_t potrf<std::complex<double>>(Uplo uplo, MatrixView<std::complex<double>> a, Exec& exec);
template <>
index_t potrf<std::complex<float>>(Uplo uplo, MatrixView<std::complex<float>> a, Exec& exec);
template <>
void potrs<std::complex<double>>(Uplo uplo, MatrixView<const std::complex<double>> a,
                                 MatrixView<std::complex<double>> b, Exec& exec);
template <>
void potrs<std::complex<float>>(Uplo uplo, MatrixView<const std::complex<float>> a,
                                MatrixView<std::complex<float>> b, Exec& exec);

}  // namespace teamla::linalg
