// SPDX-License-Identifier: Apache-2.0
// cblas_api.cpp: the CBLAS ABI: cblas_[ds]gemm, cblas_[ds]trsm, cblas_[ds]syrk, cblas_[ds]symm,
// cblas_[ds]trmm, cblas_[ds]syr2k, in column- and row-major layout.
//
// Each call is mapped, as the reference CBLAS maps it, to the Fortran-convention call on the
// same storage: a row-major matrix is the column-major storage of its transpose, so a
// row-major gemm C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T (M and N, A and B
// swapped); a row-major trsm, trmm or symm flips side and uplo and swaps M and N, and a
// row-major syrk or syr2k flips uplo and trans. Errors are numbered as the
// reference numbers them: CBLAS's own checks (layout, enums) by their position in the CBLAS
// call, errors the Fortran routine finds by their position in the mapped Fortran call plus
// one. That is what the CBLAS test programs expect: their cblas_xerbla undoes the row-major
// swaps (gemm: 4<->5, 9<->11; trsm, trmm: 6<->7; symm: 4<->5).
#include "call_log.hpp"
#include "error_report.hpp"
#include "exports.hpp"
#include "routines.hpp"

namespace {

using teamla::blas::Entry;
using teamla::blas::note_served;
using teamla::blas::report_cblas_error;

// The reference cblas.h enum values.
constexpr int kRowMajor = 101;
constexpr int kColMajor = 102;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;
constexpr int kConjTrans = 113;
constexpr int kUpper = 121;
constexpr int kLower = 122;
constexpr int kNonUnit = 131;
constexpr int kUnit = 132;
constexpr int kLeft = 141;
constexpr int kRight = 142;

// Fortran letters of the enums; '\0' for a value that is none of them.
char trans_letter(int trans) {
  switch (trans) {
    case kNoTrans:
      return 'N';
    case kTrans:
      return 'T';
    case kConjTrans:
      return 'C';
    default:
      return '\0';
  }
}
char uplo_letter(int uplo, bool flip) {
  if (uplo == kUpper) return flip ? 'L' : 'U';
  if (uplo == kLower) return flip ? 'U' : 'L';
  return '\0';
}
char side_letter(int side, bool flip) {
  if (side == kLeft) return flip ? 'R' : 'L';
  if (side == kRight) return flip ? 'L' : 'R';
  return '\0';
}
char diag_letter(int diag) {
  if (diag == kUnit) return 'U';
  if (diag == kNonUnit) return 'N';
  return '\0';
}

template <class T>
void cblas_gemm(Entry entry, const char* name, int layout, int trans_a, int trans_b, int m, int n,
                int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  const bool row_major = layout == kRowMajor;
  if (!row_major && layout != kColMajor) {
    report_cblas_error(1, name, false, "Illegal layout setting, %d\n", layout);
    return;
  }
  const char letter_a = trans_letter(trans_a);
  const char letter_b = trans_letter(trans_b);
  if (letter_a == '\0') {
    report_cblas_error(2, name, row_major, "Illegal TransA setting, %d\n", trans_a);
    return;
  }
  if (letter_b == '\0') {
    report_cblas_error(3, name, row_major, "Illegal TransB setting, %d\n", trans_b);
    return;
  }
  const int info =
      row_major
          ? teamla::blas::gemm(teamla::blas::GemmArgs{letter_b, letter_a, n, m, k, ldb, lda, ldc},
                               alpha, b, a, beta, c)
          : teamla::blas::gemm(teamla::blas::GemmArgs{letter_a, letter_b, m, n, k, lda, ldb, ldc},
                               alpha, a, b, beta, c);
  if (info != 0) {
    report_cblas_error(info + 1, name, row_major);
    return;
  }
  note_served(entry, m, n, k);
}

// cblas_triangular(): cblas_?trsm and cblas_?trmm, whose arguments and mapping are the same.
template <class T, class Routine>
void cblas_triangular(Routine routine, Entry entry, const char* name, int layout, int side,
                      int uplo, int trans_a, int diag, int m, int n, T alpha, const T* a, int lda,
                      T* b, int ldb) {
  const bool row_major = layout == kRowMajor;
  if (!row_major && layout != kColMajor) {
    report_cblas_error(1, name, false, "Illegal layout setting, %d\n", layout);
    return;
  }
  const char side_f = side_letter(side, row_major);
  const char uplo_f = uplo_letter(uplo, row_major);
  const char trans_f = trans_letter(trans_a);
  const char diag_f = diag_letter(diag);
  if (side_f == '\0') {
    report_cblas_error(2, name, row_major, "Illegal Side setting, %d\n", side);
    return;
  }
  if (uplo_f == '\0') {
    report_cblas_error(3, name, row_major, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  if (trans_f == '\0') {
    report_cblas_error(4, name, row_major, "Illegal Trans setting, %d\n", trans_a);
    return;
  }
  if (diag_f == '\0') {
    report_cblas_error(5, name, row_major, "Illegal Diag setting, %d\n", diag);
    return;
  }
  const int rows = row_major ? n : m;
  const int cols = row_major ? m : n;
  const teamla::blas::TrsmArgs args{side_f, uplo_f, trans_f, diag_f, rows, cols, lda, ldb};
  if (const int info = routine(args, alpha, a, b)) {
    report_cblas_error(info + 1, name, row_major);
    return;
  }
  note_served(entry, m, n, 0);
}

template <class T>
void cblas_syrk(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                T alpha, const T* a, int lda, T beta, T* c, int ldc) {
  const bool row_major = layout == kRowMajor;
  if (!row_major && layout != kColMajor) {
    report_cblas_error(1, name, false, "Illegal layout setting, %d\n", layout);
    return;
  }
  const char uplo_f = uplo_letter(uplo, row_major);
  if (uplo_f == '\0') {
    // The reference numbers a bad Uplo 2 in column-major and 3 in row-major; we match it.
    report_cblas_error(row_major ? 3 : 2, name, row_major, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  char trans_f = trans_letter(trans);
  if (trans_f == '\0') {
    report_cblas_error(3, name, row_major, "Illegal Trans setting, %d\n", trans);
    return;
  }
  // Row-major A (n x k, or k x n transposed) is the column-major storage of A^T.
  if (row_major) trans_f = trans_f == 'N' ? 'T' : 'N';
  const teamla::blas::SyrkArgs args{uplo_f, trans_f, n, k, lda, ldc};
  if (const int info = teamla::blas::syrk(args, alpha, a, beta, c)) {
    report_cblas_error(info + 1, name, row_major);
    return;
  }
  note_served(entry, 0, n, k);
}

template <class T>
void cblas_symm(Entry entry, const char* name, int layout, int side, int uplo, int m, int n,
                T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  const bool row_major = layout == kRowMajor;
  if (!row_major && layout != kColMajor) {
    report_cblas_error(1, name, false, "Illegal layout setting, %d\n", layout);
    return;
  }
  const char side_f = side_letter(side, row_major);
  const char uplo_f = uplo_letter(uplo, row_major);
  if (side_f == '\0') {
    report_cblas_error(2, name, row_major, "Illegal Side setting, %d\n", side);
    return;
  }
  if (uplo_f == '\0') {
    report_cblas_error(3, name, row_major, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  const int rows = row_major ? n : m;
  const int cols = row_major ? m : n;
  const teamla::blas::SymmArgs args{side_f, uplo_f, rows, cols, lda, ldb, ldc};
  if (const int info = teamla::blas::symm(args, alpha, a, b, beta, c)) {
    report_cblas_error(info + 1, name, row_major);
    return;
  }
  note_served(entry, m, n, 0);
}

template <class T>
void cblas_syr2k(Entry entry, const char* name, int layout, int uplo, int trans, int n, int k,
                 T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  const bool row_major = layout == kRowMajor;
  if (!row_major && layout != kColMajor) {
    report_cblas_error(1, name, false, "Illegal layout setting, %d\n", layout);
    return;
  }
  const char uplo_f = uplo_letter(uplo, row_major);
  if (uplo_f == '\0') {
    // As for syrk, the reference numbers a bad Uplo 2 in column-major and 3 in row-major.
    report_cblas_error(row_major ? 3 : 2, name, row_major, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  char trans_f = trans_letter(trans);
  if (trans_f == '\0') {
    report_cblas_error(3, name, row_major, "Illegal Trans setting, %d\n", trans);
    return;
  }
  if (row_major) trans_f = trans_f == 'N' ? 'T' : 'N';
  const teamla::blas::Syr2kArgs args{uplo_f, trans_f, n, k, lda, ldb, ldc};
  if (const int info = teamla::blas::syr2k(args, alpha, a, b, beta, c)) {
    report_cblas_error(info + 1, name, row_major);
    return;
  }
  note_served(entry, 0, n, k);
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
  cblas_symm(Entry::cblas_dsymm, "cblas_dsymm", layout, side, uplo, m, n, alpha, a, lda, b, ldb,
             beta, c, ldc);
}

TEAMLA_BLAS_EXPORT void cblas_ssymm(int layout, int side, int uplo, int m, int n, float alpha,
                                    const float* a, int lda, const float* b, int ldb, float beta,
                                    float* c, int ldc) {
  cblas_symm(Entry::cblas_ssymm, "cblas_ssymm", layout, side, uplo, m, n, alpha, a, lda, b, ldb,
             beta, c, ldc);
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
