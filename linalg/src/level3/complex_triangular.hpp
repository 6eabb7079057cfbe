// SPDX-License-Identifier: Apache-2.0
// complex_triangular.hpp (internal): the complex triangular solve and product and the
// Hermitian rank-k update, recursive on the complex product (gemm/complex_gemm.hpp), for trsm,
// trmm and herk and for the complex factorizations (factor/complex_cholesky.cpp, getrs.cpp).
//
// Each halves its triangle, so nearly every flop is in a product of half the order; a wide
// call is one claimed section whose units each recurse inline on their part (in_parts()).
#pragma once

#include <type_traits>

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

  // update(): C = alpha op(A) op(B) + beta C (m x n x k), its stats added.
  template <class R>
  void update(ComplexTile<R> c, index_t m, index_t n, index_t k, ComplexOperand<R> a,
              ComplexOperand<R> b, Cx<R> alpha = Cx<R>(-1), Cx<R> beta = Cx<R>(1)) {
    complex_update<R>(c, m, n, k, alpha, a, b, beta, exec);
    totals.add(exec.stats);
  }
};

// ColumnPart: a reference to a callable body(j0, j1, part), valid while that callable lives.
// Not std::function, whose copy of a capturing lambda allocates: a call must not fail for
// memory on the way to its kernel.
class ColumnPart {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, ColumnPart>)
      ColumnPart(F&& body)  // NOLINT(google-explicit-constructor): a lambda converts in place
      : body_(static_cast<const void*>(&body)),
        call_([](const void* b, index_t j0, index_t j1, Work& part) {
          (*static_cast<const std::remove_reference_t<F>*>(b))(j0, j1, part);
        }) {}
  void operator()(index_t j0, index_t j1, Work& part) const { call_(body_, j0, j1, part); }

 private:
  const void* body_;
  void (*call_)(const void*, index_t, index_t, Work&);
};

// in_column_parts(): body(j0, j1, part) over [0, count) (columns) in parts of equal width, at
// the width that pays for `flops` of the complex product in R: one claimed section whose units
// each run their part serially (their products inline), or the whole of it inline.
template <class R>
void in_column_parts(Work& work, double flops, index_t count, ColumnPart body);

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

// RankTerms: the rank-k updates of a symmetric or Hermitian C, as one or two terms
// alpha[t] x[t] y[t] with x[t] n x k and y[t] k x n: syrk's alpha A A^T, herk's alpha A A^H,
// syr2k's alpha (A B^T + B A^T), her2k's alpha A B^H + conj(alpha) B A^H. `hermitian`: the
// diagonal's imaginary parts are set to zero (as zherk and zher2k do).
template <class R>
struct RankTerms {
  int count = 1;
  Cx<R> alpha[2];
  ComplexOperand<R> x[2];
  ComplexOperand<R> y[2];
  bool hermitian = false;

  // from(): the terms of the trailing block from row and column i.
  [[nodiscard]] RankTerms from(index_t i) const {
    RankTerms r = *this;
    for (int t = 0; t < count; ++t) {
      r.x[t] = x[t].at(i, 0);
      r.y[t] = y[t].at(0, i);
    }
    return r;
  }
};

// update_rows_packed(): C += the terms on rows [r0, r1) of the lower (or upper) triangle of C
// (n x n, unit row stride), on the calling thread, each operand packed once per block of depth
// (complex_triangle_packed.cpp); a Hermitian update's diagonal made real. False, having written
// nothing, without the packing buffers or the unit stride.
template <class R>
bool update_rows_packed(ComplexTile<R> c, index_t n, index_t r0, index_t r1, index_t k, bool upper,
                        const RankTerms<R>& terms, Exec& exec);

// update_lower(): C += the terms on the lower triangle of C (n x n); the upper triangle is not
// written. The second form: herk's C += alpha A A^H, A n x k, alpha real.
template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, const RankTerms<R>& terms, Work& work);
template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, ComplexOperand<R> a, R alpha, Work& work);

}  // namespace teamla::linalg::detail
