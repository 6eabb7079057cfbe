// SPDX-License-Identifier: Apache-2.0
// fortran_api.cpp: the Fortran ABI: BLAS [dszc]gemm_, [dszc]trsm_, [zc]herk_, [dszc]syrk_,
// [dszc]symm_, [zc]hemm_, [dszc]trmm_, [dszc]syr2k_, [zc]her2k_ and LAPACK [dszc]potrf_,
// [dszc]potrs_, [dszc]posv_, [dszc]getrf_, [dszc]getrs_, [dszc]gesv_, [dszc]getri_, [dszc]laswp_,
// as gfortran calls them: every argument by reference, column-major arrays, LP64 (32-bit) integers.
// gfortran also passes the lengths of the character arguments after the last argument; these
// routines read one character of each and never the lengths, so C callers that omit them (Eigen's
// blas.h, numpy) are equally served.
#include <complex>

#include "abi_routines.hpp"
#include "call_log.hpp"
#include "error_report.hpp"
#include "exports.hpp"

namespace {

using teamla::blas::Entry;

// finish(): a nonzero INFO reported to xerbla_, or the call noted as served (call_log.hpp).
void finish(int info, Entry entry, const char* name, int m, int n, int k) {
  if (info != 0) {
    teamla::blas::report_fortran_error(name, info);
    return;
  }
  teamla::blas::note_served(entry, m, n, k);
}

// finish_lapack(): finish() for a LAPACK routine, which also returns -position in INFO.
void finish_lapack(int illegal, int* info, Entry entry, const char* name, int n, int nrhs) {
  if (illegal != 0) *info = -illegal;
  finish(illegal, entry, name, 0, n, nrhs);
}

template <class T>
void fortran_gemm(Entry entry, const char* name, const char* transa, const char* transb,
                  const int* m, const int* n, const int* k, const T* alpha, const T* a,
                  const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::GemmArgs args{*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc};
  finish(teamla::blas::gemm(args, *alpha, a, b, *beta, c), entry, name, *m, *n, *k);
}

// fortran_triangular(): ?trsm_ and ?trmm_, whose arguments are the same.
template <class T, class Routine>
void fortran_triangular(Routine routine, Entry entry, const char* name, const char* side,
                        const char* uplo, const char* transa, const char* diag, const int* m,
                        const int* n, const T* alpha, const T* a, const int* lda, T* b,
                        const int* ldb) {
  const teamla::blas::TrsmArgs args{*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb};
  finish(routine(args, *alpha, a, b), entry, name, *m, *n, 0);
}

template <class T>
void fortran_syrk(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                  const int* k, const T* alpha, const T* a, const int* lda, const T* beta, T* c,
                  const int* ldc) {
  const teamla::blas::SyrkArgs args{*uplo, *trans, *n, *k, *lda, *ldc};
  finish(teamla::blas::syrk(args, *alpha, a, *beta, c), entry, name, 0, *n, *k);
}

template <class T>
void fortran_herk(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                  const int* k, const typename T::value_type* alpha, const T* a, const int* lda,
                  const typename T::value_type* beta, T* c, const int* ldc) {
  const teamla::blas::SyrkArgs args{*uplo, *trans, *n, *k, *lda, *ldc};
  finish(teamla::blas::herk(args, *alpha, a, *beta, c), entry, name, 0, *n, *k);
}

// fortran_symm(): ?symm_ and [zc]hemm_, whose arguments are the same.
template <class T, class Routine>
void fortran_symm(Routine routine, Entry entry, const char* name, const char* side,
                  const char* uplo, const int* m, const int* n, const T* alpha, const T* a,
                  const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::SymmArgs args{*side, *uplo, *m, *n, *lda, *ldb, *ldc};
  finish(routine(args, *alpha, a, b, *beta, c), entry, name, *m, *n, 0);
}

template <class T>
void fortran_syr2k(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                   const int* k, const T* alpha, const T* a, const int* lda, const T* b,
                   const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::Syr2kArgs args{*uplo, *trans, *n, *k, *lda, *ldb, *ldc};
  finish(teamla::blas::syr2k(args, *alpha, a, b, *beta, c), entry, name, 0, *n, *k);
}

template <class T>
void fortran_her2k(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                   const int* k, const T* alpha, const T* a, const int* lda, const T* b,
                   const int* ldb, const typename T::value_type* beta, T* c, const int* ldc) {
  const teamla::blas::Syr2kArgs args{*uplo, *trans, *n, *k, *lda, *ldb, *ldc};
  finish(teamla::blas::her2k(args, *alpha, a, b, *beta, c), entry, name, 0, *n, *k);
}

// potrf and posv set INFO themselves on legal arguments (their factorization's).
template <class T>
void fortran_potrf(Entry entry, const char* name, const char* uplo, const int* n, T* a,
                   const int* lda, int* info) {
  const teamla::blas::PotrfArgs args{*uplo, *n, *lda};
  finish_lapack(teamla::blas::potrf(args, a, info), info, entry, name, *n, 0);
}

template <class T>
void fortran_potrs(Entry entry, const char* name, const char* uplo, const int* n, const int* nrhs,
                   const T* a, const int* lda, T* b, const int* ldb, int* info) {
  const teamla::blas::PotrsArgs args{*uplo, *n, *nrhs, *lda, *ldb};
  const int illegal = teamla::blas::potrs(args, a, b);
  if (illegal == 0) *info = 0;
  finish_lapack(illegal, info, entry, name, *n, *nrhs);
}

template <class T>
void fortran_posv(Entry entry, const char* name, const char* uplo, const int* n, const int* nrhs,
                  T* a, const int* lda, T* b, const int* ldb, int* info) {
  const teamla::blas::PosvArgs args{*uplo, *n, *nrhs, *lda, *ldb};
  finish_lapack(teamla::blas::posv(args, a, b, info), info, entry, name, *n, *nrhs);
}

// The LU family: getrf, gesv and getri set INFO themselves on legal arguments.
template <class T>
void fortran_getrf(Entry entry, const char* name, const int* m, const int* n, T* a, const int* lda,
                   int* ipiv, int* info) {
  const teamla::blas::GetrfArgs args{*m, *n, *lda};
  finish_lapack(teamla::blas::getrf(args, a, ipiv, info), info, entry, name, *n, 0);
}

template <class T>
void fortran_getrs(Entry entry, const char* name, const char* trans, const int* n, const int* nrhs,
                   const T* a, const int* lda, const int* ipiv, T* b, const int* ldb, int* info) {
  const teamla::blas::GetrsArgs args{*trans, *n, *nrhs, *lda, *ldb};
  const int illegal = teamla::blas::getrs(args, a, ipiv, b);
  if (illegal == 0) *info = 0;
  finish_lapack(illegal, info, entry, name, *n, *nrhs);
}

template <class T>
void fortran_gesv(Entry entry, const char* name, const int* n, const int* nrhs, T* a,
                  const int* lda, int* ipiv, T* b, const int* ldb, int* info) {
  const teamla::blas::GesvArgs args{*n, *nrhs, *lda, *ldb};
  finish_lapack(teamla::blas::gesv(args, a, ipiv, b, info), info, entry, name, *n, *nrhs);
}

template <class T>
void fortran_getri(Entry entry, const char* name, const int* n, T* a, const int* lda,
                   const int* ipiv, T* work, const int* lwork, int* info) {
  const teamla::blas::GetriArgs args{*n, *lda, *lwork};
  finish_lapack(teamla::blas::getri(args, a, ipiv, work, info), info, entry, name, *n, 0);
}

// laswp has no INFO: an illegal argument is reported to xerbla_ alone.
template <class T>
void fortran_laswp(Entry entry, const char* name, const int* n, T* a, const int* lda, const int* k1,
                   const int* k2, const int* ipiv, const int* incx) {
  const teamla::blas::LaswpArgs args{*n, *lda, *k1, *k2, *incx};
  finish(teamla::blas::laswp(args, a, ipiv), entry, name, 0, *n, 0);
}

}  // namespace

