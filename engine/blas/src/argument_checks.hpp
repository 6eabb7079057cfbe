// SPDX-License-Identifier: Apache-2.0
// argument_checks.hpp: the reference BLAS/LAPACK argument checks, as pure functions.
//
// Each check_*() returns the reference routine's INFO for the given Fortran-convention
// arguments: 0 when they are legal, else the 1-based position of the first illegal argument,
// in the order the reference source tests them (Reference-LAPACK BLAS/SRC/dgemm.f, dtrsm.f,
// dsyrk.f, dsymm.f, dtrmm.f, dsyr2k.f; SRC/dpotrf.f, dpotrs.f, dposv.f, dgetrf.f, dgetrs.f,
// dgesv.f, dgetri.f). Character arguments are
// compared like LSAME: on the first character, case-insensitively. The checks read nothing but
// their arguments and are thread-safe.
#pragma once

namespace teamla::blas {

// same_letter() is LSAME: `c` equals `letter` (an upper-case letter) ignoring case.
[[nodiscard]] inline bool same_letter(char c, char letter) {
  return c == letter || c == static_cast<char>(letter - 'A' + 'a');
}
// is_transposed() is true for 'T' and 'C' (real routines treat both as the transpose).
[[nodiscard]] inline bool is_transposed(char trans) {
  return same_letter(trans, 'T') || same_letter(trans, 'C');
}
[[nodiscard]] inline bool is_trans_letter(char trans) {
  return same_letter(trans, 'N') || is_transposed(trans);
}

struct GemmArgs {
  char transa, transb;
  int m, n, k, lda, ldb, ldc;
};
struct TrsmArgs {
  char side, uplo, transa, diag;
  int m, n, lda, ldb;
};
struct SyrkArgs {
  char uplo, trans;
  int n, k, lda, ldc;
};
struct SymmArgs {
  char side, uplo;
  int m, n, lda, ldb, ldc;
};
// dtrmm.f tests its arguments exactly as dtrsm.f does (same list, same positions).
using TrmmArgs = TrsmArgs;
struct Syr2kArgs {
  char uplo, trans;
  int n, k, lda, ldb, ldc;
};
struct PotrfArgs {
  char uplo;
  int n, lda;
};
struct PotrsArgs {
  char uplo;
  int n, nrhs, lda, ldb;
};
// dposv.f: the arguments of dpotrs.f (its positions too).
using PosvArgs = PotrsArgs;
struct GetrfArgs {
  int m, n, lda;
};
struct GetrsArgs {
  char trans;
  int n, nrhs, lda, ldb;
};
struct GesvArgs {
  int n, nrhs, lda, ldb;
};
// lwork == -1 is getri's workspace query.
struct GetriArgs {
  int n, lda, lwork;
};
// dlaswp.f checks nothing (a bad pivot reads and writes outside A); teamla rejects what would:
// n < 0 (1), lda < 1 (3), k1 < 1 (4), and a pivot of k1 .. k2 outside 1 .. lda (6).
struct LaswpArgs {
  int n, lda, k1, k2, incx;
};

// Level2Args: a level-2 call's letters and sizes in Fortran conventions (unused ones keep their
// defaults). One struct for the family: each check reads what its routine has, at its
// positions.
struct Level2Args {
  char uplo = 'U', trans = 'N', diag = 'N';
  int m = 0, n = 0, lda = 1, incx = 1, incy = 1;
};
// The level-2 checks (dgemv.f, dsymv.f/zhemv.f, dger.f/zgeru.f/zgerc.f, dsyr.f/zher.f,
// dsyr2.f/zher2.f, dtrmv.f/dtrsv.f): INFO as the reference routine sets it.
[[nodiscard]] int check_gemv(const Level2Args& args);
[[nodiscard]] int check_symv(const Level2Args& args);
[[nodiscard]] int check_ger(const Level2Args& args);
[[nodiscard]] int check_syr(const Level2Args& args);
[[nodiscard]] int check_syr2(const Level2Args& args);
[[nodiscard]] int check_trmv(const Level2Args& args);

// check_gemm() is inline (the others are not): it runs on every gemm call, and the smallest
// ones last a few tens of ns (docs/perf/small.md, the floor).
[[nodiscard]] inline int check_gemm(const GemmArgs& args) {
  const int rows_a = is_transposed(args.transa) ? args.k : args.m;
  const int rows_b = is_transposed(args.transb) ? args.n : args.k;
  if (!is_trans_letter(args.transa)) return 1;
  if (!is_trans_letter(args.transb)) return 2;
  if (args.m < 0) return 3;
  if (args.n < 0) return 4;
  if (args.k < 0) return 5;
  if (args.lda < (rows_a > 1 ? rows_a : 1)) return 8;
  if (args.ldb < (rows_b > 1 ? rows_b : 1)) return 10;
  if (args.ldc < (args.m > 1 ? args.m : 1)) return 13;
  return 0;
}
[[nodiscard]] int check_trsm(const TrsmArgs& args);
[[nodiscard]] int check_syrk(const SyrkArgs& args);
// check_herk(): zherk.f's: check_syrk's, with TRANS 'N' or 'C' only. check_complex_syrk():
// zsyrk.f's, with TRANS 'N' or 'T' only.
[[nodiscard]] int check_herk(const SyrkArgs& args);
[[nodiscard]] int check_complex_syrk(const SyrkArgs& args);
[[nodiscard]] int check_symm(const SymmArgs& args);
[[nodiscard]] int check_trmm(const TrmmArgs& args);
[[nodiscard]] int check_syr2k(const Syr2kArgs& args);
// check_her2k(), check_complex_syr2k(): zher2k.f's and zsyr2k.f's: check_syr2k's, with TRANS
// 'N' or 'C', and 'N' or 'T', only.
[[nodiscard]] int check_her2k(const Syr2kArgs& args);
[[nodiscard]] int check_complex_syr2k(const Syr2kArgs& args);
[[nodiscard]] int check_posv(const PosvArgs& args);
[[nodiscard]] int check_getrf(const GetrfArgs& args);
[[nodiscard]] int check_getrs(const GetrsArgs& args);
[[nodiscard]] int check_gesv(const GesvArgs& args);
[[nodiscard]] int check_getri(const GetriArgs& args);
[[nodiscard]] int check_laswp(const LaswpArgs& args, const int* ipiv);
[[nodiscard]] int check_potrf(const PotrfArgs& args);
[[nodiscard]] int check_potrs(const PotrsArgs& args);

}  // namespace teamla::blas
