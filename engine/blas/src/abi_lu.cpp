// SPDX-License-Identifier: Apache-2.0
// abi_lu.cpp: the LU routines of the ABI (getrf, getrs, gesv, getri, laswp), from checked
// Fortran-convention arguments to the process engine, with LAPACK's quick returns.
#include <algorithm>
#include <complex>
#include <span>

#include "abi_routines.hpp"
#include "run_on_engine.hpp"
#include "teamla/linalg/lu.hpp"

namespace teamla::blas {
namespace {

using linalg::col_major;

// valid_pivots(): every pivot names a row of the n x n factorization. LAPACK does not check
// (a bad pivot reads and writes outside A); teamla reports it as an illegal ipiv instead.
bool valid_pivots(const int* ipiv, int n) {
  return std::all_of(ipiv, ipiv + std::max(0, n), [n](int p) { return p >= 1 && p <= n; });
}

}  // namespace

template <class T>
int getrf(const GetrfArgs& args, T* a, int* ipiv, int* factor_info) {
  if (const int info = check_getrf(args)) return info;
  *factor_info = 0;
  if (args.m == 0 || args.n == 0) return 0;
  const index_t info = on_engine("getrf", [&](linalg::Exec& exec) -> index_t {
    return linalg::getrf(col_major(a, args.m, args.n, args.lda), ipiv, exec);
  });
  *factor_info = static_cast<int>(info);
  return 0;
}

template <class T>
int getrs(const GetrsArgs& args, const T* a, const int* ipiv, T* b) {
  if (const int info = check_getrs(args)) return info;
  if (args.n == 0 || args.nrhs == 0) return 0;
  if (!valid_pivots(ipiv, args.n)) return 6;
  on_engine("getrs", [&](linalg::Exec& exec) {
    linalg::getrs(op_of<T>(args.trans), col_major(a, args.n, args.n, args.lda), ipiv,
                  col_major(b, args.n, args.nrhs, args.ldb), exec);
  });
  return 0;
}

template <class T>
int gesv(const GesvArgs& args, T* a, int* ipiv, T* b, int* factor_info) {
  if (const int info = check_gesv(args)) return info;
  *factor_info = 0;
  if (args.n == 0) return 0;
  const index_t info = on_engine("gesv", [&](linalg::Exec& exec) -> index_t {
    const MatrixView<T> av = col_major(a, args.n, args.n, args.lda);
    const index_t factored = linalg::getrf(av, ipiv, exec);
    if (factored == 0 && args.nrhs > 0) {
      linalg::getrs(Op::none, MatrixView<const T>(av), ipiv,
                    col_major(b, args.n, args.nrhs, args.ldb), exec);
    }
    return factored;
  });
  *factor_info = static_cast<int>(info);
  return 0;
}

template <class T>
int getri(const GetriArgs& args, T* a, const int* ipiv, T* work, int* factor_info) {
  if (const int info = check_getri(args)) return info;
  *factor_info = 0;
  // The optimal size, the query's answer: getri at full block width (for a complex T, in the
  // real part, as zgetri.f returns it).
  const auto optimal = static_cast<T>(std::max(1, args.n) * linalg::kGetriBlock);
  if (args.lwork == -1 || args.n == 0) {
    work[0] = optimal;
    return 0;
  }
  if (!valid_pivots(ipiv, args.n)) return 4;
  const index_t info = on_engine("getri", [&](linalg::Exec& exec) -> index_t {
    return linalg::getri(col_major(a, args.n, args.n, args.lda), ipiv, exec,
                         std::span<T>(work, static_cast<std::size_t>(args.lwork)));
  });
  work[0] = optimal;  // as LAPACK, which returns it in every call
  *factor_info = static_cast<int>(info);
  return 0;
}

template <class T>
int laswp(const LaswpArgs& args, T* a, const int* ipiv) {
  if (const int info = check_laswp(args, ipiv)) return info;
  if (args.incx == 0 || args.k2 < args.k1 || args.n == 0) return 0;
  // Serial: it moves rows, and costs less than a section.
  linalg::laswp(col_major(a, args.lda, args.n, args.lda), args.k1, args.k2, ipiv, args.incx);
  return 0;
}

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_BLAS_LU_INSTANTIATE(T)                                \
  template int getrf<T>(const GetrfArgs&, T*, int*, int*);           \
  template int getrs<T>(const GetrsArgs&, const T*, const int*, T*); \
  template int gesv<T>(const GesvArgs&, T*, int*, T*, int*);         \
  template int getri<T>(const GetriArgs&, T*, const int*, T*, int*); \
  template int laswp<T>(const LaswpArgs&, T*, const int*);
TEAMLA_BLAS_LU_INSTANTIATE(double)
TEAMLA_BLAS_LU_INSTANTIATE(float)
TEAMLA_BLAS_LU_INSTANTIATE(std::complex<double>)
TEAMLA_BLAS_LU_INSTANTIATE(std::complex<float>)
#undef TEAMLA_BLAS_LU_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace teamla::blas
