// SPDX-License-Identifier: Apache-2.0
// cpu_engine_lu.cpp: CpuEngine's LU routines (getrf, getrs, getri, solve): the linalg kernel of
// each under dispatch(). As for the other routines, linalg checks every argument before
// anything is written; the engine checks only what linalg cannot see, the length of a span of
// pivots, and solve checks both of its steps before the factorization writes A.
#include <string>
#include <vector>

#include <complex>

#include "cpu_engine_impl.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/linalg/lu.hpp"

namespace teamla::engine {
namespace {

// check_pivot_count(): ipiv holds the min(rows, cols) pivots of the factorization.
void check_pivot_count(const char* routine, std::size_t size, index_t rows, index_t cols) {
  const index_t needed = std::min(rows, cols);
  if (static_cast<index_t>(size) < needed) {
    throw linalg::InvalidArgument(routine, "ipiv",
                                  "ipiv has " + std::to_string(size) + " entries, fewer than the " +
                                      std::to_string(needed) + " pivots of A");
  }
}

template <class T>
index_t getrf_on(CpuEngine::Impl& impl, MatrixView<T> a, int* ipiv) {
  return impl.dispatch("getrf", [&](linalg::Exec& exec) { return linalg::getrf(a, ipiv, exec); });
}

template <class T>
void getrs_on(CpuEngine::Impl& impl, Op op, MatrixView<const T> lu, const int* ipiv,
              MatrixView<T> b) {
  impl.dispatch("getrs", [&](linalg::Exec& exec) { linalg::getrs(op, lu, ipiv, b, exec); });
}

}  // namespace

template <class T>
index_t CpuEngine::run_getrf(MatrixView<T> a, std::span<int> ipiv) {
  check_pivot_count("getrf", ipiv.size(), a.rows, a.cols);
  return getrf_on(*impl_, a, ipiv.data());
}

template <class T>
void CpuEngine::run_getrs(Op op, MatrixView<const T> lu, std::span<const int> ipiv,
                          MatrixView<T> b) {
  check_pivot_count("getrs", ipiv.size(), lu.rows, lu.cols);
  getrs_on(*impl_, op, lu, ipiv.data(), b);
}

template <class T>
index_t CpuEngine::run_getri(MatrixView<T> lu, std::span<const int> ipiv, std::span<T> work) {
  check_pivot_count("getri", ipiv.size(), lu.rows, lu.cols);
  return impl_->dispatch(
      "getri", [&](linalg::Exec& exec) { return linalg::getri(lu, ipiv.data(), exec, work); });
}

// solve checks both steps before the factorization writes A, and leaves B untouched when A is
// singular.
template <class T>
void CpuEngine::run_solve(MatrixView<T> a, MatrixView<T> b) {
  std::vector<int> ipiv(static_cast<std::size_t>(std::max<index_t>(a.rows, 0)), 1);
  linalg::check_getrf(a, ipiv.data(), "solve");
  linalg::check_getrs(Op::none, MatrixView<const T>(a), ipiv.data(), b, "solve");
  const index_t info = getrf_on(*impl_, a, ipiv.data());
  if (info != 0) throw SingularMatrix(info);
  getrs_on(*impl_, Op::none, MatrixView<const T>(a), ipiv.data(), b);
}

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_ENGINE_LU_INSTANTIATE(T)                                                        \
  template index_t CpuEngine::run_getrf<T>(MatrixView<T>, std::span<int>);                     \
  template void CpuEngine::run_getrs<T>(Op, MatrixView<const T>, std::span<const int>,         \
                                        MatrixView<T>);                                        \
  template index_t CpuEngine::run_getri<T>(MatrixView<T>, std::span<const int>, std::span<T>); \
  template void CpuEngine::run_solve<T>(MatrixView<T>, MatrixView<T>);
TEAMLA_ENGINE_LU_INSTANTIATE(double)
TEAMLA_ENGINE_LU_INSTANTIATE(float)
TEAMLA_ENGINE_LU_INSTANTIATE(std::complex<double>)
TEAMLA_ENGINE_LU_INSTANTIATE(std::complex<float>)
#undef TEAMLA_ENGINE_LU_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace teamla::engine
