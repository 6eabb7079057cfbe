// SPDX-License-Identifier: Apache-2.0
// cblas_decode.hpp: a CBLAS call's enums decoded into the arguments of the Fortran routine.
//
// Each call is mapped, as the reference CBLAS maps it, to the Fortran-convention call on the
// same storage: a row-major matrix is the column-major storage of its transpose, so a row-major
// gemm C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T (M and N, A and B swapped); a
// row-major trsm, trmm or symm flips side and uplo and swaps M and N, and a row-major syrk or
// syr2k flips uplo and trans.
//
// Errors are numbered as the reference numbers them: CBLAS's own checks (layout, enums) by their
// position in the CBLAS call, errors the Fortran routine finds by their position in the mapped
// Fortran call plus one. That is what the CBLAS test programs expect: their cblas_xerbla undoes
// the row-major swaps (gemm: 4<->5, 9<->11; trsm, trmm: 6<->7; symm: 4<->5).
#pragma once

#include "argument_checks.hpp"
#include "call_log.hpp"
#include "error_report.hpp"

namespace teamla::blas {

// The reference cblas.h enum values.
inline constexpr int kCblasRowMajor = 101;
inline constexpr int kCblasColMajor = 102;
inline constexpr int kCblasNoTrans = 111;
inline constexpr int kCblasTrans = 112;
inline constexpr int kCblasConjTrans = 113;
inline constexpr int kCblasUpper = 121;
inline constexpr int kCblasLower = 122;
inline constexpr int kCblasNonUnit = 131;
inline constexpr int kCblasUnit = 132;
inline constexpr int kCblasLeft = 141;
inline constexpr int kCblasRight = 142;

// cblas_trans_letter(): the Fortran letter of a CBLAS transpose ('N', 'T', 'C'), '\0' for a
// value that is none of them.
[[nodiscard]] inline char cblas_trans_letter(int trans) {
  switch (trans) {
    case kCblasNoTrans:
      return 'N';
    case kCblasTrans:
      return 'T';
    case kCblasConjTrans:
      return 'C';
    default:
      return '\0';
  }
}

// CblasCall: one call's layout and enums, decoded in the order the reference checks them. A
// decode returns the Fortran routine's letter, or '\0' once an argument was illegal: the first
// illegal one is reported to cblas_xerbla (and no other), and legal() turns false.
class CblasCall {
 public:
  CblasCall(const char* name, int layout)
      : name_(name), row_major_(layout == kCblasRowMajor), legal_(true) {
    if (!row_major_ && layout != kCblasColMajor) {
      report_cblas_error(1, name_, false, "Illegal layout setting, %d\n", layout);
      legal_ = false;
    }
  }

  [[nodiscard]] bool legal() const { return legal_; }
  [[nodiscard]] bool row_major() const { return row_major_; }

  // trans(): op(X) as written, for a matrix the row-major mapping moves whole (gemm's A and B,
  // trsm's and trmm's A).
  char trans(int position, int value, const char* form = "Illegal Trans setting, %d\n") {
    return checked(cblas_trans_letter(value), position, form, value);
  }
  // stored_trans(): op(X) of the stored matrix, for syrk and syr2k: a row-major A is the
  // column-major A^T, so the letter flips ('C' transposes as 'T' does).
  char stored_trans(int position, int value) {
    const char letter = trans(position, value);
    if (!row_major_ || letter == '\0') return letter;
    return is_transposed(letter) ? 'N' : 'T';
  }
  // uplo(), side(): flipped in row-major, where the Fortran routine sees the transposed A.
  char uplo(int position, int value) {
    const char letter = value == kCblasUpper ? 'U' : value == kCblasLower ? 'L' : '\0';
    return checked(flipped(letter, 'U', 'L'), position, "Illegal Uplo setting, %d\n", value);
  }
  char side(int position, int value) {
    const char letter = value == kCblasLeft ? 'L' : value == kCblasRight ? 'R' : '\0';
    return checked(flipped(letter, 'L', 'R'), position, "Illegal Side setting, %d\n", value);
  }
  char diag(int position, int value) {
    const char letter = value == kCblasUnit ? 'U' : value == kCblasNonUnit ? 'N' : '\0';
    return checked(letter, position, "Illegal Diag setting, %d\n", value);
  }

  // fortran_m()/fortran_n(): the Fortran routine's M and N for the call's (swapped in row-major,
  // where the Fortran routine sees the transposed B or C).
  [[nodiscard]] int fortran_m(int m, int n) const { return row_major_ ? n : m; }
  [[nodiscard]] int fortran_n(int m, int n) const { return row_major_ ? m : n; }

  // finish(): the Fortran routine's INFO reported at its CBLAS position, or, on 0, the call noted
  // as served (call_log.hpp) with the call's own dimensions.
  void finish(int info, Entry entry, int m, int n, int k) const {
    if (info != 0) {
      report_cblas_error(info + 1, name_, row_major_);
      return;
    }
    note_served(entry, m, n, k);
  }

 private:
  // flipped(): `letter`, or in row-major its partner (`one` <-> `other`).
  [[nodiscard]] char flipped(char letter, char one, char other) const {
    if (!row_major_ || letter == '\0') return letter;
    return letter == one ? other : one;
  }
  char checked(char letter, int position, const char* form, int value) {
    if (!legal_) return '\0';
    if (letter == '\0') {
      report_cblas_error(position, name_, row_major_, form, value);
      legal_ = false;
    }
    return letter;
  }

  const char* name_;
  bool row_major_;
  bool legal_;
};

}  // namespace teamla::blas
