// SPDX-License-Identifier: Apache-2.0
// complex_triangular.hpp (internal): the complex triangular solve and product and the
// Hermitian rank-k update, recursive on the complex product (gemm/complex_gemm.hpp), for trsm,
// trmm and herk and for the complex factorizations (factor/complex_cholesky.cpp, getrs.cpp).
//
// Each halves its triangle, so nearly every flop is in a product of half the order; a wide
// call is one claimed section whose units each recurse inline on their part (in_parts()).
#pragma once

#include "gemm/complex_gemm.hpp"
#include "teamla/linalg/exec.hpp"

namespace teamla::linalg::detail {

// kLeaf: orders up to this run the unblocked loops (the factor, the substitutions).
// 8: leaves of 16 ran zpotrf slower, leaves of 4 tied (docs/perf/complex.md, "Leaf order 8").
inline constexpr index_t kLeaf = 8;

// Work: what the recursion carries: the Exec the products run on and their stats, summed.
struct Work {
  Exec& exec;
  ExecStats totals;

  // update(): C += alpha op(A) op(B) (m x n x k), its stats added.
  template <class R>
  void update(ComplexTile<R> c, index_t m, index_t n, index_t k, ComplexOperand<R> a,
              ComplexOperand<R> b, Cx<R> alpha = Cx<R>(-1)) {
    complex_update<R>(c, m, n, k, alpha, a, b, Cx<R>(1), exec);
    totals.add(exec.stats);
  }
};

// adjoint(): op(X)^H of an operand.
template <class R>
ComplexOperand<R> adjoint(ComplexOperand<R> x) {
  return {x.data, x.cs, x.rs, !x.conj};
}

// solve_left(): T X = B in place of B (n x nrhs), T (n x n) lower or upper, its diagonal unit
// (not read) or not.
template <class R>
void solve_left(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                index_t nrhs, Work& work);

// multiply_left(): B = T B in place (n x nrhs), T as solve_left()'s.
template <class R>
void multiply_left(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                   index_t nrhs, Work& work);

// update_lower(): C += alpha A A^H on the lower triangle of C (n x n), A n x k, alpha real; the
// upper triangle is not written, and the diagonal's imaginary parts are set to zero (as zherk
// does).
template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, ComplexOperand<R> a, R alpha, Work& work);

}  // namespace teamla::linalg::detail
