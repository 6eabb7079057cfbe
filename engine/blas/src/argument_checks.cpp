// SPDX-License-Identifier: Apache-2.0
// argument_checks.cpp: argument checks of the exported routines, in the reference order.
//
// The reference routines test their arguments in a fixed order and report the first illegal
// one; the order below is theirs, so that xerbla_ sees the same position as with the
// reference library when several arguments are wrong at once.
#include "argument_checks.hpp"

#include <algorithm>
#include <initializer_list>

namespace teamla::blas {

namespace {

bool is_uplo_letter(char uplo) { return same_letter(uplo, 'U') || same_letter(uplo, 'L'); }
bool is_side_letter(char side) { return same_letter(side, 'L') || same_letter(side, 'R'); }
bool is_diag_letter(char diag) { return same_letter(diag, 'U') || same_letter(diag, 'N'); }

// Test: one of a routine's tests, in the reference order: whether the argument is illegal,
// and its 1-based position.
struct Test {
  bool illegal;
  int position;
};

// first_illegal(): the position of the first illegal argument, or 0. Every test only compares
// arguments, so evaluating them all costs a few compares.
int first_illegal(std::initializer_list<Test> tests) {
  for (const Test& test : tests) {
    if (test.illegal) return test.position;
  }
  return 0;
}

// rows_of(): the rows of a matrix that is n x k, or k x n when trans says transposed.
int rows_of(char trans, int n, int k) { return std::max(1, same_letter(trans, 'N') ? n : k); }

}  // namespace

int check_gemv(const Level2Args& a) {
  return first_illegal({{!is_trans_letter(a.trans), 1},
                        {a.m < 0, 2},
                        {a.n < 0, 3},
                        {a.lda < std::max(1, a.m), 6},
                        {a.incx == 0, 8},
                        {a.incy == 0, 11}});
}

int check_symv(const Level2Args& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {a.n < 0, 2},
                        {a.lda < std::max(1, a.n), 5},
                        {a.incx == 0, 7},
                        {a.incy == 0, 10}});
}

int check_ger(const Level2Args& a) {
  return first_illegal({{a.m < 0, 1},
                        {a.n < 0, 2},
                        {a.incx == 0, 5},
                        {a.incy == 0, 7},
                        {a.lda < std::max(1, a.m), 9}});
}

int check_syr(const Level2Args& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {a.n < 0, 2},
                        {a.incx == 0, 5},
                        {a.lda < std::max(1, a.n), 7}});
}

int check_syr2(const Level2Args& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {a.n < 0, 2},
                        {a.incx == 0, 5},
                        {a.incy == 0, 7},
                        {a.lda < std::max(1, a.n), 9}});
}

int check_trmv(const Level2Args& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {!is_trans_letter(a.trans), 2},
                        {!is_diag_letter(a.diag), 3},
                        {a.n < 0, 4},
                        {a.lda < std::max(1, a.n), 6},
                        {a.incx == 0, 8}});
}

int check_trsm(const TrsmArgs& a) {
  const int order = std::max(1, same_letter(a.side, 'L') ? a.m : a.n);
  return first_illegal({{!is_side_letter(a.side), 1},
                        {!is_uplo_letter(a.uplo), 2},
                        {!is_trans_letter(a.transa), 3},
                        {!is_diag_letter(a.diag), 4},
                        {a.m < 0, 5},
                        {a.n < 0, 6},
                        {a.lda < order, 9},
                        {a.ldb < std::max(1, a.m), 11}});
}

int check_trmm(const TrmmArgs& a) { return check_trsm(a); }

int check_symm(const SymmArgs& a) {
  const int order = std::max(1, same_letter(a.side, 'L') ? a.m : a.n);
  return first_illegal({{!is_side_letter(a.side), 1},
                        {!is_uplo_letter(a.uplo), 2},
                        {a.m < 0, 3},
                        {a.n < 0, 4},
                        {a.lda < order, 7},
                        {a.ldb < std::max(1, a.m), 9},
                        {a.ldc < std::max(1, a.m), 12}});
}

