// SPDX-License-Identifier: Apache-2.0
// cblas_api.cpp: the CBLAS ABI: cblas_[dszc]gemm, cblas_[dszc]trsm, cblas_[zc]herk,
// cblas_[dszc]syrk, cblas_[dszc]symm, cblas_[zc]hemm, cblas_[dszc]trmm, cblas_[dszc]syr2k,
// cblas_[zc]her2k, in column- and row-major layout: each the Fortran-convention routine on the
// same storage (cblas_decode.hpp maps the call and numbers its errors).
#include <complex>

#include "abi_routines.hpp"
#include "cblas_decode.hpp"
#include "exports.hpp"

namespace {

using teamla::blas::CblasCall;
using teamla::blas::Entry;

template <class T>
void cblas_gemm(Entry entry, const char* name, int layout, int trans_a, int trans_b, int m, int n,
                int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  CblasCall call(name, layout);
  const char op_a = call.trans(2, trans_a, "Illegal TransA setting, %d\n");
  const char op_b = call.trans(3, trans_b, "Illegal TransB setting, %d\n");
  if (!call.legal()) return;
  // Row-major: C^T = op(B)^T op(A)^T, A and B (and M and N) swapped.
  const bool row = call.row_major();
  const teamla::blas::GemmArgs args =
      row ? teamla::blas::GemmArgs{op_b, op_a, n, m, k, ldb, lda, ldc}
          : teamla::blas::GemmArgs{op_a, op_b, m, n, k, lda, ldb, ldc};
  call.finish(teamla::blas::gemm(args, alpha, row ? b : a, row ? a : b, beta, c), entry, m, n, k);
}

// cblas_triangular(): cblas_?trsm and cblas_?trmm, whose arguments and mapping are the same.
template <class T, class Routine>
void cblas_triangular(Routine routine, Entry entry, const char* name, int layout, int side,
                      int uplo, int trans_a, int diag, int m, int n, T alpha, const T* a, int lda,
                      T* b, int ldb) {
  CblasCall call(name, layout);
  const char side_f = call.side(2, side);
  const char uplo_f = call.uplo(3, uplo);
  const char trans_f = call.trans(4, trans_a);
  const char diag_f = call.diag(5, diag);
  if (!call.legal()) return;
  const teamla::blas::TrsmArgs args{
      side_f, uplo_f, trans_f, diag_f, call.fortran_m(m, n), call.fortran_n(m, n), lda, ldb};
  call.finish(routine(args, alpha, a, b), entry, m, n, 0);
}

// The reference numbers a bad Uplo of syrk and syr2k 2 in column-major and 3 in row-major.
int rank_update_uplo_position(const CblasCall& call) { return call.row_major() ? 3 : 2; }

template <class T>
void cblas_syrk(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                T alpha, const T* a, int lda, T beta, T* c, int ldc) {
  CblasCall call(name, layout);
  const char uplo_f = call.uplo(rank_update_uplo_position(call), uplo);
  const char trans_f = call.stored_trans(3, trans);
  if (!call.legal()) return;
  const teamla::blas::SyrkArgs args{uplo_f, trans_f, n, k, lda, ldc};
  call.finish(teamla::blas::syrk(args, alpha, a, beta, c), entry, 0, n, k);
}

// cblas_herk(): as the reference cblas_?herk: in row-major, NoTrans is 'C' and Trans or
// ConjTrans 'N' (stored_trans() gives 'T' for the former).
template <class T>
void cblas_herk(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                typename T::value_type alpha, const T* a, int lda, typename T::value_type beta,
                T* c, int ldc) {
  CblasCall call(name, layout);
  const char uplo_f = call.uplo(rank_update_uplo_position(call), uplo);
  char trans_f = call.stored_trans(3, trans);
  if (call.row_major() && trans_f == 'T') trans_f = 'C';
  if (!call.legal()) return;
  const teamla::blas::SyrkArgs args{uplo_f, trans_f, n, k, lda, ldc};
  call.finish(teamla::blas::herk(args, alpha, a, beta, c), entry, 0, n, k);
}

// cblas_symm(): cblas_?symm and cblas_[zc]hemm, whose arguments and mapping are the same (a
// row-major Hermitian A is the column-major A^T = conj(A), Hermitian too).
template <class T, class Routine>
void cblas_symm(Routine routine, Entry entry, const char* name, int layout, int side, int uplo,
                int m, int n, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c,
                int ldc) {
  CblasCall call(name, layout);
  const char side_f = call.side(2, side);
  const char uplo_f = call.uplo(3, uplo);
  if (!call.legal()) return;
  const teamla::blas::SymmArgs args{side_f, uplo_f, call.fortran_m(m, n), call.fortran_n(m, n), lda,
                                    ldb,    ldc};
  call.finish(routine(args, alpha, a, b, beta, c), entry, m, n, 0);
}

template <class T>
void cblas_syr2k(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                 T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  CblasCall call(name, layout);
  const char uplo_f = call.uplo(rank_update_uplo_position(call), uplo);
  const char trans_f = call.stored_trans(3, trans);
  if (!call.legal()) return;
  const teamla::blas::Syr2kArgs args{uplo_f, trans_f, n, k, lda, ldb, ldc};
  call.finish(teamla::blas::syr2k(args, alpha, a, b, beta, c), entry, 0, n, k);
}

// cblas_her2k(): as the reference cblas_?her2k: herk's letters, and in row-major alpha
// conjugated (C^T = conj(C) is the update with the operands' roles exchanged).
template <class T>
void cblas_her2k(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                 T alpha, const T* a, int lda, const T* b, int ldb, typename T::value_type beta,
                 T* c, int ldc) {
  CblasCall call(name, layout);
  const char uplo_f = call.uplo(rank_update_uplo_position(call), uplo);
  char trans_f = call.stored_trans(3, trans);
  if (call.row_major() && trans_f == 'T') trans_f = 'C';
  if (!call.legal()) return;
  const teamla::blas::Syr2kArgs args{uplo_f, trans_f, n, k, lda, ldb, ldc};
  const T alpha_f = call.row_major() ? std::conj(alpha) : alpha;
  call.finish(teamla::blas::her2k(args, alpha_f, a, b, beta, c), entry, 0, n, k);
}

}  // namespace

