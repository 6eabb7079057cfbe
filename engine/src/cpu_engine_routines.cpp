// SPDX-License-Identifier: Apache-2.0
// cpu_engine_routines.cpp: CpuEngine's routines: the linalg kernel of each under dispatch().
//
// Every argument is checked once, by linalg, before anything is written: each routine's kernel
// checks its own and throws InvalidArgument from inside dispatch() with the output untouched
// (blas3.hpp, batch.hpp). Two paths check first with linalg's own checks (checks.hpp): a tiny
// gemm, which runs gemm_tiny() (unchecked) before any dispatch, and solve_spd, which checks
// both of its steps before the factorization writes A.
#include <complex>

#include "cpu_engine_impl.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"

namespace teamla::engine {
namespace {

// The span, source and group forms are checked by linalg::gemm_batch in its one pass over the
// items, the pass that also sums their flops: a second pass would cost a share of a batch of
// small items (docs/perf/batch.md).
template <class Batch>
void gemm_batch_on(CpuEngine::Impl& impl, const Batch& batch) {
  impl.dispatch("gemm_batch", [&](linalg::Exec& exec) { linalg::gemm_batch(batch, exec); });
}

// potrf_on()/potrs_on(): the kernels of potrf and potrs, on checked arguments (solve_spd checks
// both steps before either runs).
template <class T>
index_t potrf_on(CpuEngine::Impl& impl, Uplo uplo, MatrixView<T> a) {
  return impl.dispatch("potrf", [&](linalg::Exec& exec) { return linalg::potrf(uplo, a, exec); });
}

template <class T>
void potrs_on(CpuEngine::Impl& impl, Uplo uplo, MatrixView<const T> a, MatrixView<T> b) {
  impl.dispatch("potrs", [&](linalg::Exec& exec) { linalg::potrs(uplo, a, b, exec); });
}

}  // namespace

template <class T>
void CpuEngine::run_gemm(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a,
                         const MatrixView<const T>& b, T beta, const MatrixView<T>& c) {
  // A tiny product runs here, before dispatch: recording it would cost more than computing it
  // (docs/engine.md, "Cost of a call").
  if constexpr (!linalg::is_complex_v<T>) {
    if (linalg::gemm_is_tiny(c.rows, c.cols, op_a == Op::none ? a.cols : a.rows)) {
      linalg::check_gemm(op_a, op_b, a, b, c);
      linalg::gemm_tiny(op_a, op_b, alpha, a, b, beta, c);
      return;
    }
  }
  impl_->dispatch(
      "gemm", [&](linalg::Exec& exec) { linalg::gemm(op_a, op_b, alpha, a, b, beta, c, exec); });
}

void CpuEngine::run_erased(std::string_view routine, void (*kernel)(void*, linalg::Exec&),
                           void* context) {
  impl_->dispatch(routine, [&](linalg::Exec& exec) { kernel(context, exec); });
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
void CpuEngine::gemm_batch(std::span<const GemmItem<std::complex<double>>> items) {
  gemm_batch_on(*impl_, items);
}
void CpuEngine::gemm_batch(std::span<const GemmItem<std::complex<float>>> items) {
  gemm_batch_on(*impl_, items);
}
void CpuEngine::gemm_batch(const GemmBatchSource<std::complex<double>>& source) {
  gemm_batch_on(*impl_, source);
}
void CpuEngine::gemm_batch(const GemmBatchSource<std::complex<float>>& source) {
  gemm_batch_on(*impl_, source);
}
void CpuEngine::gemm_batch(std::span<const GemmGroup<std::complex<double>>> groups) {
  gemm_batch_on(*impl_, groups);
}
void CpuEngine::gemm_batch(std::span<const GemmGroup<std::complex<float>>> groups) {
  gemm_batch_on(*impl_, groups);
}

template <class T>
void CpuEngine::run_gemm_batch_strided(Op op_a, Op op_b, T alpha, MatrixView<const T> a,
                                       index_t stride_a, MatrixView<const T> b, index_t stride_b,
                                       T beta, MatrixView<T> c, index_t stride_c, index_t count) {
  impl_->dispatch("gemm_batch_strided", [&](linalg::Exec& exec) {
    linalg::gemm_batch_strided(op_a, op_b, alpha, a, stride_a, b, stride_b, beta, c, stride_c,
                               count, exec);
  });
}

template <class T>
void CpuEngine::run_trsm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
                         MatrixView<T> b) {
  impl_->dispatch(
      "trsm", [&](linalg::Exec& exec) { linalg::trsm(side, uplo, op_a, diag, alpha, a, b, exec); });
}

template <class T>
void CpuEngine::run_syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta,
                         MatrixView<T> c) {
  impl_->dispatch("syrk",
                  [&](linalg::Exec& exec) { linalg::syrk(uplo, op_a, alpha, a, beta, c, exec); });
}

template <class T>
void CpuEngine::run_herk(Uplo uplo, Op op_a, typename T::value_type alpha, MatrixView<const T> a,
                         typename T::value_type beta, MatrixView<T> c) {
  impl_->dispatch("herk",
                  [&](linalg::Exec& exec) { linalg::herk(uplo, op_a, alpha, a, beta, c, exec); });
}

