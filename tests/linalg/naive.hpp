// SPDX-License-Identifier: Apache-2.0
// naive.hpp: the textbook triple loop, the independent oracle for the BLAS-3 tests.
//
// naive_gemm() computes C = alpha*op(A)*op(B) + beta*C in long double on views of any
// layout, with the BLAS edge rules (beta == 0: C not read; alpha == 0: A and B not read).
// error_bound() is a safe forward-error bound for one entry of a k-term dot product.
#pragma once

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::test {

using linalg::index_t;
using linalg::MatrixView;
using linalg::Op;

template <class T>
T op_at(MatrixView<const T> v, Op op, index_t i, index_t j) {
  return op == Op::none ? v(i, j) : v(j, i);
}

// naive_gemm(): also returns, through `scale` (if given, m x n column-major), the sum of the
// magnitudes |alpha*a*b| + |beta*c| of each entry, for error bounds.
template <class T>
void naive_gemm(Op op_a, Op op_b, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                MatrixView<T> c, std::vector<long double>* scale = nullptr) {
  const index_t m = c.rows;
  const index_t n = c.cols;
  const index_t k = op_a == Op::none ? a.cols : a.rows;
  if (scale != nullptr) {
    scale->assign(static_cast<std::size_t>(m * n), 0.0L);
  }
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      long double sum = 0;
      long double mag = 0;
      if (alpha != T(0)) {
        for (index_t p = 0; p < k; ++p) {
          const long double prod = static_cast<long double>(op_at(a, op_a, i, p)) *
                                   static_cast<long double>(op_at(b, op_b, p, j));
          sum += prod;
          mag += std::fabs(prod);
        }
      }
      long double r = static_cast<long double>(alpha) * sum;
      mag *= std::fabs(static_cast<long double>(alpha));
      if (beta != T(0)) {
        r += static_cast<long double>(beta) * static_cast<long double>(c(i, j));
        mag += std::fabs(static_cast<long double>(beta) * static_cast<long double>(c(i, j)));
      }
      c(i, j) = static_cast<T>(r);
      if (scale != nullptr) {
        (*scale)[static_cast<std::size_t>(i + j * m)] = mag;
      }
    }
  }
}

// error_bound(): |computed - exact| <= this for a dot product of k terms of total magnitude
// `mag`, with a margin for the alpha/beta scaling and the final rounding.
template <class T>
long double error_bound(index_t k, long double mag) {
  const long double eps = std::numeric_limits<T>::epsilon();
  return (static_cast<long double>(k) + 4.0L) * eps * mag + std::numeric_limits<T>::min();
}

// fill_random(): uniform values in [-1, 1] in every element of the storage, padding included.
template <class T>
void fill_random(std::vector<T>& storage, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (T& x : storage) {
    x = static_cast<T>(dist(rng));
  }
}

}  // namespace teamla::test
