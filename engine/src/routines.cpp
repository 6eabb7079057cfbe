// SPDX-License-Identifier: Apache-2.0
// routines.cpp: CpuEngine's routines: validate every argument, then run the linalg kernel under
// dispatch().
#include "engine_impl.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "validate.hpp"

namespace teamla::engine {
namespace {

template <class T>
void gemm_on(CpuEngine::Impl& impl, Op op_a, Op op_b, T alpha, const MatrixView<const T>& a,
             const MatrixView<const T>& b, T beta, const MatrixView<T>& c) {
  detail::validate_gemm(op_a, op_b, a, b, c);
  // A tiny product runs here, before dispatch: recording it would cost more than computing it
  // (docs/engine.md, "Cost of a call").
  if (linalg::gemm_is_tiny(c.rows, c.cols, op_a == Op::none ? a.cols : a.rows)) {
    linalg::gemm_tiny(op_a, op_b, alpha, a, b, beta, c);
    return;
  }
  impl.dispatch("gemm",
                [&](linalg::Exec& exec) { linalg::gemm(op_a, op_b, alpha, a, b, beta, c, exec); });
}

// The span, source and group forms are validated by linalg::gemm_batch, before anything is written
// (validate.hpp says why there); it throws from inside dispatch() with every C untouched.
template <class Batch>
void gemm_batch_on(CpuEngine::Impl& impl, const Batch& batch) {
  impl.dispatch("gemm_batch", [&](linalg::Exec& exec) { linalg::gemm_batch(batch, exec); });
}

template <class T>
void gemm_batch_strided_on(CpuEngine::Impl& impl, Op op_a, Op op_b, T alpha, MatrixView<const T> a,
                           index_t stride_a, MatrixView<const T> b, index_t stride_b, T beta,
                           MatrixView<T> c, index_t stride_c, index_t count) {
  detail::validate_gemm_batch_strided(op_a, op_b, a, stride_a, b, stride_b, c, stride_c, count);
  impl.dispatch("gemm_batch_strided", [&](linalg::Exec& exec) {
    linalg::gemm_batch_strided(op_a, op_b, alpha, a, stride_a, b, stride_b, beta, c, stride_c,
                               count, exec);
  });
}

template <class T>
void trsm_on(CpuEngine::Impl& impl, Side side, Uplo uplo, Op op_a, Diag diag, T alpha,
             MatrixView<const T> a, MatrixView<T> b) {
  detail::validate_trsm(side, uplo, op_a, diag, a, b);
  impl.dispatch(
      "trsm", [&](linalg::Exec& exec) { linalg::trsm(side, uplo, op_a, diag, alpha, a, b, exec); });
}

template <class T>
void syrk_on(CpuEngine::Impl& impl, Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta,
             MatrixView<T> c) {
  detail::validate_syrk(uplo, op_a, a, c);
  impl.dispatch("syrk",
                [&](linalg::Exec& exec) { linalg::syrk(uplo, op_a, alpha, a, beta, c, exec); });
}

template <class T>
index_t potrf_on(CpuEngine::Impl& impl, Uplo uplo, MatrixView<T> a) {
  detail::validate_potrf(uplo, a);
  return impl.dispatch("potrf", [&](linalg::Exec& exec) { return linalg::potrf(uplo, a, exec); });
}

template <class T>
void potrs_on(CpuEngine::Impl& impl, Uplo uplo, MatrixView<const T> a, MatrixView<T> b) {
  detail::validate_potrs(uplo, a, b);
  impl.dispatch("potrs", [&](linalg::Exec& exec) { linalg::potrs(uplo, a, b, exec); });
}

// solve_spd validates both steps before the factorization writes A, and leaves B untouched
// when A is not positive definite.
template <class T>
void solve_spd_on(CpuEngine::Impl& impl, MatrixView<T> a, MatrixView<T> b) {
  detail::validate_potrf(Uplo::lower, a, "solve_spd");
  detail::validate_potrs(Uplo::lower, MatrixView<const T>(a), b, "solve_spd");
  const index_t info = potrf_on(impl, Uplo::lower, a);
  if (info != 0) throw NotPositiveDefinite(info);
  potrs_on(impl, Uplo::lower, MatrixView<const T>(a), b);
}

}  // namespace

void CpuEngine::run_gemm(Op op_a, Op op_b, double alpha, const MatrixView<const double>& a,
                         const MatrixView<const double>& b, double beta,
                         const MatrixView<double>& c) {
  gemm_on(*impl_, op_a, op_b, alpha, a, b, beta, c);
}
void CpuEngine::run_gemm(Op op_a, Op op_b, float alpha, const MatrixView<const float>& a,
                         const MatrixView<const float>& b, float beta, const MatrixView<float>& c) {
  gemm_on(*impl_, op_a, op_b, alpha, a, b, beta, c);
}
void CpuEngine::gemm_batch(std::span<const GemmItem<double>> items) {
  gemm_batch_on(*impl_, items);
}
void CpuEngine::gemm_batch(std::span<const GemmItem<float>> items) { gemm_batch_on(*impl_, items); }
void CpuEngine::gemm_batch(const GemmBatchSource<double>& source) { gemm_batch_on(*impl_, source); }
void CpuEngine::gemm_batch(const GemmBatchSource<float>& source) { gemm_batch_on(*impl_, source); }
void CpuEngine::gemm_batch(std::span<const GemmGroup<double>> groups) {
  gemm_batch_on(*impl_, groups);
}
void CpuEngine::gemm_batch(std::span<const GemmGroup<float>> groups) {
  gemm_batch_on(*impl_, groups);
}
void CpuEngine::gemm_batch_strided(Op op_a, Op op_b, double alpha, MatrixView<const double> a,
                                   index_t stride_a, MatrixView<const double> b, index_t stride_b,
                                   double beta, MatrixView<double> c, index_t stride_c,
                                   index_t count) {
  gemm_batch_strided_on(*impl_, op_a, op_b, alpha, a, stride_a, b, stride_b, beta, c, stride_c,
                        count);
}
void CpuEngine::gemm_batch_strided(Op op_a, Op op_b, float alpha, MatrixView<const float> a,
                                   index_t stride_a, MatrixView<const float> b, index_t stride_b,
                                   float beta, MatrixView<float> c, index_t stride_c,
                                   index_t count) {
  gemm_batch_strided_on(*impl_, op_a, op_b, alpha, a, stride_a, b, stride_b, beta, c, stride_c,
                        count);
}
void CpuEngine::run_trsm(Side side, Uplo uplo, Op op_a, Diag diag, double alpha,
                         MatrixView<const double> a, MatrixView<double> b) {
  trsm_on(*impl_, side, uplo, op_a, diag, alpha, a, b);
}
void CpuEngine::run_trsm(Side side, Uplo uplo, Op op_a, Diag diag, float alpha,
                         MatrixView<const float> a, MatrixView<float> b) {
  trsm_on(*impl_, side, uplo, op_a, diag, alpha, a, b);
}
void CpuEngine::run_syrk(Uplo uplo, Op op_a, double alpha, MatrixView<const double> a, double beta,
                         MatrixView<double> c) {
  syrk_on(*impl_, uplo, op_a, alpha, a, beta, c);
}
void CpuEngine::run_syrk(Uplo uplo, Op op_a, float alpha, MatrixView<const float> a, float beta,
                         MatrixView<float> c) {
  syrk_on(*impl_, uplo, op_a, alpha, a, beta, c);
}
index_t CpuEngine::run_potrf(Uplo uplo, MatrixView<double> a) { return potrf_on(*impl_, uplo, a); }
index_t CpuEngine::run_potrf(Uplo uplo, MatrixView<float> a) { return potrf_on(*impl_, uplo, a); }
void CpuEngine::run_potrs(Uplo uplo, MatrixView<const double> a, MatrixView<double> b) {
  potrs_on(*impl_, uplo, a, b);
}
void CpuEngine::run_potrs(Uplo uplo, MatrixView<const float> a, MatrixView<float> b) {
  potrs_on(*impl_, uplo, a, b);
}
void CpuEngine::run_solve_spd(MatrixView<double> a, MatrixView<double> b) {
  solve_spd_on(*impl_, a, b);
}
void CpuEngine::run_solve_spd(MatrixView<float> a, MatrixView<float> b) {
  solve_spd_on(*impl_, a, b);
}

}  // namespace teamla::engine