extern "C" {

TEAMLA_BLAS_EXPORT void cblas_dgemm(int layout, int trans_a, int trans_b, int m, int n, int k,
                                    double alpha, const double* a, int lda, const double* b,
                                    int ldb, double beta, double* c, int ldc) {
  cblas_gemm(Entry::cblas_dgemm, "cblas_dgemm", layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
             ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cblas_sgemm(int layout, int trans_a, int trans_b, int m, int n, int k,
                                    float alpha, const float* a, int lda, const float* b, int ldb,
                                    float beta, float* c, int ldc) {
  cblas_gemm(Entry::cblas_sgemm, "cblas_sgemm", layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
             ldb, beta, c, ldc);
}

// The complex products take alpha and beta by pointer, as CBLAS declares them.
TEAMLA_BLAS_EXPORT void cblas_zgemm(int layout, int trans_a, int trans_b, int m, int n, int k,
                                    const void* alpha, const void* a, int lda, const void* b,
                                    int ldb, const void* beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_gemm(Entry::cblas_zgemm, "cblas_zgemm", layout, trans_a, trans_b, m, n, k,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda, static_cast<const Z*>(b),
             ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_cgemm(int layout, int trans_a, int trans_b, int m, int n, int k,
                                    const void* alpha, const void* a, int lda, const void* b,
                                    int ldb, const void* beta, void* c, int ldc) {
  using C = std::complex<float>;
  cblas_gemm(Entry::cblas_cgemm, "cblas_cgemm", layout, trans_a, trans_b, m, n, k,
             *static_cast<const C*>(alpha), static_cast<const C*>(a), lda, static_cast<const C*>(b),
             ldb, *static_cast<const C*>(beta), static_cast<C*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_dtrsm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, double alpha, const double* a, int lda, double* b,
                                    int ldb) {
  cblas_triangular(teamla::blas::trsm<double>, Entry::cblas_dtrsm, "cblas_dtrsm", layout, side,
                   uplo, trans_a, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void cblas_strsm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, float alpha, const float* a, int lda, float* b,
                                    int ldb) {
  cblas_triangular(teamla::blas::trsm<float>, Entry::cblas_strsm, "cblas_strsm", layout, side, uplo,
                   trans_a, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void cblas_ztrsm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, const void* alpha, const void* a, int lda, void* b,
                                    int ldb) {
  using Z = std::complex<double>;
  cblas_triangular(teamla::blas::trsm<Z>, Entry::cblas_ztrsm, "cblas_ztrsm", layout, side, uplo,
                   trans_a, diag, m, n, *static_cast<const Z*>(alpha), static_cast<const Z*>(a),
                   lda, static_cast<Z*>(b), ldb);
}

TEAMLA_BLAS_EXPORT void cblas_ctrsm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, const void* alpha, const void* a, int lda, void* b,
                                    int ldb) {
  using C = std::complex<float>;
  cblas_triangular(teamla::blas::trsm<C>, Entry::cblas_ctrsm, "cblas_ctrsm", layout, side, uplo,
                   trans_a, diag, m, n, *static_cast<const C*>(alpha), static_cast<const C*>(a),
                   lda, static_cast<C*>(b), ldb);
}

TEAMLA_BLAS_EXPORT void cblas_zherk(int layout, int uplo, int trans, int n, int k, double alpha,
                                    const void* a, int lda, double beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_herk(Entry::cblas_zherk, "cblas_zherk", layout, uplo, trans, n, k, alpha,
             static_cast<const Z*>(a), lda, beta, static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_cherk(int layout, int uplo, int trans, int n, int k, float alpha,
                                    const void* a, int lda, float beta, void* c, int ldc) {
  using C = std::complex<float>;
  cblas_herk(Entry::cblas_cherk, "cblas_cherk", layout, uplo, trans, n, k, alpha,
             static_cast<const C*>(a), lda, beta, static_cast<C*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha,
                                    const double* a, int lda, double beta, double* c, int ldc) {
  cblas_syrk(Entry::cblas_dsyrk, "cblas_dsyrk", layout, uplo, trans, n, k, alpha, a, lda, beta, c,
             ldc);
}

TEAMLA_BLAS_EXPORT void cblas_ssyrk(int layout, int uplo, int trans, int n, int k, float alpha,
                                    const float* a, int lda, float beta, float* c, int ldc) {
  cblas_syrk(Entry::cblas_ssyrk, "cblas_ssyrk", layout, uplo, trans, n, k, alpha, a, lda, beta, c,
             ldc);
}

TEAMLA_BLAS_EXPORT void cblas_dsymm(int layout, int side, int uplo, int m, int n, double alpha,
                                    const double* a, int lda, const double* b, int ldb, double beta,
                                    double* c, int ldc) {
  cblas_symm(teamla::blas::symm<double>, Entry::cblas_dsymm, "cblas_dsymm", layout, side, uplo, m,
             n, alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cblas_ssymm(int layout, int side, int uplo, int m, int n, float alpha,
                                    const float* a, int lda, const float* b, int ldb, float beta,
                                    float* c, int ldc) {
  cblas_symm(teamla::blas::symm<float>, Entry::cblas_ssymm, "cblas_ssymm", layout, side, uplo, m, n,
             alpha, a, lda, b, ldb, beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cblas_dtrmm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, double alpha, const double* a, int lda, double* b,
                                    int ldb) {
  cblas_triangular(teamla::blas::trmm<double>, Entry::cblas_dtrmm, "cblas_dtrmm", layout, side,
                   uplo, trans_a, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void cblas_strmm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, float alpha, const float* a, int lda, float* b,
                                    int ldb) {
  cblas_triangular(teamla::blas::trmm<float>, Entry::cblas_strmm, "cblas_strmm", layout, side, uplo,
                   trans_a, diag, m, n, alpha, a, lda, b, ldb);
}

TEAMLA_BLAS_EXPORT void cblas_ztrmm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, const void* alpha, const void* a, int lda, void* b,
                                    int ldb) {
  using Z = std::complex<double>;
  cblas_triangular(teamla::blas::trmm<Z>, Entry::cblas_ztrmm, "cblas_ztrmm", layout, side, uplo,
                   trans_a, diag, m, n, *static_cast<const Z*>(alpha), static_cast<const Z*>(a),
                   lda, static_cast<Z*>(b), ldb);
}

TEAMLA_BLAS_EXPORT void cblas_ctrmm(int layout, int side, int uplo, int trans_a, int diag, int m,
                                    int n, const void* alpha, const void* a, int lda, void* b,
                                    int ldb) {
  using C = std::complex<float>;
  cblas_triangular(teamla::blas::trmm<C>, Entry::cblas_ctrmm, "cblas_ctrmm", layout, side, uplo,
                   trans_a, diag, m, n, *static_cast<const C*>(alpha), static_cast<const C*>(a),
                   lda, static_cast<C*>(b), ldb);
}

TEAMLA_BLAS_EXPORT void cblas_zsymm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                    const void* a, int lda, const void* b, int ldb,
                                    const void* beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_symm(teamla::blas::symm<Z>, Entry::cblas_zsymm, "cblas_zsymm", layout, side, uplo, m, n,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda, static_cast<const Z*>(b),
             ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_zhemm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                    const void* a, int lda, const void* b, int ldb,
                                    const void* beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_symm(teamla::blas::hemm<Z>, Entry::cblas_zhemm, "cblas_zhemm", layout, side, uplo, m, n,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda, static_cast<const Z*>(b),
             ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_zsyrk(int layout, int uplo, int trans, int n, int k,
                                    const void* alpha, const void* a, int lda, const void* beta,
                                    void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_syrk(Entry::cblas_zsyrk, "cblas_zsyrk", layout, uplo, trans, n, k,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
             *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_zsyr2k(int layout, int uplo, int trans, int n, int k,
                                     const void* alpha, const void* a, int lda, const void* b,
                                     int ldb, const void* beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_syr2k(Entry::cblas_zsyr2k, "cblas_zsyr2k", layout, uplo, trans, n, k,
              *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
              static_cast<const Z*>(b), ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_zher2k(int layout, int uplo, int trans, int n, int k,
                                     const void* alpha, const void* a, int lda, const void* b,
                                     int ldb, double beta, void* c, int ldc) {
  using Z = std::complex<double>;
  cblas_her2k(Entry::cblas_zher2k, "cblas_zher2k", layout, uplo, trans, n, k,
              *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
              static_cast<const Z*>(b), ldb, beta, static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_csymm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                    const void* a, int lda, const void* b, int ldb,
                                    const void* beta, void* c, int ldc) {
  using Z = std::complex<float>;
  cblas_symm(teamla::blas::symm<Z>, Entry::cblas_csymm, "cblas_csymm", layout, side, uplo, m, n,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda, static_cast<const Z*>(b),
             ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_chemm(int layout, int side, int uplo, int m, int n, const void* alpha,
                                    const void* a, int lda, const void* b, int ldb,
                                    const void* beta, void* c, int ldc) {
  using Z = std::complex<float>;
  cblas_symm(teamla::blas::hemm<Z>, Entry::cblas_chemm, "cblas_chemm", layout, side, uplo, m, n,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda, static_cast<const Z*>(b),
             ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_csyrk(int layout, int uplo, int trans, int n, int k,
                                    const void* alpha, const void* a, int lda, const void* beta,
                                    void* c, int ldc) {
  using Z = std::complex<float>;
  cblas_syrk(Entry::cblas_csyrk, "cblas_csyrk", layout, uplo, trans, n, k,
             *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
             *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_csyr2k(int layout, int uplo, int trans, int n, int k,
                                     const void* alpha, const void* a, int lda, const void* b,
                                     int ldb, const void* beta, void* c, int ldc) {
  using Z = std::complex<float>;
  cblas_syr2k(Entry::cblas_csyr2k, "cblas_csyr2k", layout, uplo, trans, n, k,
              *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
              static_cast<const Z*>(b), ldb, *static_cast<const Z*>(beta), static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_cher2k(int layout, int uplo, int trans, int n, int k,
                                     const void* alpha, const void* a, int lda, const void* b,
                                     int ldb, float beta, void* c, int ldc) {
  using Z = std::complex<float>;
  cblas_her2k(Entry::cblas_cher2k, "cblas_cher2k", layout, uplo, trans, n, k,
              *static_cast<const Z*>(alpha), static_cast<const Z*>(a), lda,
              static_cast<const Z*>(b), ldb, beta, static_cast<Z*>(c), ldc);
}

TEAMLA_BLAS_EXPORT void cblas_dsyr2k(int layout, int uplo, int trans, int n, int k, double alpha,
                                     const double* a, int lda, const double* b, int ldb,
                                     double beta, double* c, int ldc) {
  cblas_syr2k(Entry::cblas_dsyr2k, "cblas_dsyr2k", layout, uplo, trans, n, k, alpha, a, lda, b, ldb,
              beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cblas_ssyr2k(int layout, int uplo, int trans, int n, int k, float alpha,
                                     const float* a, int lda, const float* b, int ldb, float beta,
                                     float* c, int ldc) {
  cblas_syr2k(Entry::cblas_ssyr2k, "cblas_ssyr2k", layout, uplo, trans, n, k, alpha, a, lda, b, ldb,
              beta, c, ldc);
}

}  // extern "C"
