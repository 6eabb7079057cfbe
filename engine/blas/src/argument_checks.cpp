// SPDX-License-Identifier: Apache-2.0
// argument_checks.cpp: argument checks of the exported routines, in the reference order.
//
// The reference routines test their arguments in a fixed order and report the first illegal
// one; the order below is theirs, so that xerbla_ sees the same position as with the
// reference library when several arguments are wrong at once.
#include "argument_checks.hpp"

#include <algorithm>

namespace teamla::blas {

namespace {

bool is_uplo_letter(char uplo) { return same_letter(uplo, 'U') || same_letter(uplo, 'L'); }

}  // namespace

int check_trsm(const TrsmArgs& args) {
  const bool left = same_letter(args.side, 'L');
  const int rows_a = left ? args.m : args.n;
  if (!left && !same_letter(args.side, 'R')) return 1;
  if (!is_uplo_letter(args.uplo)) return 2;
  if (!is_trans_letter(args.transa)) return 3;
  if (!same_letter(args.diag, 'U') && !same_letter(args.diag, 'N')) return 4;
  if (args.m < 0) return 5;
  if (args.n < 0) return 6;
  if (args.lda < std::max(1, rows_a)) return 9;
  if (args.ldb < std::max(1, args.m)) return 11;
  return 0;
}

int check_syrk(const SyrkArgs& args) {
  const int rows_a = same_letter(args.trans, 'N') ? args.n : args.k;
  if (!is_uplo_letter(args.uplo)) return 1;
  if (!is_trans_letter(args.trans)) return 2;
  if (args.n < 0) return 3;
  if (args.k < 0) return 4;
  if (args.lda < std::max(1, rows_a)) return 7;
  if (args.ldc < std::max(1, args.n)) return 10;
  return 0;
}

int check_symm(const SymmArgs& args) {
  const bool left = same_letter(args.side, 'L');
  const int rows_a = left ? args.m : args.n;
  if (!left && !same_letter(args.side, 'R')) return 1;
  if (!is_uplo_letter(args.uplo)) return 2;
  if (args.m < 0) return 3;
  if (args.n < 0) return 4;
  if (args.lda < std::max(1, rows_a)) return 7;
  if (args.ldb < std::max(1, args.m)) return 9;
  if (args.ldc < std::max(1, args.m)) return 12;
  return 0;
}

int check_trmm(const TrmmArgs& args) { return check_trsm(args); }

int check_syr2k(const Syr2kArgs& args) {
  const int rows = same_letter(args.trans, 'N') ? args.n : args.k;
  if (!is_uplo_letter(args.uplo)) return 1;
  if (!is_trans_letter(args.trans)) return 2;
  if (args.n < 0) return 3;
  if (args.k < 0) return 4;
  if (args.lda < std::max(1, rows)) return 7;
  if (args.ldb < std::max(1, rows)) return 9;
  if (args.ldc < std::max(1, args.n)) return 12;
  return 0;
}

int check_posv(const PosvArgs& args) { return check_potrs(args); }

int check_potrf(const PotrfArgs& args) {
  if (!is_uplo_letter(args.uplo)) return 1;
  if (args.n < 0) return 2;
  if (args.lda < std::max(1, args.n)) return 4;
  return 0;
}

int check_potrs(const PotrsArgs& args) {
  if (!is_uplo_letter(args.uplo)) return 1;
  if (args.n < 0) return 2;
  if (args.nrhs < 0) return 3;
  if (args.lda < std::max(1, args.n)) return 5;
  if (args.ldb < std::max(1, args.n)) return 7;
  return 0;
}

}  // namespace teamla::blas
