// SPDX-License-Identifier: Apache-2.0
// fortran_api.cpp: the Fortran ABI: BLAS [ds]gemm_, [ds]trsm_, [ds]syrk_, [ds]symm_, [ds]trmm_,
// [ds]syr2k_ and LAPACK [ds]potrf_, [ds]potrs_, [ds]posv_, as gfortran calls them: every argument
// by reference, column-major arrays, LP64 (32-bit) integers. gfortran also passes the lengths of
// the character arguments after the last argument; these routines read one character of each and
// never the lengths, so C callers that omit them (Eigen's blas.h, numpy) are equally served.
#include "call_log.hpp"
#include "error_report.hpp"
#include "exports.hpp"
#include "routines.hpp"

namespace {

using teamla::blas::Entry;
using teamla::blas::note_served;
using teamla::blas::report_fortran_error;

template <class T>
void fortran_gemm(Entry entry, const char* name, const char* transa, const char* transb,
                  const int* m, const int* n, const int* k, const T* alpha, const T* a,
                  const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::GemmArgs args{*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc};
  if (const int info = teamla::blas::gemm(args, *alpha, a, b, *beta, c)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, *m, *n, *k);
}

template <class T>
void fortran_trsm(Entry entry, const char* name, const char* side, const char* uplo,
                  const char* transa, const char* diag, const int* m, const int* n, const T* alpha,
                  const T* a, const int* lda, T* b, const int* ldb) {
  const teamla::blas::TrsmArgs args{*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb};
  if (const int info = teamla::blas::trsm(args, *alpha, a, b)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, *m, *n, 0);
}

template <class T>
void fortran_syrk(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                  const int* k, const T* alpha, const T* a, const int* lda, const T* beta, T* c,
                  const int* ldc) {
  const teamla::blas::SyrkArgs args{*uplo, *trans, *n, *k, *lda, *ldc};
  if (const int info = teamla::blas::syrk(args, *alpha, a, *beta, c)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, 0, *n, *k);
}

template <class T>
void fortran_symm(Entry entry, const char* name, const char* side, const char* uplo, const int* m,
                  const int* n, const T* alpha, const T* a, const int* lda, const T* b,
                  const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::SymmArgs args{*side, *uplo, *m, *n, *lda, *ldb, *ldc};
  if (const int info = teamla::blas::symm(args, *alpha, a, b, *beta, c)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, *m, *n, 0);
}

template <class T>
void fortran_trmm(Entry entry, const char* name, const char* side, const char* uplo,
                  const char* transa, const char* diag, const int* m, const int* n, const T* alpha,
                  const T* a, const int* lda, T* b, const int* ldb) {
  const teamla::blas::TrmmArgs args{*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb};
  if (const int info = teamla::blas::trmm(args, *alpha, a, b)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, *m, *n, 0);
}

template <class T>
void fortran_syr2k(Entry entry, const char* name, const char* uplo, const char* trans, const int* n,
                   const int* k, const T* alpha, const T* a, const int* lda, const T* b,
                   const int* ldb, const T* beta, T* c, const int* ldc) {
  const teamla::blas::Syr2kArgs args{*uplo, *trans, *n, *k, *lda, *ldb, *ldc};
  if (const int info = teamla::blas::syr2k(args, *alpha, a, b, *beta, c)) {
    report_fortran_error(name, info);
    return;
  }
  note_served(entry, 0, *n, *k);
}

// LAPACK routines also return the negated position in INFO.
template <class T>
void fortran_potrf(Entry entry, const char* name, const char* uplo, const int* n, T* a,
                   const int* lda, int* info) {
  const teamla::blas::PotrfArgs args{*uplo, *n, *lda};
  if (const int illegal = teamla::blas::potrf(args, a, info)) {
    *info = -illegal;
    report_fortran_error(name, illegal);
    return;
  }
  note_served(entry, 0, *n, 0);
}

template <class T>
void fortran_potrs(Entry entry, const char* name, const char* uplo, const int* n, const int* nrhs,
                   const T* a, const int* lda, T* b, const int* ldb, int* info) {
  const teamla::blas::PotrsArgs args{*uplo, *n, *nrhs, *lda, *ldb};
  if (const int illegal = teamla::blas::potrs(args, a, b)) {
    *info = -illegal;
    report_fortran_error(name, illegal);
    return;
  }
  *info = 0;
  note_served(entry, 0, *n, *nrhs);
}

template <class T>
void fortran_posv(Entry entry, const char* name, const char* uplo, const int* n, const int* nrhs,
                  T* a, const int* lda, T* b, const int* ldb, int* info) {
  const teamla::blas::PosvArgs args{*uplo, *n, *nrhs, *lda, *ldb};
  if (const int illegal = teamla::blas::posv(args, a, b, info)) {
    *info = -illegal;
    report_fortran_error(name, illegal);
    return;
  }
  note_served(entry, 0, *n, *nrhs);
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

TEAMLA_BLAS_EXPORT void dtrsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const double* alpha,
                               const double* a, const int* lda, double* b, const int* ldb) {
  fortran_trsm(Entry::dtrsm_, "DTRSM", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void strsm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const float* alpha,
                               const float* a, const int* lda, float* b, const int* ldb) {
  fortran_trsm(Entry::strsm_, "STRSM", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
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

TEAMLA_BLAS_EXPORT void dsymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const double* alpha, const double* a, const int* lda,
                               const double* b, const int* ldb, const double* beta, double* c,
                               const int* ldc) {
  fortran_symm(Entry::dsymm_, "DSYMM", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void ssymm_(const char* side, const char* uplo, const int* m, const int* n,
                               const float* alpha, const float* a, const int* lda, const float* b,
                               const int* ldb, const float* beta, float* c, const int* ldc) {
  fortran_symm(Entry::ssymm_, "SSYMM", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void dtrmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const double* alpha,
                               const double* a, const int* lda, double* b, const int* ldb) {
  fortran_trmm(Entry::dtrmm_, "DTRMM", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void strmm_(const char* side, const char* uplo, const char* transa,
                               const char* diag, const int* m, const int* n, const float* alpha,
                               const float* a, const int* lda, float* b, const int* ldb) {
  fortran_trmm(Entry::strmm_, "STRMM", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
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

TEAMLA_BLAS_EXPORT void dposv_(const char* uplo, const int* n, const int* nrhs, double* a,
                               const int* lda, double* b, const int* ldb, int* info) {
  fortran_posv(Entry::dposv_, "DPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

TEAMLA_BLAS_EXPORT void sposv_(const char* uplo, const int* n, const int* nrhs, float* a,
                               const int* lda, float* b, const int* ldb, int* info) {
  fortran_posv(Entry::sposv_, "SPOSV", uplo, n, nrhs, a, lda, b, ldb, info);
}

}  // extern "C"
