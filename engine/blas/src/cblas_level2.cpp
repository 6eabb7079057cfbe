// SPDX-License-Identifier: Apache-2.0
// cblas_level2.cpp: the CBLAS ABI of BLAS level 2: cblas_?gemv, cblas_[ds]symv, cblas_[zc]hemv,
// cblas_[ds]ger, cblas_[zc]geru, cblas_[zc]gerc, cblas_[ds]syr, cblas_[zc]her, cblas_[ds]syr2,
// cblas_[zc]her2, cblas_?trmv, cblas_?trsv, column- and row-major.
//
// The errors are numbered as the reference CBLAS numbers them (cblas_decode.hpp): its own
// checks by their position in the CBLAS call, the rest by their position in the Fortran call
// the reference maps a row-major call to, plus one. That call has M and N swapped (gemv, ger),
// X and Y swapped (ger, and her2 for the complex types) and the triangle flipped; the test
// programs' cblas_xerbla undoes the swaps. The computation itself keeps the call as written: a
// row-major A is passed to linalg as a row-major view (abi_level2.hpp).
#include <complex>
#include <utility>

#include "abi_level2.hpp"
#include "cblas_decode.hpp"
#include "exports.hpp"

namespace {

using teamla::blas::CblasCall;
using teamla::blas::Entry;
using teamla::blas::Level2Args;
using teamla::blas::Level2Call;

// as_written(): the call in its own layout, for the computation.
Level2Call as_written(const CblasCall& call, const Level2Args& args) {
  return {args,
          call.row_major() ? teamla::linalg::Layout::row_major : teamla::linalg::Layout::col_major};
}

// uplo_written(): the letter of a CBLAS uplo the call already found legal.
char uplo_written(int uplo) { return uplo == teamla::blas::kCblasUpper ? 'U' : 'L'; }

// legal(): whether the Fortran routine's checks, on the mapped arguments, pass; else reported.
bool legal(const CblasCall& call, int info) {
  if (info == 0) return true;
  call.finish(info, Entry::count, 0, 0, 0);
  return false;
}

template <class T>
void cblas_gemv(Entry entry, const char* name, int layout, int trans, int m, int n, T alpha,
                const T* a, int lda, const T* x, int incx, T beta, T* y, int incy) {
  CblasCall call(name, layout);
  const char letter = call.trans(2, trans, "Illegal TransA setting, %d\n");
  if (!call.legal()) return;
  const Level2Args args{.trans = letter, .m = m, .n = n, .lda = lda, .incx = incx, .incy = incy};
  Level2Args mapped = args;
  mapped.m = call.fortran_m(m, n);
  mapped.n = call.fortran_n(m, n);
  if (!legal(call, teamla::blas::check_gemv(mapped))) return;
  teamla::blas::gemv(as_written(call, args), alpha, a, x, beta, y);
  call.finish(0, entry, m, n, 0);
}

template <class T>
void cblas_symv(Entry entry, const char* name, int layout, int uplo, int n, T alpha, const T* a,
                int lda, const T* x, int incx, T beta, T* y, int incy) {
  CblasCall call(name, layout);
  const char mapped_uplo = call.uplo(2, uplo);
  if (!call.legal()) return;
  Level2Args args{.uplo = mapped_uplo, .n = n, .lda = lda, .incx = incx, .incy = incy};
  if (!legal(call, teamla::blas::check_symv(args))) return;
  args.uplo = uplo_written(uplo);
  teamla::blas::symv(as_written(call, args), alpha, a, x, beta, y);
  call.finish(0, entry, 0, n, 0);
}

template <class T>
void cblas_ger(Entry entry, const char* name, bool conj_y, int layout, int m, int n, T alpha,
               const T* x, int incx, const T* y, int incy, T* a, int lda) {
  CblasCall call(name, layout);
  if (!call.legal()) return;
  const Level2Args args{.m = m, .n = n, .lda = lda, .incx = incx, .incy = incy};
  const bool row = call.row_major();
  const Level2Args mapped{.m = row ? n : m,
                          .n = row ? m : n,
                          .lda = lda,
                          .incx = row ? incy : incx,
                          .incy = row ? incx : incy};
  if (!legal(call, teamla::blas::check_ger(mapped))) return;
  teamla::blas::ger(as_written(call, args), alpha, x, y, a, conj_y);
  call.finish(0, entry, m, n, 0);
}

template <class T, class R>
void cblas_syr(Entry entry, const char* name, int layout, int uplo, int n, R alpha, const T* x,
               int incx, T* a, int lda) {
  CblasCall call(name, layout);
  const char mapped_uplo = call.uplo(2, uplo);
  if (!call.legal()) return;
  Level2Args args{.uplo = mapped_uplo, .n = n, .lda = lda, .incx = incx};
  if (!legal(call, teamla::blas::check_syr(args))) return;
  args.uplo = uplo_written(uplo);
  teamla::blas::syr(as_written(call, args), alpha, x, a);
  call.finish(0, entry, 0, n, 0);
}

template <class T>
void cblas_syr2(Entry entry, const char* name, int layout, int uplo, int n, T alpha, const T* x,
                int incx, const T* y, int incy, T* a, int lda) {
  CblasCall call(name, layout);
  const char mapped_uplo = call.uplo(2, uplo);
  if (!call.legal()) return;
  Level2Args args{.uplo = mapped_uplo, .n = n, .lda = lda, .incx = incx, .incy = incy};
  // The reference maps a row-major her2 with X and Y swapped (a real syr2 keeps them).
  Level2Args mapped = args;
  if (teamla::linalg::is_complex_v<T> && call.row_major()) std::swap(mapped.incx, mapped.incy);
  if (!legal(call, teamla::blas::check_syr2(mapped))) return;
  args.uplo = uplo_written(uplo);
  teamla::blas::syr2(as_written(call, args), alpha, x, y, a);
  call.finish(0, entry, 0, n, 0);
}

template <class T>
void cblas_triangular(Entry entry, const char* name, bool solve, int layout, int uplo, int trans,
                      int diag, int n, const T* a, int lda, T* x, int incx) {
  CblasCall call(name, layout);
  const char mapped_uplo = call.uplo(2, uplo);
  const char letter = call.trans(3, trans, "Illegal TransA setting, %d\n");
  const char diag_letter = call.diag(4, diag);
  if (!call.legal()) return;
  Level2Args args{
      .uplo = mapped_uplo, .trans = letter, .diag = diag_letter, .n = n, .lda = lda, .incx = incx};
  if (!legal(call, teamla::blas::check_trmv(args))) return;
  args.uplo = uplo_written(uplo);
  if (solve) {
    teamla::blas::trsv(as_written(call, args), a, x);
  } else {
    teamla::blas::trmv(as_written(call, args), a, x);
  }
  call.finish(0, entry, 0, n, 0);
}

}  // namespace

