// SPDX-License-Identifier: Apache-2.0
// blas_abi.hpp: the prototypes of what libteamla_blas.so exports, as a C or Fortran caller
// sees them (Fortran hidden string lengths omitted, as C callers do), for the tests.
#pragma once

#include <complex>

extern "C" {
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc);
void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
            double* c, const int* ldc);
void ssymm_(const char* side, const char* uplo, const int* m, const int* n, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta,
            float* c, const int* ldc);
void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb);
void strmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const float* alpha, const float* a, const int* lda, float* b,
            const int* ldb);
void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
             const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
             double* c, const int* ldc);
void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha,
             const float* a, const int* lda, const float* b, const int* ldb, const float* beta,
             float* c, const int* ldc);
void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
            const int* ldb, int* info);
void sposv_(const char* uplo, const int* n, const int* nrhs, float* a, const int* lda, float* b,
            const int* ldb, int* info);
void zgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);  // complex*16: pairs of doubles
void zposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
            const int* ldb, int* info);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b,
            const int* ldb, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work,
             const int* lwork, int* info);
void dlaswp_(const int* n, double* a, const int* lda, const int* k1, const int* k2, const int* ipiv,
             const int* incx);
// The complex LU family and trmm, with COMPLEX*16 / COMPLEX arrays as std::complex.
void zgetrf_(const int* m, const int* n, std::complex<double>* a, const int* lda, int* ipiv,
             int* info);
void cgetrf_(const int* m, const int* n, std::complex<float>* a, const int* lda, int* ipiv,
             int* info);
void zgetrs_(const char* trans, const int* n, const int* nrhs, const std::complex<double>* a,
             const int* lda, const int* ipiv, std::complex<double>* b, const int* ldb, int* info);
void zgesv_(const int* n, const int* nrhs, std::complex<double>* a, const int* lda, int* ipiv,
            std::complex<double>* b, const int* ldb, int* info);
void zgetri_(const int* n, std::complex<double>* a, const int* lda, const int* ipiv,
             std::complex<double>* work, const int* lwork, int* info);
void zlaswp_(const int* n, std::complex<double>* a, const int* lda, const int* k1, const int* k2,
             const int* ipiv, const int* incx);
void ztrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const std::complex<double>* alpha, const std::complex<double>* a,
            const int* lda, std::complex<double>* b, const int* ldb);
void ctrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const std::complex<float>* alpha, const std::complex<float>* a,
            const int* lda, std::complex<float>* b, const int* ldb);
void cblas_ztrmm(int layout, int side, int uplo, int trans_a, int diag, int m, int n,
                 const void* alpha, const void* a, int lda, void* b, int ldb);
void zsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
            const std::complex<double>* alpha, const std::complex<double>* a, const int* lda,
            const std::complex<double>* beta, std::complex<double>* c, const int* ldc);
void zher2k_(const char* uplo, const char* trans, const int* n, const int* k,
             const std::complex<double>* alpha, const std::complex<double>* a, const int* lda,
             const std::complex<double>* b, const int* ldb, const double* beta,
             std::complex<double>* c, const int* ldc);
void zhemm_(const char* side, const char* uplo, const int* m, const int* n,
            const std::complex<double>* alpha, const std::complex<double>* a, const int* lda,
            const std::complex<double>* b, const int* ldb, const std::complex<double>* beta,
            std::complex<double>* c, const int* ldc);
void cblas_zher2k(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* a,
                  int lda, const void* b, int ldb, double beta, void* c, int ldc);
void cblas_zsyr2k(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* a,
                  int lda, const void* b, int ldb, const void* beta, void* c, int ldc);
void cblas_dgemm(int layout, int trans_a, int trans_b, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c,
                 int ldc);
void cblas_sgemm(int layout, int trans_a, int trans_b, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void cblas_dgemm_batch(int layout, const int* transa_array, const int* transb_array,
                       const int* m_array, const int* n_array, const int* k_array,
                       const double* alpha_array, const double** a_array, const int* lda_array,
                       const double** b_array, const int* ldb_array, const double* beta_array,
                       double** c_array, const int* ldc_array, int group_count,
                       const int* group_size);
void cblas_sgemm_batch(int layout, const int* transa_array, const int* transb_array,
                       const int* m_array, const int* n_array, const int* k_array,
                       const float* alpha_array, const float** a_array, const int* lda_array,
                       const float** b_array, const int* ldb_array, const float* beta_array,
                       float** c_array, const int* ldc_array, int group_count,
                       const int* group_size);
void cblas_dgemm_batch_strided(int layout, int transa, int transb, int m, int n, int k,
                               double alpha, const double* a, int lda, int stridea, const double* b,
                               int ldb, int strideb, double beta, double* c, int ldc, int stridec,
                               int batch_size);
void cblas_sgemm_batch_strided(int layout, int transa, int transb, int m, int n, int k, float alpha,
                               const float* a, int lda, int stridea, const float* b, int ldb,
                               int strideb, float beta, float* c, int ldc, int stridec,
                               int batch_size);
void cblas_dtrsm(int layout, int side, int uplo, int trans_a, int diag, int m, int n, double alpha,
                 const double* a, int lda, double* b, int ldb);
void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha, const double* a,
                 int lda, double beta, double* c, int ldc);
void cblas_dsymm(int layout, int side, int uplo, int m, int n, double alpha, const double* a,
                 int lda, const double* b, int ldb, double beta, double* c, int ldc);
void cblas_dtrmm(int layout, int side, int uplo, int trans_a, int diag, int m, int n, double alpha,
                 const double* a, int lda, double* b, int ldb);
void cblas_dsyr2k(int layout, int uplo, int trans, int n, int k, double alpha, const double* a,
                  int lda, const double* b, int ldb, double beta, double* c, int ldc);
void openblas_set_num_threads(int count);
int openblas_get_num_threads(void);
int openblas_set_num_threads_local(int count);
void teamla_set_num_threads(int count);
int teamla_get_num_threads(void);
}

namespace teamla::blas_test {
// The reference cblas.h enum values.
constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kUpper = 121, kLower = 122;
constexpr int kNonUnit = 131, kUnit = 132;
constexpr int kLeft = 141, kRight = 142;
}  // namespace teamla::blas_test