template <class T>
void CpuEngine::run_symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a,
                         MatrixView<const T> b, T beta, MatrixView<T> c) {
  impl_->dispatch(
      "symm", [&](linalg::Exec& exec) { linalg::symm(side, uplo, alpha, a, b, beta, c, exec); });
}

template <class T>
void CpuEngine::run_trmm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
                         MatrixView<T> b) {
  impl_->dispatch(
      "trmm", [&](linalg::Exec& exec) { linalg::trmm(side, uplo, op_a, diag, alpha, a, b, exec); });
}

template <class T>
void CpuEngine::run_syr2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b,
                          T beta, MatrixView<T> c) {
  impl_->dispatch("syr2k",
                  [&](linalg::Exec& exec) { linalg::syr2k(uplo, op, alpha, a, b, beta, c, exec); });
}

template <class T>
void CpuEngine::run_hemm(Side side, Uplo uplo, T alpha, MatrixView<const T> a,
                         MatrixView<const T> b, T beta, MatrixView<T> c) {
  impl_->dispatch(
      "hemm", [&](linalg::Exec& exec) { linalg::hemm(side, uplo, alpha, a, b, beta, c, exec); });
}

template <class T>
void CpuEngine::run_her2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b,
                          typename T::value_type beta, MatrixView<T> c) {
  impl_->dispatch("her2k",
                  [&](linalg::Exec& exec) { linalg::her2k(uplo, op, alpha, a, b, beta, c, exec); });
}

template <class T>
index_t CpuEngine::run_potrf(Uplo uplo, MatrixView<T> a) {
  return potrf_on(*impl_, uplo, a);
}

template <class T>
void CpuEngine::run_potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b) {
  potrs_on(*impl_, uplo, a, b);
}

// solve_spd checks both steps before the factorization writes A, and leaves B untouched when A
// is not positive definite.
template <class T>
void CpuEngine::run_solve_spd(MatrixView<T> a, MatrixView<T> b) {
  linalg::check_potrf(Uplo::lower, a, "solve_spd");
  linalg::check_potrs(Uplo::lower, MatrixView<const T>(a), b, "solve_spd");
  const index_t info = potrf_on(*impl_, Uplo::lower, a);
  if (info != 0) throw NotPositiveDefinite(info);
  potrs_on(*impl_, Uplo::lower, MatrixView<const T>(a), b);
}

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_ENGINE_INSTANTIATE(T)                                                               \
  template void CpuEngine::run_gemm<T>(Op, Op, T, const MatrixView<const T>&,                      \
                                       const MatrixView<const T>&, T, const MatrixView<T>&);       \
  template void CpuEngine::run_trsm<T>(Side, Uplo, Op, Diag, T, MatrixView<const T>,               \
                                       MatrixView<T>);                                             \
  template void CpuEngine::run_syrk<T>(Uplo, Op, T, MatrixView<const T>, T, MatrixView<T>);        \
  template void CpuEngine::run_symm<T>(Side, Uplo, T, MatrixView<const T>, MatrixView<const T>, T, \
                                       MatrixView<T>);                                             \
  template void CpuEngine::run_trmm<T>(Side, Uplo, Op, Diag, T, MatrixView<const T>,               \
                                       MatrixView<T>);                                             \
  template void CpuEngine::run_syr2k<T>(Uplo, Op, T, MatrixView<const T>, MatrixView<const T>, T,  \
                                        MatrixView<T>);                                            \
  template index_t CpuEngine::run_potrf<T>(Uplo, MatrixView<T>);                                   \
  template void CpuEngine::run_potrs<T>(Uplo, MatrixView<const T>, MatrixView<T>);                 \
  template void CpuEngine::run_solve_spd<T>(MatrixView<T>, MatrixView<T>);                         \
  template void CpuEngine::run_gemm_batch_strided<T>(Op, Op, T, MatrixView<const T>, index_t,      \
                                                     MatrixView<const T>, index_t, T,              \
                                                     MatrixView<T>, index_t, index_t);
#define TEAMLA_ENGINE_INSTANTIATE_COMPLEX(T)                                                       \
  template void CpuEngine::run_herk<T>(Uplo, Op, T::value_type, MatrixView<const T>,               \
                                       T::value_type, MatrixView<T>);                              \
  template void CpuEngine::run_hemm<T>(Side, Uplo, T, MatrixView<const T>, MatrixView<const T>, T, \
                                       MatrixView<T>);                                             \
  template void CpuEngine::run_her2k<T>(Uplo, Op, T, MatrixView<const T>, MatrixView<const T>,     \
                                        T::value_type, MatrixView<T>);
TEAMLA_ENGINE_INSTANTIATE(double)
TEAMLA_ENGINE_INSTANTIATE(float)
TEAMLA_ENGINE_INSTANTIATE(std::complex<double>)
TEAMLA_ENGINE_INSTANTIATE(std::complex<float>)
TEAMLA_ENGINE_INSTANTIATE_COMPLEX(std::complex<double>)
TEAMLA_ENGINE_INSTANTIATE_COMPLEX(std::complex<float>)
#undef TEAMLA_ENGINE_INSTANTIATE
#undef TEAMLA_ENGINE_INSTANTIATE_COMPLEX
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace teamla::engine
