// SPDX-License-Identifier: Apache-2.0
// level3_routines.cpp: CpuEngine's symm, trmm and syr2k: the linalg kernels under dispatch().
//
// These routines are validated by the linalg kernels themselves, which check every argument
// before they write anything (blas3.hpp): a bad argument throws from inside dispatch() with
// the output untouched, as gemm_batch's do.
#include "engine_impl.hpp"
#include "teamla/linalg/blas3.hpp"

namespace teamla::engine {
namespace {

template <class T>
void symm_on(CpuEngine::Impl& impl, Side side, Uplo uplo, T alpha, MatrixView<const T> a,
             MatrixView<const T> b, T beta, MatrixView<T> c) {
  impl.dispatch("symm",
                [&](linalg::Exec& exec) { linalg::symm(side, uplo, alpha, a, b, beta, c, exec); });
}

template <class T>
void trmm_on(CpuEngine::Impl& impl, Side side, Uplo uplo, Op op_a, Diag diag, T alpha,
             MatrixView<const T> a, MatrixView<T> b) {
  impl.dispatch(
      "trmm", [&](linalg::Exec& exec) { linalg::trmm(side, uplo, op_a, diag, alpha, a, b, exec); });
}

template <class T>
void syr2k_on(CpuEngine::Impl& impl, Uplo uplo, Op op, T alpha, MatrixView<const T> a,
              MatrixView<const T> b, T beta, MatrixView<T> c) {
  impl.dispatch("syr2k",
                [&](linalg::Exec& exec) { linalg::syr2k(uplo, op, alpha, a, b, beta, c, exec); });
}

}  // namespace

void CpuEngine::run_symm(Side side, Uplo uplo, double alpha, MatrixView<const double> a,
                         MatrixView<const double> b, double beta, MatrixView<double> c) {
  symm_on(*impl_, side, uplo, alpha, a, b, beta, c);
}
void CpuEngine::run_symm(Side side, Uplo uplo, float alpha, MatrixView<const float> a,
                         MatrixView<const float> b, float beta, MatrixView<float> c) {
  symm_on(*impl_, side, uplo, alpha, a, b, beta, c);
}
void CpuEngine::run_trmm(Side side, Uplo uplo, Op op_a, Diag diag, double alpha,
                         MatrixView<const double> a, MatrixView<double> b) {
  trmm_on(*impl_, side, uplo, op_a, diag, alpha, a, b);
}
void CpuEngine::run_trmm(Side side, Uplo uplo, Op op_a, Diag diag, float alpha,
                         MatrixView<const float> a, MatrixView<float> b) {
  trmm_on(*impl_, side, uplo, op_a, diag, alpha, a, b);
}
void CpuEngine::run_syr2k(Uplo uplo, Op op, double alpha, MatrixView<const double> a,
                          MatrixView<const double> b, double beta, MatrixView<double> c) {
  syr2k_on(*impl_, uplo, op, alpha, a, b, beta, c);
}
void CpuEngine::run_syr2k(Uplo uplo, Op op, float alpha, MatrixView<const float> a,
                          MatrixView<const float> b, float beta, MatrixView<float> c) {
  syr2k_on(*impl_, uplo, op, alpha, a, b, beta, c);
}

}  // namespace teamla::engine