extern "C" {

TEAMLA_BLAS_EXPORT void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                               const int* k, const double* alpha, const double* a, const int* lda,
                               const double* b, const int* ldb, const double* beta, double* c,
                               const int* ldc) {
  fortran_gemm(Entry::dgemm_, "DGEMM", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
               ldc);
}

TEAMLA_BLAS_EXPORT void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                               const int* k, const float* alpha, const float* a, const int* lda,
                               const float* b, const int* ldb, const float* beta, float* c,
                               const int* ldc) {
  fortran_gemm(Entry::sgemm_, "SGEMM", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
               ldc);
}

// The complex products: COMPLEX*16 and COMPLEX arguments are pairs (Re, Im) by reference, as
// std::complex is laid out.
TEAMLA_BLAS_EXPORT void zgemm_(const char* transa, const char* transb, const int* m, const int* n,
                               const int* k, const std::complex<double>* alpha,
                               const std::complex<double>* a, const int* lda,
                               const std::complex<double>* b, const int* ldb,
                               const std::complex<double>* beta, std::complex<double>* c,
                               const int* ldc) {
  fortran_gemm(Entry::zgemm_, "ZGEMM", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
               ldc);
}

TEAMLA_BLAS_EXPORT void cgemm_(const char* transa, const char* transb, const int* m, const int* n,
                               const int* k, const std::complex<float>* alpha,
                               const std::complex<float>* a, const int* lda,
                               const std::complex<float>* b, const int* ldb,
                               const std::complex<float>* beta, std::complex<float>* c,
                               const int* ldc) {
  fortran_gemm(Entry::cgemm_, "CGEMM", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
               ldc);
}

