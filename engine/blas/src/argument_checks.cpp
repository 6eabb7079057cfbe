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

// check_side_uplo(): SIDE (1) and UPLO (2), which trsm, trmm and symm test first.
int check_side_uplo(char side, char uplo) {
  if (!same_letter(side, 'L') && !same_letter(side, 'R')) return 1;
  if (!is_uplo_letter(uplo)) return 2;
  return 0;
}

// check_rank_update(): the arguments syrk and syr2k share, at the same positions: UPLO (1), TRANS
// (2), N (3), K (4) and LDA (7), whose rows are N, or K transposed.
int check_rank_update(char uplo, char trans, int n, int k, int lda) {
  if (!is_uplo_letter(uplo)) return 1;
  if (!is_trans_letter(trans)) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  if (lda < std::max(1, same_letter(trans, 'N') ? n : k)) return 7;
  return 0;
}

}  // namespace

int check_trsm(const TrsmArgs& args) {
  if (const int info = check_side_uplo(args.side, args.uplo)) return info;
  if (!is_trans_letter(args.transa)) return 3;
  if (!same_letter(args.diag, 'U') && !same_letter(args.diag, 'N')) return 4;
  if (args.m < 0) return 5;
  if (args.n < 0) return 6;
  if (args.lda < std::max(1, same_letter(args.side, 'L') ? args.m : args.n)) return 9;
  if (args.ldb < std::max(1, args.m)) return 11;
  return 0;
}

int check_syrk(const SyrkArgs& args) {
  if (const int info = check_rank_update(args.uplo, args.trans, args.n, args.k, args.lda)) {
    return info;
  }
  if (args.ldc < std::max(1, args.n)) return 10;
  return 0;
}

int check_symm(const SymmArgs& args) {
  if (const int info = check_side_uplo(args.side, args.uplo)) return info;
  if (args.m < 0) return 3;
  if (args.n < 0) return 4;
  if (args.lda < std::max(1, same_letter(args.side, 'L') ? args.m : args.n)) return 7;
  if (args.ldb < std::max(1, args.m)) return 9;
  if (args.ldc < std::max(1, args.m)) return 12;
  return 0;
}

int check_trmm(const TrmmArgs& args) { return check_trsm(args); }

int check_syr2k(const Syr2kArgs& args) {
  if (const int info = check_rank_update(args.uplo, args.trans, args.n, args.k, args.lda)) {
    return info;
  }
  if (args.ldb < std::max(1, same_letter(args.trans, 'N') ? args.n : args.k)) return 9;
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

int check_getrf(const GetrfArgs& args) {
  if (args.m < 0) return 1;
  if (args.n < 0) return 2;
  if (args.lda < std::max(1, args.m)) return 4;
  return 0;
}

int check_getrs(const GetrsArgs& args) {
  if (!is_trans_letter(args.trans)) return 1;
  if (args.n < 0) return 2;
  if (args.nrhs < 0) return 3;
  if (args.lda < std::max(1, args.n)) return 5;
  if (args.ldb < std::max(1, args.n)) return 8;
  return 0;
}

int check_gesv(const GesvArgs& args) {
  if (args.n < 0) return 1;
  if (args.nrhs < 0) return 2;
  if (args.lda < std::max(1, args.n)) return 4;
  if (args.ldb < std::max(1, args.n)) return 7;
  return 0;
}

int check_getri(const GetriArgs& args) {
  if (args.n < 0) return 1;
  if (args.lda < std::max(1, args.n)) return 3;
  if (args.lwork < std::max(1, args.n) && args.lwork != -1) return 6;
  return 0;
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