// The entry points of one scalar type. The real routines take alpha and beta by value, the
// complex ones by pointer (void*, as cblas.h declares them); S is the scalar as passed.
#define TEAMLA_CBLAS_GEMV_TRMV(P, T, S, VALUE, PTR)                                              \
  TEAMLA_BLAS_EXPORT void cblas_##P##gemv(int layout, int trans, int m, int n, S alpha,          \
                                          const PTR a, int lda, const PTR x, int incx, S beta,   \
                                          PTR y, int incy) {                                     \
    cblas_gemv<T>(Entry::cblas_##P##gemv, "cblas_" #P "gemv", layout, trans, m, n, VALUE(alpha), \
                  static_cast<const T*>(a), lda, static_cast<const T*>(x), incx, VALUE(beta),    \
                  static_cast<T*>(y), incy);                                                     \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void cblas_##P##trmv(int layout, int uplo, int trans, int diag, int n,      \
                                          const PTR a, int lda, PTR x, int incx) {               \
    cblas_triangular<T>(Entry::cblas_##P##trmv, "cblas_" #P "trmv", false, layout, uplo, trans,  \
                        diag, n, static_cast<const T*>(a), lda, static_cast<T*>(x), incx);       \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void cblas_##P##trsv(int layout, int uplo, int trans, int diag, int n,      \
                                          const PTR a, int lda, PTR x, int incx) {               \
    cblas_triangular<T>(Entry::cblas_##P##trsv, "cblas_" #P "trsv", true, layout, uplo, trans,   \
                        diag, n, static_cast<const T*>(a), lda, static_cast<T*>(x), incx);       \
  }

