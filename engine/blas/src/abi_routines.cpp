// SPDX-License-Identifier: Apache-2.0
// abi_routines.cpp: the BLAS/LAPACK routines of the ABI, from checked arguments to the process
// engine (or serially on the caller when the engine is closed or could not be built).
#include "abi_routines.hpp"

#include <algorithm>

#include "call_log.hpp"
#include "run_on_engine.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/width.hpp"

namespace teamla::blas {
namespace {

using linalg::col_major;

Uplo uplo_of(char uplo) { return same_letter(uplo, 'U') ? Uplo::upper : Uplo::lower; }

// An m x 0 (or 0 x n) operand: the view of a factor that alpha == 0 leaves unreferenced.
template <class T>
MatrixView<const T> empty_columns(index_t rows) {
  return col_major<const T>(nullptr, rows, 0, std::max<index_t>(1, rows));
}
template <class T>
MatrixView<const T> empty_rows(index_t cols) {
  return col_major<const T>(nullptr, 0, cols, 1);
}

// RankUpdate: a checked syrk or syr2k call as linalg takes it: op(A) and op(B) n x k, or, when
// there is no product (alpha == 0 or k == 0), n x 0 and alpha 0, as the reference then reads
// neither A nor B; C's `uplo` triangle n x n. `nothing` is the reference's quick return.
template <class T>
struct RankUpdate {
  bool nothing;
  Uplo uplo;
  Op op;
  T alpha;
  MatrixView<const T> a, b;
  T beta;
  MatrixView<T> c;
};
// rank_update(): syrk's (b = a) and syr2k's arguments, whose SyrkArgs and Syr2kArgs share all but
// ldb.
template <class T, class Args>
RankUpdate<T> rank_update(const Args& args, T alpha, const T* a, const T* b, int ldb, T beta,
                          T* c) {
  const bool product = alpha != T(0) && args.k > 0;
  RankUpdate<T> update{args.n == 0 || (!product && beta == T(1)),
                       uplo_of(args.uplo),
                       Op::none,
                       T(0),
                       empty_columns<T>(args.n),
                       empty_columns<T>(args.n),
                       beta,
                       col_major(c, args.n, args.n, args.ldc)};
  if (product) {
    update.op = op_of<T>(args.trans);
    update.alpha = alpha;
    const index_t rows = update.op == Op::none ? args.n : args.k;
    const index_t cols = update.op == Op::none ? args.k : args.n;
    update.a = col_major(a, rows, cols, args.lda);
    update.b = col_major(b, rows, cols, ldb);
  }
  return update;
}

// scale_columns(): C = beta * C column by column (beta == 0 writes zeros without reading C).
template <class T>
void scale_columns(MatrixView<T> c, T beta) {
  for (index_t j = 0; j < c.cols; ++j) {
    T* column = c.data + j * c.ld;
    for (index_t i = 0; i < c.rows; ++i) column[i] = beta == T(0) ? T(0) : beta * column[i];
  }
}

}  // namespace

// kInlineVolume: the largest product (multiply-adds) that gemm_runs_inline() takes off the
// engine. Chosen where the engine path's fixed cost (lease, lock, clock, records) falls to a few
// percent of the product (docs/perf/small.md; docs/engine.md, "Cost of a call").
constexpr double kInlineVolume = 64.0 * 64.0 * 64.0;

// kEnginePassEvery: of a thread's calls in size classes the width planner decided inline, one in
// this many still goes through the engine, so that the planner counts the class's regions
// towards its next check; while a calibration runs, learned_inline() is false and its calls all
// come to the engine. Chosen where 2 threads matched 1 thread on the small products the planner
// runs inline (docs/perf/small.md; docs/engine.md, "Cost of a call").
constexpr unsigned kEnginePassEvery = 256;

bool gemm_runs_inline(const GemmArgs& args, std::size_t scalar_bytes) {
  const double volume =
      static_cast<double>(args.m) * static_cast<double>(args.n) * static_cast<double>(args.k);
  if (volume > kInlineVolume) return false;
  if (caller_runs_one_thread() || 2.0 * volume < linalg::inline_floor_flops(scalar_bytes)) {
    return true;
  }
  if (!linalg::learned_inline(linalg::RegionKind::gemm, scalar_bytes, 2.0 * volume)) return false;
  return ++learned_inline_calls() % kEnginePassEvery != 0;
}

template <class T>
int gemm_on_engine(const GemmArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  const bool no_product = alpha == T(0) || args.k == 0;
  const Op op_a = op_of<T>(args.transa);
  const Op op_b = op_of<T>(args.transb);
  const MatrixView<T> cv = col_major(c, args.m, args.n, args.ldc);
  auto run = [&](linalg::Exec& exec) {
    if (no_product) {
      linalg::gemm(Op::none, Op::none, T(0), empty_columns<T>(args.m), empty_rows<T>(args.n), beta,
                   cv, exec);
      return;
    }
    const auto av = op_a == Op::none ? col_major(a, args.m, args.k, args.lda)
                                     : col_major(a, args.k, args.m, args.lda);
    const auto bv = op_b == Op::none ? col_major(b, args.k, args.n, args.ldb)
                                     : col_major(b, args.n, args.k, args.ldb);
    linalg::gemm(op_a, op_b, alpha, av, bv, beta, cv, exec);
  };
  on_engine("gemm", run);
  return 0;
}

// Triangular: trsm's and trmm's kinds. dtrmm.f checks its arguments as dtrsm.f does, and with
// alpha == 0 both set B to zero without reading A, so one body serves both.
enum class Triangular { solve, multiply };

template <Triangular kind, class T>
int triangular(const TrsmArgs& args, T alpha, const T* a, T* b) {
  constexpr bool kSolve = kind == Triangular::solve;
  if (const int info = kSolve ? check_trsm(args) : check_trmm(args)) return info;
  if (args.m == 0 || args.n == 0) return 0;
  const MatrixView<T> bv = col_major(b, args.m, args.n, args.ldb);
  if (alpha == T(0)) {
    scale_columns(bv, T(0));
    return 0;
  }
  const bool left = same_letter(args.side, 'L');
  const Side side = left ? Side::left : Side::right;
  const Diag diag = same_letter(args.diag, 'U') ? Diag::unit : Diag::non_unit;
  const index_t order = left ? args.m : args.n;
  const MatrixView<const T> av = col_major(a, order, order, args.lda);
  on_engine(kSolve ? "trsm" : "trmm", [&](linalg::Exec& exec) {
    if constexpr (kSolve) {
      linalg::trsm(side, uplo_of(args.uplo), op_of<T>(args.transa), diag, alpha, av, bv, exec);
    } else {
      linalg::trmm(side, uplo_of(args.uplo), op_of<T>(args.transa), diag, alpha, av, bv, exec);
    }
  });
  return 0;
}

template <class T>
int trsm(const TrsmArgs& args, T alpha, const T* a, T* b) {
  return triangular<Triangular::solve>(args, alpha, a, b);
}

template <class T>
int syrk(const SyrkArgs& args, T alpha, const T* a, T beta, T* c) {
  if (const int info = linalg::is_complex_v<T> ? check_complex_syrk(args) : check_syrk(args)) {
    return info;
  }
  const RankUpdate<T> u = rank_update(args, alpha, a, a, args.lda, beta, c);
  if (u.nothing) return 0;
  on_engine("syrk", [&](linalg::Exec& exec) {
    linalg::syrk(u.uplo, u.op, u.alpha, u.a, u.beta, u.c, exec);
  });
  return 0;
}

template <class T>
int herk(const SyrkArgs& args, typename T::value_type alpha, const T* a,
         typename T::value_type beta, T* c) {
  using R = typename T::value_type;
  if (const int info = check_herk(args)) return info;
  if (args.n == 0 || ((alpha == R(0) || args.k == 0) && beta == R(1))) return 0;
  const Op op = same_letter(args.trans, 'N') ? Op::none : Op::conj_transpose;
  const index_t rows = op == Op::none ? args.n : args.k;
  const index_t cols = op == Op::none ? args.k : args.n;
  // With alpha == 0 or k == 0, A is not read: an empty A leaves only the scaling by beta.
  const bool product = alpha != R(0) && args.k > 0;
  const MatrixView<const T> empty =
      op == Op::none ? empty_columns<T>(args.n) : empty_rows<T>(args.n);
  const MatrixView<const T> av = product ? col_major(a, rows, cols, args.lda) : empty;
  on_engine("herk", [&](linalg::Exec& exec) {
    linalg::herk(uplo_of(args.uplo), op, product ? alpha : R(0), av, beta,
                 col_major(c, args.n, args.n, args.ldc), exec);
  });
  return 0;
}

// symmetric_product(): symm's and hemm's body (zhemm.f checks its arguments as dsymm.f does).
template <bool kHermitian, class T>
int symmetric_product(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  if (const int info = check_symm(args)) return info;
  if (args.m == 0 || args.n == 0 || (alpha == T(0) && beta == T(1))) return 0;
  const bool left = same_letter(args.side, 'L');
  const index_t order = left ? args.m : args.n;
  const MatrixView<T> cv = col_major(c, args.m, args.n, args.ldc);
  if (alpha == T(0)) {  // the reference scales C without reading A or B
    scale_columns(cv, beta);
    return 0;
  }
  const Side side = left ? Side::left : Side::right;
  const MatrixView<const T> av = col_major(a, order, order, args.lda);
  const MatrixView<const T> bv = col_major(b, args.m, args.n, args.ldb);
  on_engine(kHermitian ? "hemm" : "symm", [&](linalg::Exec& exec) {
    if constexpr (kHermitian) {
      linalg::hemm(side, uplo_of(args.uplo), alpha, av, bv, beta, cv, exec);
    } else {
      linalg::symm(side, uplo_of(args.uplo), alpha, av, bv, beta, cv, exec);
    }
  });
  return 0;
}

template <class T>
int symm(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  return symmetric_product<false>(args, alpha, a, b, beta, c);
}

template <class T>
int hemm(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  return symmetric_product<true>(args, alpha, a, b, beta, c);
}

template <class T>
int trmm(const TrmmArgs& args, T alpha, const T* a, T* b) {
  return triangular<Triangular::multiply>(args, alpha, a, b);
}

template <class T>
int syr2k(const Syr2kArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  if (const int info = linalg::is_complex_v<T> ? check_complex_syr2k(args) : check_syr2k(args)) {
    return info;
  }
  const RankUpdate<T> u = rank_update(args, alpha, a, b, args.ldb, beta, c);
  if (u.nothing) return 0;
  on_engine("syr2k", [&](linalg::Exec& exec) {
    linalg::syr2k(u.uplo, u.op, u.alpha, u.a, u.b, u.beta, u.c, exec);
  });
  return 0;
}

template <class T>
int her2k(const Syr2kArgs& args, T alpha, const T* a, const T* b, typename T::value_type beta,
          T* c) {
  using R = typename T::value_type;
  if (const int info = check_her2k(args)) return info;
  // rank_update()'s views and quick return, with beta real.
  const RankUpdate<T> u = rank_update(args, alpha, a, b, args.ldb, T(beta), c);
  if (u.nothing) return 0;
  on_engine("her2k", [&](linalg::Exec& exec) {
    linalg::her2k(u.uplo, u.op, u.alpha, u.a, u.b, R(beta), u.c, exec);
  });
  return 0;
}

template <class T>
int posv(const PosvArgs& args, T* a, T* b, int* factor_info) {
  if (const int info = check_posv(args)) return info;
  *factor_info = 0;
  if (args.n == 0) return 0;
  const index_t column = on_engine("posv", [&](linalg::Exec& exec) -> index_t {
    const Uplo uplo = uplo_of(args.uplo);
    const MatrixView<T> av = col_major(a, args.n, args.n, args.lda);
    const index_t info = linalg::potrf(uplo, av, exec);
    if (info == 0 && args.nrhs > 0) {
      linalg::potrs(uplo, MatrixView<const T>(av), col_major(b, args.n, args.nrhs, args.ldb), exec);
    }
    return info;
  });
  *factor_info = static_cast<int>(column);
  return 0;
}

template <class T>
int potrf(const PotrfArgs& args, T* a, int* factor_info) {
  if (const int info = check_potrf(args)) return info;
  *factor_info = 0;
  if (args.n == 0) return 0;
  const index_t column = on_engine("potrf", [&](linalg::Exec& exec) -> index_t {
    return linalg::potrf(uplo_of(args.uplo), col_major(a, args.n, args.n, args.lda), exec);
  });
  *factor_info = static_cast<int>(column);
  return 0;
}

template <class T>
int potrs(const PotrsArgs& args, const T* a, T* b) {
  if (const int info = check_potrs(args)) return info;
  if (args.n == 0 || args.nrhs == 0) return 0;
  on_engine("potrs", [&](linalg::Exec& exec) {
    linalg::potrs(uplo_of(args.uplo), col_major(a, args.n, args.n, args.lda),
                  col_major(b, args.n, args.nrhs, args.ldb), exec);
  });
  return 0;
}

template <class T>
std::optional<NullMatrix> gemm_batch(std::span<const linalg::GemmGroup<T>> groups) {
  return on_engine("gemm_batch", [&](linalg::Exec& exec) -> std::optional<NullMatrix> {
    try {
      linalg::gemm_batch(groups, exec);
      return std::nullopt;
    } catch (const linalg::NullBatchMatrix& error) {
      // The only refusal left after the ABI's checks; any other is a broken invariant, which
      // on_engine() reports.
      return NullMatrix{error.group(), error.array()};
    }
  });
}

template <class T>
void gemm_batch_strided(const linalg::GemmItem<T>& first, index_t stride_a, index_t stride_b,
                        index_t stride_c, index_t count) {
  on_engine("gemm_batch_strided", [&](linalg::Exec& exec) {
    linalg::gemm_batch_strided(first.op_a, first.op_b, first.alpha, first.a, stride_a, first.b,
                               stride_b, first.beta, first.c, stride_c, count, exec);
  });
}

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_BLAS_INSTANTIATE(T)                                                           \
  template int gemm_on_engine<T>(const GemmArgs&, T, const T*, const T*, T, T*);             \
  template int trsm<T>(const TrsmArgs&, T, const T*, T*);                                    \
  template int syrk<T>(const SyrkArgs&, T, const T*, T, T*);                                 \
  template int symm<T>(const SymmArgs&, T, const T*, const T*, T, T*);                       \
  template int trmm<T>(const TrmmArgs&, T, const T*, T*);                                    \
  template int syr2k<T>(const Syr2kArgs&, T, const T*, const T*, T, T*);                     \
  template int posv<T>(const PosvArgs&, T*, T*, int*);                                       \
  template int potrf<T>(const PotrfArgs&, T*, int*);                                         \
  template int potrs<T>(const PotrsArgs&, const T*, T*);                                     \
  template std::optional<NullMatrix> gemm_batch<T>(std::span<const linalg::GemmGroup<T>>);   \
  template void gemm_batch_strided<T>(const linalg::GemmItem<T>&, index_t, index_t, index_t, \
                                      index_t);
TEAMLA_BLAS_INSTANTIATE(double)
TEAMLA_BLAS_INSTANTIATE(float)
#undef TEAMLA_BLAS_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)
// The complex types: every routine above, and hemm and her2k.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_BLAS_INSTANTIATE_COMPLEX(T)                                                   \
  template int syrk<T>(const SyrkArgs&, T, const T*, T, T*);                                 \
  template int symm<T>(const SymmArgs&, T, const T*, const T*, T, T*);                       \
  template int hemm<T>(const SymmArgs&, T, const T*, const T*, T, T*);                       \
  template int syr2k<T>(const Syr2kArgs&, T, const T*, const T*, T, T*);                     \
  template int her2k<T>(const Syr2kArgs&, T, const T*, const T*, T::value_type, T*);         \
  template std::optional<NullMatrix> gemm_batch<T>(std::span<const linalg::GemmGroup<T>>);   \
  template void gemm_batch_strided<T>(const linalg::GemmItem<T>&, index_t, index_t, index_t, \
                                      index_t);
TEAMLA_BLAS_INSTANTIATE_COMPLEX(std::complex<double>)
TEAMLA_BLAS_INSTANTIATE_COMPLEX(std::complex<float>)
#undef TEAMLA_BLAS_INSTANTIATE_COMPLEX
// NOLINTEND(bugprone-macro-parentheses)
template int trsm<std::complex<double>>(const TrsmArgs&, std::complex<double>,
                                        const std::complex<double>*, std::complex<double>*);
template int trsm<std::complex<float>>(const TrsmArgs&, std::complex<float>,
                                       const std::complex<float>*, std::complex<float>*);
template int trmm<std::complex<double>>(const TrmmArgs&, std::complex<double>,
                                        const std::complex<double>*, std::complex<double>*);
template int trmm<std::complex<float>>(const TrmmArgs&, std::complex<float>,
                                       const std::complex<float>*, std::complex<float>*);
template int herk<std::complex<double>>(const SyrkArgs&, double, const std::complex<double>*,
                                        double, std::complex<double>*);
template int herk<std::complex<float>>(const SyrkArgs&, float, const std::complex<float>*, float,
                                       std::complex<float>*);
template int posv<std::complex<double>>(const PosvArgs&, std::complex<double>*,
                                        std::complex<double>*, int*);
template int posv<std::complex<float>>(const PosvArgs&, std::complex<float>*, std::complex<float>*,
                                       int*);
template int potrf<std::complex<double>>(const PotrfArgs&, std::complex<double>*, int*);
template int potrf<std::complex<float>>(const PotrfArgs&, std::complex<float>*, int*);
template int potrs<std::complex<double>>(const PotrsArgs&, const std::complex<double>*,
                                         std::complex<double>*);
template int potrs<std::complex<float>>(const PotrsArgs&, const std::complex<float>*,
                                        std::complex<float>*);
template int gemm_on_engine<std::complex<double>>(const GemmArgs&, std::complex<double>,
                                                  const std::complex<double>*,
                                                  const std::complex<double>*, std::complex<double>,
                                                  std::complex<double>*);
template int gemm_on_engine<std::complex<float>>(const GemmArgs&, std::complex<float>,
                                                 const std::complex<float>*,
                                                 const std::complex<float>*, std::complex<float>,
                                                 std::complex<float>*);

}  // namespace teamla::blas
