// SPDX-License-Identifier: Apache-2.0
// level2_kernels.hpp (internal): the table of the level-2 kernels (the matrix-vector loops of
// blas2.hpp), one per ISA and scalar type, and the run-time choice.
//
// The kernels see column-major matrices (lda) and contiguous vectors only: the drivers
// (level2/) reduce row-major views, strides and alpha to that form first, so that a handful of
// loops serves every routine. `conj` reads conj(A) in place of A (a conjugate transpose, or a
// row-major Hermitian matrix seen column-major). Each kernel file (kernels/<isa>/level2_<isa>.cpp)
// instantiates the loops of kernels/level2_body.hpp with its ISA's flags.
#pragma once

#include <complex>
#include <type_traits>

#include "isa_dispatch.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

template <class T>
struct Level2Kernels {
  // gemv_n(): y[0:m] += A[0:m, 0:n] * x[0:n] (conj: conj(A)).
  void (*gemv_n)(index_t m, index_t n, const T* a, index_t lda, const T* x, T* y, bool conj);
  // gemv_t(): y[0:n] += A[0:m, 0:n]^T * x[0:m] (conj: A^H), as dot products down the columns.
  void (*gemv_t)(index_t m, index_t n, const T* a, index_t lda, const T* x, T* y, bool conj);
  // symv_cols(): for the columns [c0, c1) of the n x n symmetric (herm: Hermitian) matrix S
  // stored in the `lower` (else upper) triangle of A: y += S[:, j] * x[j] for the stored part
  // of column j, and y[j] += S[j, :] * x over the same elements (one read of A for both).
  // herm: the diagonal's imaginary part is not read, and the mirrored element is conj(A).
  // conj: S is conj(A)'s Hermitian matrix (a row-major Hermitian A seen column-major).
  void (*symv_cols)(bool lower, bool herm, bool conj, index_t n, index_t c0, index_t c1, const T* a,
                    index_t lda, const T* x, T* y);
  // rank_update(): A[0:m, 0:n] += u1 * w1^T, plus u2 * w2^T unless u2 is null.
  void (*rank_update)(index_t m, index_t n, const T* u1, const T* w1, const T* u2, const T* w2,
                      T* a, index_t lda);
  // trmv_block(): out[0:k] += op(L or U) * t[0:k] for the k x k `lower` (else upper) triangle
  // at a; trans: its transpose; unit: its diagonal taken as 1, not read.
  void (*trmv_block)(bool lower, bool trans, bool conj, bool unit, index_t k, const T* a,
                     index_t lda, const T* t, T* out);
  // trsv_block(): x[0:k] = inv(op(triangle)) * x[0:k], the triangle as trmv_block's.
  void (*trsv_block)(bool lower, bool trans, bool conj, bool unit, index_t k, const T* a,
                     index_t lda, T* x);
};

// Level2Tables: one kernel file's tables, per scalar type.
struct Level2Tables {
  Level2Kernels<float> s;
  Level2Kernels<double> d;
  Level2Kernels<std::complex<float>> c;
  Level2Kernels<std::complex<double>> z;
};

// The kernel files (kernels/<isa>/level2_<isa>.cpp), each built once per process.
const Level2Tables& level2_tables_ref();
const Level2Tables& level2_tables_avx2();
const Level2Tables& level2_tables_avx512();

// level2_kernels(): the active ISA's kernels (isa_dispatch.hpp: TEAMLA_ISA, cpuid, or a test's
// force_isa()).
template <class T>
const Level2Kernels<T>& level2_kernels() {
  const Isa isa = active_table().isa;
  const Level2Tables& t = isa == Isa::avx512 ? level2_tables_avx512()
                          : isa == Isa::avx2 ? level2_tables_avx2()
                                             : level2_tables_ref();
  if constexpr (std::is_same_v<T, float>) {
    return t.s;
  } else if constexpr (std::is_same_v<T, double>) {
    return t.d;
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return t.c;
  } else {
    return t.z;
  }
}

}  // namespace teamla::linalg::detail