#define TEAMLA_CBLAS_SYMMETRIC(P, T, S, R, VALUE, PTR, SYMV, SYR, SYR2)                       \
  TEAMLA_BLAS_EXPORT void cblas_##P##SYMV(int layout, int uplo, int n, S alpha, const PTR a,  \
                                          int lda, const PTR x, int incx, S beta, PTR y,      \
                                          int incy) {                                         \
    cblas_symv<T>(Entry::cblas_##P##SYMV, "cblas_" #P #SYMV, layout, uplo, n, VALUE(alpha),   \
                  static_cast<const T*>(a), lda, static_cast<const T*>(x), incx, VALUE(beta), \
                  static_cast<T*>(y), incy);                                                  \
  }                                                                                           \
  TEAMLA_BLAS_EXPORT void cblas_##P##SYR(int layout, int uplo, int n, R alpha, const PTR x,   \
                                         int incx, PTR a, int lda) {                          \
    cblas_syr<T, R>(Entry::cblas_##P##SYR, "cblas_" #P #SYR, layout, uplo, n, alpha,          \
                    static_cast<const T*>(x), incx, static_cast<T*>(a), lda);                 \
  }                                                                                           \
  TEAMLA_BLAS_EXPORT void cblas_##P##SYR2(int layout, int uplo, int n, S alpha, const PTR x,  \
                                          int incx, const PTR y, int incy, PTR a, int lda) {  \
    cblas_syr2<T>(Entry::cblas_##P##SYR2, "cblas_" #P #SYR2, layout, uplo, n, VALUE(alpha),   \
                  static_cast<const T*>(x), incx, static_cast<const T*>(y), incy,             \
                  static_cast<T*>(a), lda);                                                   \
  }

#define TEAMLA_CBLAS_GER(P, T, S, VALUE, PTR, GER, CONJ)                                           \
  TEAMLA_BLAS_EXPORT void cblas_##P##GER(int layout, int m, int n, S alpha, const PTR x, int incx, \
                                         const PTR y, int incy, PTR a, int lda) {                  \
    cblas_ger<T>(Entry::cblas_##P##GER, "cblas_" #P #GER, CONJ, layout, m, n, VALUE(alpha),        \
                 static_cast<const T*>(x), incx, static_cast<const T*>(y), incy,                   \
                 static_cast<T*>(a), lda);                                                         \
  }

// How a scalar argument arrives: a real one by value, a complex one through its pointer.
#define TEAMLA_REAL(value) (value)
#define TEAMLA_COMPLEX_D(pointer) (*static_cast<const std::complex<double>*>(pointer))
#define TEAMLA_COMPLEX_F(pointer) (*static_cast<const std::complex<float>*>(pointer))

extern "C" {
TEAMLA_CBLAS_GEMV_TRMV(d, double, double, TEAMLA_REAL, double*)
TEAMLA_CBLAS_GEMV_TRMV(s, float, float, TEAMLA_REAL, float*)
TEAMLA_CBLAS_GEMV_TRMV(z, std::complex<double>, const void*, TEAMLA_COMPLEX_D, void*)
TEAMLA_CBLAS_GEMV_TRMV(c, std::complex<float>, const void*, TEAMLA_COMPLEX_F, void*)
TEAMLA_CBLAS_SYMMETRIC(d, double, double, double, TEAMLA_REAL, double*, symv, syr, syr2)
TEAMLA_CBLAS_SYMMETRIC(s, float, float, float, TEAMLA_REAL, float*, symv, syr, syr2)
TEAMLA_CBLAS_SYMMETRIC(z, std::complex<double>, const void*, double, TEAMLA_COMPLEX_D, void*, hemv,
                       her, her2)
TEAMLA_CBLAS_SYMMETRIC(c, std::complex<float>, const void*, float, TEAMLA_COMPLEX_F, void*, hemv,
                       her, her2)
TEAMLA_CBLAS_GER(d, double, double, TEAMLA_REAL, double*, ger, false)
TEAMLA_CBLAS_GER(s, float, float, TEAMLA_REAL, float*, ger, false)
TEAMLA_CBLAS_GER(z, std::complex<double>, const void*, TEAMLA_COMPLEX_D, void*, geru, false)
TEAMLA_CBLAS_GER(c, std::complex<float>, const void*, TEAMLA_COMPLEX_F, void*, geru, false)
TEAMLA_CBLAS_GER(z, std::complex<double>, const void*, TEAMLA_COMPLEX_D, void*, gerc, true)
TEAMLA_CBLAS_GER(c, std::complex<float>, const void*, TEAMLA_COMPLEX_F, void*, gerc, true)
}  // extern "C"
