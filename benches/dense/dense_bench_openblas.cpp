// SPDX-License-Identifier: Apache-2.0
// dense_bench_openblas.cpp: the OpenBLAS arm of the dense benchmarks (CBLAS for gemm, trsm and
// syrk, its LAPACK for potrf, potrs, getrf and gesv; threads by openblas_set_num_threads), on
// Google Benchmark. Run it with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, so that cpuid picks
// its kernels. Preloading libteamla_blas.so over it makes it the arm of teamla's ABI
// (scripts/bench-lu): the same calls, served by teamla.
#include <cblas.h>

#include "dense_bench.hpp"

extern "C" {
char* openblas_get_corename();
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
void zpotrf_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* info,
             std::size_t);
void cpotrf_(const char* uplo, const int* n, std::complex<float>* a, const int* lda, int* info,
             std::size_t);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info, std::size_t);
void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda,
             float* b, const int* ldb, int* info, std::size_t);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b,
            const int* ldb, int* info);
void sgesv_(const int* n, const int* nrhs, float* a, const int* lda, int* ipiv, float* b,
            const int* ldb, int* info);
}

namespace {

class OpenblasArm {
 public:
  [[nodiscard]] std::string describe() const {
    return std::string("core=") + openblas_get_corename();
  }
  void set_threads(int threads) { openblas_set_num_threads(threads); }

  static constexpr bool kComplex = true;
  template <class T>
  void gemm(long m, long n, long k, const T* a, const T* b, T* c) {
    if constexpr (teamla::bench::kComplex<T>) {
      const T one(1), zero(0);
      if constexpr (sizeof(T) == 16) {
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, a, m, b, k, &zero, c,
                    m);
      } else {
        cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, a, m, b, k, &zero, c,
                    m);
      }
    } else if constexpr (sizeof(T) == 8) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, m, b, k, 0.0, c, m);
    } else {
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0F, a, m, b, k, 0.0F, c, m);
    }
  }
  template <class T>
  void trsm(long n, long nrhs, const T* a, T* b) {
    if constexpr (sizeof(T) == 8) {
      cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, a,
                  n, b, n);
    } else {
      cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0F,
                  a, n, b, n);
    }
  }
  template <class T>
  void syrk(long n, long k, const T* a, T* c) {
    if constexpr (sizeof(T) == 8) {
      cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, 1.0, a, n, 0.0, c, n);
    } else {
      cblas_ssyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, 1.0F, a, n, 0.0F, c, n);
    }
  }
  template <class T>
  int potrf(long n, T* a) {
    const int order = static_cast<int>(n);
    int info = 0;
    if constexpr (std::is_same_v<T, std::complex<double>>) {
      zpotrf_("L", &order, a, &order, &info, 1);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      cpotrf_("L", &order, a, &order, &info, 1);
    } else if constexpr (sizeof(T) == 8) {
      dpotrf_("L", &order, a, &order, &info, 1);
    } else {
      spotrf_("L", &order, a, &order, &info, 1);
    }
    return info;
  }
  template <class T>
  requires(!teamla::bench::kComplex<T>) int potrs(long n, long nrhs, const T* a, T* b) {
    const int order = static_cast<int>(n);
    const int columns = static_cast<int>(nrhs);
    int info = 0;
    if constexpr (sizeof(T) == 8) {
      dpotrs_("L", &order, &columns, a, &order, b, &order, &info, 1);
    } else {
      spotrs_("L", &order, &columns, a, &order, b, &order, &info, 1);
    }
    return info;
  }
  template <class T>
  int getrf(long n, T* a, int* ipiv) {
    const int order = static_cast<int>(n);
    int info = 0;
    if constexpr (sizeof(T) == 8) {
      dgetrf_(&order, &order, a, &order, ipiv, &info);
    } else {
      sgetrf_(&order, &order, a, &order, ipiv, &info);
    }
    return info;
  }
  template <class T>
  int gesv(long n, long nrhs, T* a, int* ipiv, T* b) {
    const int order = static_cast<int>(n);
    const int columns = static_cast<int>(nrhs);
    int info = 0;
    if constexpr (sizeof(T) == 8) {
      dgesv_(&order, &columns, a, &order, ipiv, b, &order, &info);
    } else {
      sgesv_(&order, &columns, a, &order, ipiv, b, &order, &info);
    }
    return info;
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  OpenblasArm arm;
  return teamla::bench::run_dense_bench(arm, argc, argv);
}
