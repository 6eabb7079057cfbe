// SPDX-License-Identifier: Apache-2.0
// fortran_level2.cpp: the Fortran ABI of BLAS level 2: ?gemv_, [ds]symv_, [zc]hemv_, [ds]ger_,
// [zc]geru_, [zc]gerc_, [ds]syr_, [zc]her_, [ds]syr2_, [zc]her2_, ?trmv_, ?trsv_, in gfortran's
// conventions (fortran_api.cpp). Each checks its arguments as the reference routine does,
// reports the first illegal one to xerbla_, else runs abi_level2.hpp's body.
#include <complex>

#include "abi_level2.hpp"
#include "call_log.hpp"
#include "error_report.hpp"
#include "exports.hpp"

namespace {

using teamla::blas::Entry;
using teamla::blas::Level2Args;
using teamla::blas::Level2Call;

// checked(): whether `info` is 0; else it is reported to xerbla_ under `name`.
bool checked(int info, const char* name) {
  if (info == 0) return true;
  teamla::blas::report_fortran_error(name, info);
  return false;
}

template <class T>
void fortran_gemv(Entry entry, const char* name, const char* trans, const int* m, const int* n,
                  const T* alpha, const T* a, const int* lda, const T* x, const int* incx,
                  const T* beta, T* y, const int* incy) {
  const Level2Args args{
      .trans = *trans, .m = *m, .n = *n, .lda = *lda, .incx = *incx, .incy = *incy};
  if (!checked(teamla::blas::check_gemv(args), name)) return;
  teamla::blas::gemv(Level2Call{args}, *alpha, a, x, *beta, y);
  teamla::blas::note_served(entry, *m, *n, 0);
}

template <class T>
void fortran_symv(Entry entry, const char* name, const char* uplo, const int* n, const T* alpha,
                  const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y,
                  const int* incy) {
  const Level2Args args{.uplo = *uplo, .n = *n, .lda = *lda, .incx = *incx, .incy = *incy};
  if (!checked(teamla::blas::check_symv(args), name)) return;
  teamla::blas::symv(Level2Call{args}, *alpha, a, x, *beta, y);
  teamla::blas::note_served(entry, 0, *n, 0);
}

template <class T>
void fortran_ger(Entry entry, const char* name, bool conj_y, const int* m, const int* n,
                 const T* alpha, const T* x, const int* incx, const T* y, const int* incy, T* a,
                 const int* lda) {
  const Level2Args args{.m = *m, .n = *n, .lda = *lda, .incx = *incx, .incy = *incy};
  if (!checked(teamla::blas::check_ger(args), name)) return;
  teamla::blas::ger(Level2Call{args}, *alpha, x, y, a, conj_y);
  teamla::blas::note_served(entry, *m, *n, 0);
}

// fortran_syr(): ?syr_ and ?her_ (R is T's real type: her's alpha).
template <class T, class R>
void fortran_syr(Entry entry, const char* name, const char* uplo, const int* n, const R* alpha,
                 const T* x, const int* incx, T* a, const int* lda) {
  const Level2Args args{.uplo = *uplo, .n = *n, .lda = *lda, .incx = *incx};
  if (!checked(teamla::blas::check_syr(args), name)) return;
  teamla::blas::syr(Level2Call{args}, *alpha, x, a);
  teamla::blas::note_served(entry, 0, *n, 0);
}

template <class T>
void fortran_syr2(Entry entry, const char* name, const char* uplo, const int* n, const T* alpha,
                  const T* x, const int* incx, const T* y, const int* incy, T* a, const int* lda) {
  const Level2Args args{.uplo = *uplo, .n = *n, .lda = *lda, .incx = *incx, .incy = *incy};
  if (!checked(teamla::blas::check_syr2(args), name)) return;
  teamla::blas::syr2(Level2Call{args}, *alpha, x, y, a);
  teamla::blas::note_served(entry, 0, *n, 0);
}

template <class T>
void fortran_triangular(Entry entry, const char* name, bool solve, const char* uplo,
                        const char* trans, const char* diag, const int* n, const T* a,
                        const int* lda, T* x, const int* incx) {
  const Level2Args args{
      .uplo = *uplo, .trans = *trans, .diag = *diag, .n = *n, .lda = *lda, .incx = *incx};
  if (!checked(teamla::blas::check_trmv(args), name)) return;
  if (solve) {
    teamla::blas::trsv(Level2Call{args}, a, x);
  } else {
    teamla::blas::trmv(Level2Call{args}, a, x);
  }
  teamla::blas::note_served(entry, 0, *n, 0);
}

}  // namespace

