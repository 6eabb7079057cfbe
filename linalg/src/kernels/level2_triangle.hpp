// SPDX-License-Identifier: Apache-2.0
// level2_triangle.hpp (internal): the diagonal blocks of trmv and trsv (level2_body.hpp).
//
// The drivers cut the triangle into blocks of a few dozen columns: the rectangles between them
// go to gemv's kernels, and only these k x k triangles are left here, element by element in the
// reference BLAS's order (columns for A x, dot products for A^T x).
#pragma once

#include "kernels/level2_scalar.hpp"

namespace teamla::linalg::detail::level2_body {

// trmv_block(): the table's entry (level2_kernels.hpp).
template <class Tag, class T>
void trmv_block(bool lower, bool trans, bool conj, bool unit, index_t k, const T* a, index_t lda,
                const T* t, T* out) {
  for (index_t j = 0; j < k; ++j) {
    const T* aj = a + j * lda;
    const index_t lo = lower ? j + 1 : 0;
    const index_t hi = lower ? k : j;
    if (!trans) {  // out[i] += A(i, j) t[j] down column j
      const T tj = t[j];
      out[j] += unit ? tj : mul<Tag>(aj[j], tj, conj);
      for (index_t i = lo; i < hi; ++i) out[i] += mul<Tag>(aj[i], tj, conj);
    } else {  // out[j] += column j . t
      T s = unit ? t[j] : mul<Tag>(aj[j], t[j], conj);
      for (index_t i = lo; i < hi; ++i) s += mul<Tag>(aj[i], t[i], conj);
      out[j] += s;
    }
  }
}

// solve_forward(): x = inv(op(A)) x where op(A) is lower triangular: columns left to right for
// A itself (lower, !trans), dot products top to bottom for the transpose of an upper A.
template <class Tag, class T>
void solve_forward(bool trans, bool conj, bool unit, index_t k, const T* a, index_t lda, T* x) {
  for (index_t j = 0; j < k; ++j) {
    const T* aj = a + j * lda;
    if (!trans) {
      if (!unit) x[j] /= conj_if<Tag>(aj[j], conj);
      const T xj = x[j];
      for (index_t i = j + 1; i < k; ++i) x[i] -= mul<Tag>(aj[i], xj, conj);
    } else {
      T s = x[j];
      for (index_t i = 0; i < j; ++i) s -= mul<Tag>(aj[i], x[i], conj);
      x[j] = unit ? s : s / conj_if<Tag>(aj[j], conj);
    }
  }
}

// solve_backward(): the same for an upper triangular op(A), bottom to top.
template <class Tag, class T>
void solve_backward(bool trans, bool conj, bool unit, index_t k, const T* a, index_t lda, T* x) {
  for (index_t j = k - 1; j >= 0; --j) {
    const T* aj = a + j * lda;
    if (!trans) {
      if (!unit) x[j] /= conj_if<Tag>(aj[j], conj);
      const T xj = x[j];
      for (index_t i = 0; i < j; ++i) x[i] -= mul<Tag>(aj[i], xj, conj);
    } else {
      T s = x[j];
      for (index_t i = j + 1; i < k; ++i) s -= mul<Tag>(aj[i], x[i], conj);
      x[j] = unit ? s : s / conj_if<Tag>(aj[j], conj);
    }
  }
}

// trsv_block(): the table's entry. A lower A solves forward, its transpose backward.
template <class Tag, class T>
void trsv_block(bool lower, bool trans, bool conj, bool unit, index_t k, const T* a, index_t lda,
                T* x) {
  if (lower != trans) {
    solve_forward<Tag>(trans, conj, unit, k, a, lda, x);
  } else {
    solve_backward<Tag>(trans, conj, unit, k, a, lda, x);
  }
}

}  // namespace teamla::linalg::detail::level2_body
