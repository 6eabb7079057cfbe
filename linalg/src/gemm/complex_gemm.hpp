// SPDX-License-Identifier: Apache-2.0
// complex_gemm.hpp (internal): the complex product on strided operands, for the complex
// routines built on it (level3/complex_triangular.cpp, factor/complex_cholesky.cpp).
//
//   complex_product(p, exec)  C = alpha op(A) op(B) + beta C, C column-major, at the width that
//                             pays (width.hpp); fills exec.stats. All arguments valid.
//   complex_update(...)       the same on a C of any strides (a row-major C is computed as
//                             C^T = op(B)^T op(A)^T).
#pragma once

#include <complex>

#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

template <class R>
using Cx = std::complex<R>;

// times(): x * y without std::complex's operator*, whose NaN recovery (C99 Annex G) is a call.
template <class R>
Cx<R> times(Cx<R> x, Cx<R> y) {
  return {x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real()};
}

// ComplexOperand: op(X) of a complex operand: element (i, j) at data[i*rs + j*cs], conjugated
// where `conj`.
template <class R>
struct ComplexOperand {
  const std::complex<R>* data = nullptr;
  index_t rs = 0;
  index_t cs = 0;
  bool conj = false;

  [[nodiscard]] ComplexOperand at(index_t i, index_t j) const {
    return {data + i * rs + j * cs, rs, cs, conj};
  }
  [[nodiscard]] ComplexOperand transposed() const { return {data, cs, rs, conj}; }
};

// element(): op(X)(i, j) of an operand.
template <class R>
Cx<R> element(const ComplexOperand<R>& x, index_t i, index_t j) {
  const Cx<R> z = x.data[i * x.rs + j * x.cs];
  return x.conj ? std::conj(z) : z;
}

template <class R>
ComplexOperand<R> complex_operand(const MatrixView<const std::complex<R>>& v, Op op) {
  if (op == Op::none) return {v.data, v.row_stride(), v.col_stride(), false};
  return {v.data, v.col_stride(), v.row_stride(), op == Op::conj_transpose};
}

// ComplexTile: a writable complex matrix, element (i, j) at data[i*rs + j*cs].
template <class R>
struct ComplexTile {
  Cx<R>* data = nullptr;
  index_t rs = 0;
  index_t cs = 0;

  [[nodiscard]] Cx<R>& operator()(index_t i, index_t j) const { return data[i * rs + j * cs]; }
  [[nodiscard]] ComplexTile at(index_t i, index_t j) const {
    return {data + i * rs + j * cs, rs, cs};
  }
  [[nodiscard]] ComplexTile transposed() const { return {data, cs, rs}; }
  // operand(): the tile as an operand, conjugated where `conj`.
  [[nodiscard]] ComplexOperand<R> operand(bool conj = false) const { return {data, rs, cs, conj}; }
};

// ComplexProduct: C = alpha op(A) op(B) + beta C, C column-major (m x n, ldc), validated.
template <class R>
struct ComplexProduct {
  index_t m, n, k;
  Cx<R> alpha;
  ComplexOperand<R> a, b;
  Cx<R> beta;
  Cx<R>* c;
  index_t ldc;

  // columns(): the same product on columns [j0, j1) of C.
  [[nodiscard]] ComplexProduct columns(index_t j0, index_t j1) const {
    return {m, j1 - j0, k, alpha, a, b.at(0, j0), beta, c + j0 * ldc, ldc};
  }
};

template <class R>
void complex_product(const ComplexProduct<R>& p, Exec& exec);

// complex_update(): C = alpha op(A) op(B) + beta C on m x n of a tile c of any strides.
template <class R>
void complex_update(ComplexTile<R> c, index_t m, index_t n, index_t k, Cx<R> alpha,
                    ComplexOperand<R> a, ComplexOperand<R> b, Cx<R> beta, Exec& exec) {
  if (c.rs == 1) {
    complex_product<R>({m, n, k, alpha, a, b, beta, c.data, c.cs}, exec);
  } else {
    complex_product<R>({n, m, k, alpha, b.transposed(), a.transposed(), beta, c.data, c.rs}, exec);
  }
}

}  // namespace teamla::linalg::detail
