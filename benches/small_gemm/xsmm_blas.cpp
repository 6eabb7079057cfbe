// SPDX-License-Identifier: Apache-2.0
// xsmm_blas.cpp: libteamla_bench_xsmm.so, libxsmm 1.17 (Debian) behind the Fortran dgemm_ and
// sgemm_, so that small_gemm loads it as one more library (docs/perf/small.md, "libxsmm").
//
// A call takes libxsmm's JIT kernel for its shape (libxsmm_?mmdispatch: its registry of
// generated code, as libxsmm_?gemm does) when libxsmm has one: libxsmm 1.17 returns none for a
// transposed A or an alpha other than 1 (tried), and takes beta 0 or 1. Any other call goes to
// OpenBLAS's cblas_?gemm, and the first such call of each shape is reported on stderr
// ("xsmm_blas: fallback ..."), so that no row is read as libxsmm's when it was OpenBLAS's.
// Benches only: never linked into the library.
#include <libxsmm.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <tuple>

#include <cblas.h>

namespace {

// report_fallback(): one line per distinct call shape that libxsmm did not take.
void report_fallback(char type, char op_a, char op_b, int m, int n, int k) {
  static std::mutex mutex;
  static std::set<std::tuple<char, char, char, int, int, int>> reported;
  const std::lock_guard<std::mutex> lock(mutex);
  if (reported.emplace(type, op_a, op_b, m, n, k).second) {
    std::fprintf(stderr, "xsmm_blas: fallback %cgemm_%c%c/%dx%dx%d to OpenBLAS\n", type, op_a, op_b,
                 m, n, k);
  }
}

CBLAS_TRANSPOSE cblas_op(char op) { return op == 'N' || op == 'n' ? CblasNoTrans : CblasTrans; }

int xsmm_flags(char op_b, bool beta_zero) {
  const int flags = cblas_op(op_b) == CblasTrans ? LIBXSMM_GEMM_FLAG_TRANS_B : 0;
  return beta_zero ? flags | LIBXSMM_GEMM_FLAG_BETA_0 : flags;
}

// kernel_takes(): the calls a libxsmm 1.17 kernel can compute; the others are not asked for.
template <class T>
bool kernel_takes(char op_a, T alpha, T beta) {
  return alpha == T(1) && (beta == T(0) || beta == T(1)) && cblas_op(op_a) == CblasNoTrans;
}

// The two types' libxsmm dispatch and OpenBLAS call, so that gemm() is written once.
libxsmm_dmmfunction dispatch(const int* m, const int* n, const int* k, const int* lda,
                             const int* ldb, const int* ldc, const double* alpha,
                             const double* beta, const int* flags) {
  return libxsmm_dmmdispatch(*m, *n, *k, lda, ldb, ldc, alpha, beta, flags, nullptr);
}
libxsmm_smmfunction dispatch(const int* m, const int* n, const int* k, const int* lda,
                             const int* ldb, const int* ldc, const float* alpha, const float* beta,
                             const int* flags) {
  return libxsmm_smmdispatch(*m, *n, *k, lda, ldb, ldc, alpha, beta, flags, nullptr);
}
void openblas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double alpha,
                   const double* a, int lda, const double* b, int ldb, double beta, double* c,
                   int ldc) {
  cblas_dgemm(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void openblas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha,
                   const float* a, int lda, const float* b, int ldb, float beta, float* c,
                   int ldc) {
  cblas_sgemm(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// gemm(): one Fortran-convention call, on libxsmm's kernel when it has one.
template <class T>
void gemm(char type, const char* ta, const char* tb, const int* m, const int* n, const int* k,
          const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta,
          T* c, const int* ldc) {
  if (kernel_takes(*ta, *alpha, *beta)) {
    const int flags = xsmm_flags(*tb, *beta == T(0));
    const auto kernel = dispatch(m, n, k, lda, ldb, ldc, alpha, beta, &flags);
    if (kernel != nullptr) {
      kernel(a, b, c);
      return;
    }
  }
  report_fallback(type, *ta, *tb, *m, *n, *k);
  openblas_gemm(cblas_op(*ta), cblas_op(*tb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void dgemm_(const char* ta, const char* tb, const int* m,
                                                   const int* n, const int* k, const double* alpha,
                                                   const double* a, const int* lda, const double* b,
                                                   const int* ldb, const double* beta, double* c,
                                                   const int* ldc) {
  gemm('d', ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

__attribute__((visibility("default"))) void sgemm_(const char* ta, const char* tb, const int* m,
                                                   const int* n, const int* k, const float* alpha,
                                                   const float* a, const int* lda, const float* b,
                                                   const int* ldb, const float* beta, float* c,
                                                   const int* ldc) {
  gemm('s', ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // extern "C"