// syrk and syr2k share UPLO (1), TRANS (2), N (3), K (4) and LDA (7).
int check_syrk(const SyrkArgs& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {!is_trans_letter(a.trans), 2},
                        {a.n < 0, 3},
                        {a.k < 0, 4},
                        {a.lda < rows_of(a.trans, a.n, a.k), 7},
                        {a.ldc < std::max(1, a.n), 10}});
}

int check_herk(const SyrkArgs& a) {
  // zherk.f tests TRANS second, as dsyrk.f does, but 'T' is not among its letters.
  if (is_uplo_letter(a.uplo) && same_letter(a.trans, 'T')) return 2;
  return check_syrk(a);
}

int check_complex_syrk(const SyrkArgs& a) {
  if (is_uplo_letter(a.uplo) && same_letter(a.trans, 'C')) return 2;
  return check_syrk(a);
}

int check_her2k(const Syr2kArgs& a) {
  if (is_uplo_letter(a.uplo) && same_letter(a.trans, 'T')) return 2;
  return check_syr2k(a);
}

int check_complex_syr2k(const Syr2kArgs& a) {
  if (is_uplo_letter(a.uplo) && same_letter(a.trans, 'C')) return 2;
  return check_syr2k(a);
}

int check_syr2k(const Syr2kArgs& a) {
  // dsyr2k.f tests dsyrk.f's arguments in dsyrk.f's order, then LDB (9) and LDC (12).
  if (const int info = check_syrk({a.uplo, a.trans, a.n, a.k, a.lda, std::max(1, a.n)})) {
    return info;
  }
  return first_illegal({{a.ldb < rows_of(a.trans, a.n, a.k), 9}, {a.ldc < std::max(1, a.n), 12}});
}

int check_potrf(const PotrfArgs& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1}, {a.n < 0, 2}, {a.lda < std::max(1, a.n), 4}});
}

int check_potrs(const PotrsArgs& a) {
  return first_illegal({{!is_uplo_letter(a.uplo), 1},
                        {a.n < 0, 2},
                        {a.nrhs < 0, 3},
                        {a.lda < std::max(1, a.n), 5},
                        {a.ldb < std::max(1, a.n), 7}});
}

int check_posv(const PosvArgs& a) { return check_potrs(a); }

int check_getrf(const GetrfArgs& a) {
  return first_illegal({{a.m < 0, 1}, {a.n < 0, 2}, {a.lda < std::max(1, a.m), 4}});
}

int check_getrs(const GetrsArgs& a) {
  return first_illegal({{!is_trans_letter(a.trans), 1},
                        {a.n < 0, 2},
                        {a.nrhs < 0, 3},
                        {a.lda < std::max(1, a.n), 5},
                        {a.ldb < std::max(1, a.n), 8}});
}

int check_gesv(const GesvArgs& a) {
  return first_illegal({{a.n < 0, 1},
                        {a.nrhs < 0, 2},
                        {a.lda < std::max(1, a.n), 4},
                        {a.ldb < std::max(1, a.n), 7}});
}

int check_getri(const GetriArgs& a) {
  return first_illegal({{a.n < 0, 1},
                        {a.lda < std::max(1, a.n), 3},
                        {a.lwork < std::max(1, a.n) && a.lwork != -1, 6}});
}

int check_laswp(const LaswpArgs& args, const int* ipiv) {
  if (args.n < 0) return 1;
  if (args.lda < 1) return 3;
  if (args.incx == 0 || args.k2 < args.k1 || args.n == 0) return 0;  // nothing is swapped
  if (args.k1 < 1) return 4;
  if (ipiv == nullptr) return 6;
  const int stride = args.incx > 0 ? args.incx : -args.incx;
  for (int k = args.k1; k <= args.k2; ++k) {
    const int p = ipiv[(args.k1 - 1) + static_cast<long>(k - args.k1) * stride];
    if (p < 1 || p > args.lda || k > args.lda) return 6;
  }
  return 0;
}

}  // namespace teamla::blas
