// SPDX-License-Identifier: Apache-2.0
// argument_checks.hpp: the reference BLAS/LAPACK argument checks, as pure functions.
//
// Each check_*() returns the reference routine's INFO for the given Fortran-convention
// arguments: 0 when they are legal, else the 1-based position of the first illegal argument,
// in the order the reference source tests them (Reference-LAPACK BLAS/SRC/dgemm.f, dtrsm.f,
// dsyrk.f, dsymm.f, dtrmm.f, dsyr2k.f; SRC/dpotrf.f, dpotrs.f, dposv.f). Character arguments are
// compared like LSAME: on the first character, case-insensitively. The checks read nothing but
// their arguments and are thread-safe.
#pragma once

namespace teamla::blas {

// same_letter() is LSAME: `c` equals `letter` (an upper-case letter) ignoring case.
[[nodiscard]] bool same_letter(char c, char letter);
// is_transposed() is true for 'T' and 'C' (real routines treat both as the transpose).
[[nodiscard]] bool is_transposed(char trans);

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

[[nodiscard]] int check_gemm(const GemmArgs& args);
[[nodiscard]] int check_trsm(const TrsmArgs& args);
[[nodiscard]] int check_syrk(const SyrkArgs& args);
[[nodiscard]] int check_symm(const SymmArgs& args);
[[nodiscard]] int check_trmm(const TrmmArgs& args);
[[nodiscard]] int check_syr2k(const Syr2kArgs& args);
[[nodiscard]] int check_posv(const PosvArgs& args);
[[nodiscard]] int check_potrf(const PotrfArgs& args);
[[nodiscard]] int check_potrs(const PotrsArgs& args);

}  // namespace teamla::blas