TEAMLA_BLAS_EXPORT void dtrsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const double* alpha,
                               const double* a, const int* lda, double* b, const int* ldb) {
  fortran_triangular(teamla::blas::trsm<double>, Entry::dtrsm_, "DTRSM", side, uplo, transa, diag,
                     m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void strsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const float* alpha,
                               const float* a, const int* lda, float* b, const int* ldb) {
  fortran_triangular(teamla::blas::trsm<float>, Entry::strsm_, "STRSM", side, uplo, transa, diag, m,
                     n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void ztrsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n,
                               const std::complex<double>* alpha, const std::complex<double>* a,
                               const int* lda, std::complex<double>* b, const int* ldb) {
  fortran_triangular(teamla::blas::trsm<std::complex<double>>, Entry::ztrsm_, "ZTRSM", side, uplo,
                     transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void ctrsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n,
                               const std::complex<float>* alpha, const std::complex<float>* a,
                               const int* lda, std::complex<float>* b, const int* ldb) {
  fortran_triangular(teamla::blas::trsm<std::complex<float>>, Entry::ctrsm_, "CTRSM", side, uplo,
                     transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void zherk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const double* alpha, const std::complex<double>* a, const int* lda,
                               const double* beta, std::complex<double>* c, const int* ldc) {
  fortran_herk(Entry::zherk_, "ZHERK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cherk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const float* alpha, const std::complex<float>* a, const int* lda,
                               const float* beta, std::complex<float>* c, const int* ldc) {
  fortran_herk(Entry::cherk_, "CHERK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const double* alpha, const double* a, const int* lda,
                               const double* beta, double* c, const int* ldc) {
  fortran_syrk(Entry::dsyrk_, "DSYRK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const float* alpha, const float* a, const int* lda,
                               const float* beta, float* c, const int* ldc) {
  fortran_syrk(Entry::ssyrk_, "SSYRK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void dpotrf_(const char* uplo, const int* n, double* a, const int* lda,
                                int* info) {
  fortran_potrf(Entry::dpotrf_, "DPOTRF", uplo, n, a, lda, info);
}

TEAMLA_BLAS_EXPORT void spotrf_(const char* uplo, const int* n, float* a, const int* lda,
                                int* info) {
  fortran_potrf(Entry::spotrf_, "SPOTRF", uplo, n, a, lda, info);
}

TEAMLA_BLAS_EXPORT void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a,
                                const int* lda, double* b, const int* ldb, int* info) {
  fortran_potrs(Entry::dpotrs_, "DPOTRS", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a,
                                const int* lda, float* b, const int* ldb, int* info) {
  fortran_potrs(Entry::spotrs_, "SPOTRS", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void zpotrf_(const char* uplo, const int* n, std::complex<double>* a,
                                const int* lda, int* info) {
  fortran_potrf(Entry::zpotrf_, "ZPOTRF", uplo, n, a, lda, info);
}

TEAMLA_BLAS_EXPORT void cpotrf_(const char* uplo, const int* n, std::complex<float>* a,
                                const int* lda, int* info) {
  fortran_potrf(Entry::cpotrf_, "CPOTRF", uplo, n, a, lda, info);
}

TEAMLA_BLAS_EXPORT void zpotrs_(const char* uplo, const int* n, const int* nrhs,
                                const std::complex<double>* a, const int* lda,
                                std::complex<double>* b, const int* ldb, int* info) {
  fortran_potrs(Entry::zpotrs_, "ZPOTRS", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void cpotrs_(const char* uplo, const int* n, const int* nrhs,
                                const std::complex<float>* a, const int* lda,
                                std::complex<float>* b, const int* ldb, int* info) {
  fortran_potrs(Entry::cpotrs_, "CPOTRS", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void zposv_(const char* uplo, const int* n, const int* nrhs,
                               std::complex<double>* a, const int* lda, std::complex<double>* b,
                               const int* ldb, int* info) {
  fortran_posv(Entry::zposv_, "ZPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void cposv_(const char* uplo, const int* n, const int* nrhs,
                               std::complex<float>* a, const int* lda, std::complex<float>* b,
                               const int* ldb, int* info) {
  fortran_posv(Entry::cposv_, "CPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void dsymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const double* alpha, const double* a, const int* lda,
                               const double* b, const int* ldb, const double* beta, double* c,
                               const int* ldc) {
  fortran_symm(teamla::blas::symm<double>, Entry::dsymm_, "DSYMM", side, uplo, m, n, alpha, a, lda,
               b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void ssymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const float* alpha, const float* a, const int* lda, const float* b,
                               const int* ldb, const float* beta, float* c, const int* ldc) {
  fortran_symm(teamla::blas::symm<float>, Entry::ssymm_, "SSYMM", side, uplo, m, n, alpha, a, lda,
               b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void dtrmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const double* alpha,
                               const double* a, const int* lda, double* b, const int* ldb) {
  fortran_triangular(teamla::blas::trmm<double>, Entry::dtrmm_, "DTRMM", side, uplo, transa, diag,
                     m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void strmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const float* alpha,
                               const float* a, const int* lda, float* b, const int* ldb) {
  fortran_triangular(teamla::blas::trmm<float>, Entry::strmm_, "STRMM", side, uplo, transa, diag, m,
                     n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void ztrmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n,
                               const std::complex<double>* alpha, const std::complex<double>* a,
                               const int* lda, std::complex<double>* b, const int* ldb) {
  fortran_triangular(teamla::blas::trmm<std::complex<double>>, Entry::ztrmm_, "ZTRMM", side, uplo,
                     transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void ctrmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n,
                               const std::complex<float>* alpha, const std::complex<float>* a,
                               const int* lda, std::complex<float>* b, const int* ldb) {
  fortran_triangular(teamla::blas::trmm<std::complex<float>>, Entry::ctrmm_, "CTRMM", side, uplo,
                     transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const double* alpha, const double* a, const int* lda,
                                const double* b, const int* ldb, const double* beta, double* c,
                                const int* ldc) {
  fortran_syr2k(Entry::dsyr2k_, "DSYR2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const float* alpha, const float* a, const int* lda, const float* b,
                                const int* ldb, const float* beta, float* c, const int* ldc) {
  fortran_syr2k(Entry::ssyr2k_, "SSYR2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void zsymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const std::complex<double>* alpha, const std::complex<double>* a,
                               const int* lda, const std::complex<double>* b, const int* ldb,
                               const std::complex<double>* beta, std::complex<double>* c,
                               const int* ldc) {
  fortran_symm(teamla::blas::symm<std::complex<double>>, Entry::zsymm_, "ZSYMM", side, uplo, m, n,
               alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void zhemm_(const char* side, const char* uplo, const int* m, const int* n,
                               const std::complex<double>* alpha, const std::complex<double>* a,
                               const int* lda, const std::complex<double>* b, const int* ldb,
                               const std::complex<double>* beta, std::complex<double>* c,
                               const int* ldc) {
  fortran_symm(teamla::blas::hemm<std::complex<double>>, Entry::zhemm_, "ZHEMM", side, uplo, m, n,
               alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void zsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const std::complex<double>* alpha, const std::complex<double>* a,
                               const int* lda, const std::complex<double>* beta,
                               std::complex<double>* c, const int* ldc) {
  fortran_syrk(Entry::zsyrk_, "ZSYRK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void zsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const std::complex<double>* alpha, const std::complex<double>* a,
                                const int* lda, const std::complex<double>* b, const int* ldb,
                                const std::complex<double>* beta, std::complex<double>* c,
                                const int* ldc) {
  fortran_syr2k(Entry::zsyr2k_, "ZSYR2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void zher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const std::complex<double>* alpha, const std::complex<double>* a,
                                const int* lda, const std::complex<double>* b, const int* ldb,
                                const double* beta, std::complex<double>* c, const int* ldc) {
  fortran_her2k(Entry::zher2k_, "ZHER2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void csymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const std::complex<float>* alpha, const std::complex<float>* a,
                               const int* lda, const std::complex<float>* b, const int* ldb,
                               const std::complex<float>* beta, std::complex<float>* c,
                               const int* ldc) {
  fortran_symm(teamla::blas::symm<std::complex<float>>, Entry::csymm_, "CSYMM", side, uplo, m, n,
               alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void chemm_(const char* side, const char* uplo, const int* m, const int* n,
                               const std::complex<float>* alpha, const std::complex<float>* a,
                               const int* lda, const std::complex<float>* b, const int* ldb,
                               const std::complex<float>* beta, std::complex<float>* c,
                               const int* ldc) {
  fortran_symm(teamla::blas::hemm<std::complex<float>>, Entry::chemm_, "CHEMM", side, uplo, m, n,
               alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void csyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                               const std::complex<float>* alpha, const std::complex<float>* a,
                               const int* lda, const std::complex<float>* beta,
                               std::complex<float>* c, const int* ldc) {
  fortran_syrk(Entry::csyrk_, "CSYRK", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void csyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const std::complex<float>* alpha, const std::complex<float>* a,
                                const int* lda, const std::complex<float>* b, const int* ldb,
                                const std::complex<float>* beta, std::complex<float>* c,
                                const int* ldc) {
  fortran_syr2k(Entry::csyr2k_, "CSYR2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                                const std::complex<float>* alpha, const std::complex<float>* a,
                                const int* lda, const std::complex<float>* b, const int* ldb,
                                const float* beta, std::complex<float>* c, const int* ldc) {
  fortran_her2k(Entry::cher2k_, "CHER2K", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void dposv_(const char* uplo, const int* n, const int* nrhs, double* a,
                               const int* lda, double* b, const int* ldb, int* info) {
  fortran_posv(Entry::dposv_, "DPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void sposv_(const char* uplo, const int* n, const int* nrhs, float* a,
                               const int* lda, float* b, const int* ldb, int* info) {
  fortran_posv(Entry::sposv_, "SPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv,
                                int* info) {
  fortran_getrf(Entry::dgetrf_, "DGETRF", m, n, a, lda, ipiv, info);
}

TEAMLA_BLAS_EXPORT void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv,
                                int* info) {
  fortran_getrf(Entry::sgetrf_, "SGETRF", m, n, a, lda, ipiv, info);
}

TEAMLA_BLAS_EXPORT void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a,
                                const int* lda, const int* ipiv, double* b, const int* ldb,
                                int* info) {
  fortran_getrs(Entry::dgetrs_, "DGETRS", trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a,
                                const int* lda, const int* ipiv, float* b, const int* ldb,
                                int* info) {
  fortran_getrs(Entry::sgetrs_, "SGETRS", trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv,
                               double* b, const int* ldb, int* info) {
  fortran_gesv(Entry::dgesv_, "DGESV", n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void sgesv_(const int* n, const int* nrhs, float* a, const int* lda, int* ipiv,
                               float* b, const int* ldb, int* info) {
  fortran_gesv(Entry::sgesv_, "SGESV", n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void dgetri_(const int* n, double* a, const int* lda, const int* ipiv,
                                double* work, const int* lwork, int* info) {
  fortran_getri(Entry::dgetri_, "DGETRI", n, a, lda, ipiv, work, lwork, info);
}

TEAMLA_BLAS_EXPORT void sgetri_(const int* n, float* a, const int* lda, const int* ipiv,
                                float* work, const int* lwork, int* info) {
  fortran_getri(Entry::sgetri_, "SGETRI", n, a, lda, ipiv, work, lwork, info);
}

TEAMLA_BLAS_EXPORT void dlaswp_(const int* n, double* a, const int* lda, const int* k1,
                                const int* k2, const int* ipiv, const int* incx) {
  fortran_laswp(Entry::dlaswp_, "DLASWP", n, a, lda, k1, k2, ipiv, incx);
}

TEAMLA_BLAS_EXPORT void slaswp_(const int* n, float* a, const int* lda, const int* k1,
                                const int* k2, const int* ipiv, const int* incx) {
  fortran_laswp(Entry::slaswp_, "SLASWP", n, a, lda, k1, k2, ipiv, incx);
}

// The complex LU family: TRANS 'C' of ?getrs_ is the conjugate transpose.
TEAMLA_BLAS_EXPORT void zgetrf_(const int* m, const int* n, std::complex<double>* a, const int* lda,
                                int* ipiv, int* info) {
  fortran_getrf(Entry::zgetrf_, "ZGETRF", m, n, a, lda, ipiv, info);
}

TEAMLA_BLAS_EXPORT void cgetrf_(const int* m, const int* n, std::complex<float>* a, const int* lda,
                                int* ipiv, int* info) {
  fortran_getrf(Entry::cgetrf_, "CGETRF", m, n, a, lda, ipiv, info);
}

TEAMLA_BLAS_EXPORT void zgetrs_(const char* trans, const int* n, const int* nrhs,
                                const std::complex<double>* a, const int* lda, const int* ipiv,
                                std::complex<double>* b, const int* ldb, int* info) {
  fortran_getrs(Entry::zgetrs_, "ZGETRS", trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void cgetrs_(const char* trans, const int* n, const int* nrhs,
                                const std::complex<float>* a, const int* lda, const int* ipiv,
                                std::complex<float>* b, const int* ldb, int* info) {
  fortran_getrs(Entry::cgetrs_, "CGETRS", trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void zgesv_(const int* n, const int* nrhs, std::complex<double>* a,
                               const int* lda, int* ipiv, std::complex<double>* b, const int* ldb,
                               int* info) {
  fortran_gesv(Entry::zgesv_, "ZGESV", n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void cgesv_(const int* n, const int* nrhs, std::complex<float>* a,
                               const int* lda, int* ipiv, std::complex<float>* b, const int* ldb,
                               int* info) {
  fortran_gesv(Entry::cgesv_, "CGESV", n, nrhs, a, lda, ipiv, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void zgetri_(const int* n, std::complex<double>* a, const int* lda,
                                const int* ipiv, std::complex<double>* work, const int* lwork,
                                int* info) {
  fortran_getri(Entry::zgetri_, "ZGETRI", n, a, lda, ipiv, work, lwork, info);
}

TEAMLA_BLAS_EXPORT void cgetri_(const int* n, std::complex<float>* a, const int* lda,
                                const int* ipiv, std::complex<float>* work, const int* lwork,
                                int* info) {
  fortran_getri(Entry::cgetri_, "CGETRI", n, a, lda, ipiv, work, lwork, info);
}

TEAMLA_BLAS_EXPORT void zlaswp_(const int* n, std::complex<double>* a, const int* lda,
                                const int* k1, const int* k2, const int* ipiv, const int* incx) {
  fortran_laswp(Entry::zlaswp_, "ZLASWP", n, a, lda, k1, k2, ipiv, incx);
}

TEAMLA_BLAS_EXPORT void claswp_(const int* n, std::complex<float>* a, const int* lda, const int* k1,
                                const int* k2, const int* ipiv, const int* incx) {
  fortran_laswp(Entry::claswp_, "CLASWP", n, a, lda, k1, k2, ipiv, incx);
}

}  // extern "C"