// The entry points of one scalar type: P is the routines' prefix (d, s, z, c), NAME_ the
// upper-case one xerbla_ receives, T the scalar. Complex arguments are (Re, Im) pairs by
// reference, as std::complex is laid out.
#define TEAMLA_FORTRAN_GEMV_TRMV(P, U, T)                                                         \
  TEAMLA_BLAS_EXPORT void P##gemv_(const char* trans, const int* m, const int* n, const T* alpha, \
                                   const T* a, const int* lda, const T* x, const int* incx,       \
                                   const T* beta, T* y, const int* incy) {                        \
    fortran_gemv(Entry::P##gemv_, U "GEMV", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);  \
  }                                                                                               \
  TEAMLA_BLAS_EXPORT void P##trmv_(const char* uplo, const char* trans, const char* diag,         \
                                   const int* n, const T* a, const int* lda, T* x,                \
                                   const int* incx) {                                             \
    fortran_triangular(Entry::P##trmv_, U "TRMV", false, uplo, trans, diag, n, a, lda, x, incx);  \
  }                                                                                               \
  TEAMLA_BLAS_EXPORT void P##trsv_(const char* uplo, const char* trans, const char* diag,         \
                                   const int* n, const T* a, const int* lda, T* x,                \
                                   const int* incx) {                                             \
    fortran_triangular(Entry::P##trsv_, U "TRSV", true, uplo, trans, diag, n, a, lda, x, incx);   \
  }

// SY: symv/syr/syr2 for a real T, hemv/her/her2 for a complex one; GER: ger, or geru and gerc.
#define TEAMLA_FORTRAN_SYMMETRIC(P, U, T, R, SYMV, SYR, SYR2, USYMV, USYR, USYR2)                \
  TEAMLA_BLAS_EXPORT void P##SYMV##_(const char* uplo, const int* n, const T* alpha, const T* a, \
                                     const int* lda, const T* x, const int* incx, const T* beta, \
                                     T* y, const int* incy) {                                    \
    fortran_symv(Entry::P##SYMV##_, U USYMV, uplo, n, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##SYR##_(const char* uplo, const int* n, const R* alpha, const T* x,  \
                                    const int* incx, T* a, const int* lda) {                     \
    fortran_syr(Entry::P##SYR##_, U USYR, uplo, n, alpha, x, incx, a, lda);                      \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##SYR2##_(const char* uplo, const int* n, const T* alpha, const T* x, \
                                     const int* incx, const T* y, const int* incy, T* a,         \
                                     const int* lda) {                                           \
    fortran_syr2(Entry::P##SYR2##_, U USYR2, uplo, n, alpha, x, incx, y, incy, a, lda);          \
  }

#define TEAMLA_FORTRAN_GER(P, U, T, GER, UGER, CONJ)                                        \
  TEAMLA_BLAS_EXPORT void P##GER##_(const int* m, const int* n, const T* alpha, const T* x, \
                                    const int* incx, const T* y, const int* incy, T* a,     \
                                    const int* lda) {                                       \
    fortran_ger(Entry::P##GER##_, U UGER, CONJ, m, n, alpha, x, incx, y, incy, a, lda);     \
  }

using Zd = std::complex<double>;
using Cf = std::complex<float>;

extern "C" {
TEAMLA_FORTRAN_GEMV_TRMV(d, "D", double)
TEAMLA_FORTRAN_GEMV_TRMV(s, "S", float)
TEAMLA_FORTRAN_GEMV_TRMV(z, "Z", Zd)
TEAMLA_FORTRAN_GEMV_TRMV(c, "C", Cf)
TEAMLA_FORTRAN_SYMMETRIC(d, "D", double, double, symv, syr, syr2, "SYMV", "SYR", "SYR2")
TEAMLA_FORTRAN_SYMMETRIC(s, "S", float, float, symv, syr, syr2, "SYMV", "SYR", "SYR2")
TEAMLA_FORTRAN_SYMMETRIC(z, "Z", Zd, double, hemv, her, her2, "HEMV", "HER", "HER2")
TEAMLA_FORTRAN_SYMMETRIC(c, "C", Cf, float, hemv, her, her2, "HEMV", "HER", "HER2")
TEAMLA_FORTRAN_GER(d, "D", double, ger, "GER", false)
TEAMLA_FORTRAN_GER(s, "S", float, ger, "GER", false)
TEAMLA_FORTRAN_GER(z, "Z", Zd, geru, "GERU", false)
TEAMLA_FORTRAN_GER(c, "C", Cf, geru, "GERU", false)
TEAMLA_FORTRAN_GER(z, "Z", Zd, gerc, "GERC", true)
TEAMLA_FORTRAN_GER(c, "C", Cf, gerc, "GERC", true)
}  // extern "C"
