// SPDX-License-Identifier: Apache-2.0
// abi_routines.hpp: the exported routines' common body, in Fortran conventions.
//
// Each function checks its arguments as the reference routine does and returns that INFO: on
// a nonzero INFO it has read no matrix and written nothing, and the caller reports it (to
// xerbla_ or cblas_xerbla). On 0 it has computed the result on the process engine, with the
// reference routine's quick returns and edge semantics (alpha == 0 leaves A and B
// unreferenced, beta == 0 does not read C). Matrices are column-major with the given leading
// dimensions. Thread-safe: concurrent calls are the engine's concern (cpu_engine.hpp).
#pragma once

#include <optional>

#include "argument_checks.hpp"
#include "call_log.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"

namespace teamla::blas {

// gemm_on_engine(): gemm() past its checks and quick returns, for a product that is not tiny.
template <class T>
int gemm_on_engine(const GemmArgs& args, T alpha, const T* a, const T* b, T beta, T* c);

// gemm_runs_inline(): a product past the tiny bound that runs on the calling thread whatever
// the engine decides, so gemm() skips the engine for it as for a tiny one: at most
// kInlineVolume multiply-adds, and the call can use one thread (caller_runs_one_thread()), or its
// flops are below the width model's floor (linalg::inline_floor_flops()), or the width planner
// decided its size class inline (linalg::learned_inline(); all but one call in kEnginePassEvery).
bool gemm_runs_inline(const GemmArgs& args, std::size_t scalar_bytes);

// gemm() is inline up to the tiny path (linalg::gemm_is_tiny: on the caller, without the
// process engine's lease, lock or clock, and without views), so that a small dgemm_ reaches
// the kernel through no call of its own: out of line, the engine path's frame and saved
// registers weigh on the smallest products (docs/engine.md, "Cost of a call").
template <class T>
inline int gemm(const GemmArgs& args, T alpha, const T* a, const T* b, T beta, T* c) {
  if (const int info = check_gemm(args)) return info;
  if (args.m == 0 || args.n == 0) return 0;
  const bool no_product = alpha == T(0) || args.k == 0;
  if (no_product && beta == T(1)) return 0;
  if constexpr (linalg::is_complex_v<T>) {
    return gemm_on_engine(args, alpha, a, b, beta, c);  // no tiny path: every call on the engine
  } else {
    if (!linalg::gemm_is_tiny(args.m, args.n, no_product ? 0 : args.k) &&
        !gemm_runs_inline(args, sizeof(T))) {
      return gemm_on_engine(args, alpha, a, b, beta, c);
    }
    if (verbosity() > 0) set_last_call_threads(1);
    const auto op = [](char trans) {
      return is_transposed(trans) ? linalg::Op::transpose : linalg::Op::none;
    };
    linalg::gemm_tiny_col_major(op(args.transa), op(args.transb), args.m, args.n,
                                no_product ? 0 : args.k, alpha, a, args.lda, b, args.ldb, beta, c,
                                args.ldc);
    return 0;
  }
}
template <class T>
int trsm(const TrsmArgs& args, T alpha, const T* a, T* b);
template <class T>
int syrk(const SyrkArgs& args, T alpha, const T* a, T beta, T* c);
// herk(): zherk's and cherk's (T complex, alpha and beta real).
template <class T>
int herk(const SyrkArgs& args, typename T::value_type alpha, const T* a,
         typename T::value_type beta, T* c);
template <class T>
int symm(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
template <class T>
int trmm(const TrmmArgs& args, T alpha, const T* a, T* b);
template <class T>
int syr2k(const Syr2kArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
// hemm(), her2k(): zhemm's and zher2k's (T complex; her2k's beta real).
template <class T>
int hemm(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
template <class T>
int her2k(const Syr2kArgs& args, T alpha, const T* a, const T* b, typename T::value_type beta,
          T* c);
// posv(): potrf, then potrs when the factorization succeeded; *factor_info as potrf's (B is
// untouched when it is not 0).
template <class T>
int posv(const PosvArgs& args, T* a, T* b, int* factor_info);
// potrf(): on legal arguments, *factor_info is LAPACK's factorization info (0, or the column
// of the first non-positive pivot).
template <class T>
int potrf(const PotrfArgs& args, T* a, int* factor_info);
template <class T>
int potrs(const PotrsArgs& args, const T* a, T* b);
// The LU family (abi_lu.cpp). getrf, gesv and getri set *factor_info to LAPACK's info on legal
// arguments (gesv leaves B untouched when it is not 0; getri answers the workspace query,
// lwork == -1, in work[0]).
template <class T>
int getrf(const GetrfArgs& args, T* a, int* ipiv, int* factor_info);
template <class T>
int getrs(const GetrsArgs& args, const T* a, const int* ipiv, T* b);
template <class T>
int gesv(const GesvArgs& args, T* a, int* ipiv, T* b, int* factor_info);
template <class T>
int getri(const GetriArgs& args, T* a, const int* ipiv, T* work, int* factor_info);
template <class T>
int laswp(const LaswpArgs& args, T* a, const int* ipiv);
// NullMatrix: a matrix pointer that gemm_batch() found null where its item uses it: the index
// of its group in the span, and its array ('a', 'b' or 'c').
struct NullMatrix {
  std::size_t group = 0;
  char array = 'a';
};
// gemm_batch(): runs groups whose other arguments the caller has checked (every view legal) on
// the process engine. linalg checks every pointer an item uses before it writes anything: the
// first null one is returned, with nothing written (a scan of its own in the ABI would be a
// second pass over the pointers on the calling thread: docs/perf/batch.md).
template <class T>
std::optional<NullMatrix> gemm_batch(std::span<const linalg::GemmGroup<T>> groups);
// gemm_batch_strided(): runs a batch whose arguments the caller has checked (every view legal,
// every referenced pointer non-null) on the process engine.
template <class T>
void gemm_batch_strided(const linalg::GemmItem<T>& first, linalg::index_t stride_a,
                        linalg::index_t stride_b, linalg::index_t stride_c, linalg::index_t count);

}  // namespace teamla::blas
