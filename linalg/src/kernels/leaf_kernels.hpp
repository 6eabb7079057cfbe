// SPDX-License-Identifier: Apache-2.0
// leaf_kernels.hpp: the interface of the small kernels at the leaves of TRSM, POTRF and GETRF
// (unblocked Cholesky, small triangular solves, the panel LU), one set per ISA. They are written
// once (kernels/chol_leaf.hpp, kernels/lu_leaf.hpp), instantiated in each ISA's table
// (kernels/<isa>/table_<isa>.cpp) and called by the routines above through leaf_kernels().
#pragma once

#include <complex>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

// The triangle `l` of a leaf solve is packed column-major (ld = k), k <= kLeafSolve, with its
// reciprocal diagonal in `rdiag` (unused for a unit diagonal). `b` is k x nrhs with strides
// (rs, cs). The Cholesky leaf works on a contiguous column-major buffer whose strict upper
// triangle is scratch (it writes there) and returns info
// (0 or the 1-based column of the first pivot that is not > 0, NaN included).
inline constexpr index_t kLeafSolve = 32;
// potf2_lower() factors leaves of exactly 32 or kRegLeafLarge columns in registers
// (kernels/chol_leaf.hpp: RegLeaf); the recursive tile factorization stops at either size.
inline constexpr index_t kRegLeafLarge = 64;

template <class T>
struct LeafKernels {
  index_t (*potf2_lower)(T* a, index_t n, index_t lda);
  void (*solve_lower)(const T* l, const T* rdiag, bool unit, index_t k, T* b, index_t rs,
                      index_t cs, index_t nrhs);
  void (*solve_upper)(const T* u, const T* rdiag, bool unit, index_t k, T* b, index_t rs,
                      index_t cs, index_t nrhs);
  void (*solve_panel_tile)(T* x, index_t mr, index_t w, const T* d, index_t d_step, const T* rdiag);
  // getf2(): the unblocked LU of an m x n leaf of getrf's panel, m >= n, element (i, j) at
  // a[i * rs + j * cs] (kernels/lu_leaf.hpp); ipiv[j] = pivot row of column j, 1-based, plus
  // base. Returns info.
  index_t (*getf2)(T* a, index_t m, index_t n, index_t rs, index_t cs, int* ipiv, index_t base);
  // The complex leaves of T's precision: getf2 of std::complex<T> (kernels/complex_lu_leaf.hpp),
  // and the substitution on B's contiguous rows (kernels/complex_vector.hpp, solve_rows()).
  index_t (*complex_getf2)(std::complex<T>* a, index_t m, index_t n, index_t rs, index_t cs,
                           int* ipiv, index_t base);
  void (*complex_solve_rows)(bool lower, bool unit, const std::complex<T>* t, index_t trs,
                             index_t tcs, bool conj, index_t n, std::complex<T>* b, index_t brs,
                             index_t nrhs);
};

// leaf_kernels() returns the kernels of the active gemm ISA (isa_dispatch.hpp: TEAMLA_ISA,
// cpuid, or a test's detail::force_isa()): its table holds them beside its gemm kernels.
template <class T>
const LeafKernels<T>& leaf_kernels();

}  // namespace teamla::linalg::level3_detail
