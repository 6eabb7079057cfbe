// SPDX-License-Identifier: Apache-2.0
// routines.hpp: the exported routines' common body, in Fortran conventions.
//
// Each function checks its arguments as the reference routine does and returns that INFO: on
// a nonzero INFO it has read no matrix and written nothing, and the caller reports it (to
// xerbla_ or cblas_xerbla). On 0 it has computed the result on the process engine, with the
// reference routine's quick returns and edge semantics (alpha == 0 leaves A and B
// unreferenced, beta == 0 does not read C). Matrices are column-major with the given leading
// dimensions. Thread-safe: concurrent calls are the engine's concern (cpu_engine.hpp).
#pragma once

#include "argument_checks.hpp"
#include "teamla/linalg/batch.hpp"

namespace teamla::blas {

template <class T>
int gemm(const GemmArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
template <class T>
int trsm(const TrsmArgs& args, T alpha, const T* a, T* b);
template <class T>
int syrk(const SyrkArgs& args, T alpha, const T* a, T beta, T* c);
template <class T>
int symm(const SymmArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
template <class T>
int trmm(const TrmmArgs& args, T alpha, const T* a, T* b);
template <class T>
int syr2k(const Syr2kArgs& args, T alpha, const T* a, const T* b, T beta, T* c);
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
// gemm_batch(), gemm_batch_strided(): run a batch whose arguments the caller has checked
// (every view legal, every referenced pointer non-null), on the process engine.
template <class T>
void gemm_batch(const linalg::GemmBatchSource<T>& source);
template <class T>
void gemm_batch_strided(const linalg::GemmItem<T>& first, linalg::index_t stride_a,
                        linalg::index_t stride_b, linalg::index_t stride_c, linalg::index_t count);

}  // namespace teamla::blas
