// SPDX-License-Identifier: Apache-2.0
// engine_test_util.hpp: owned test matrices with teamla views, naive reference routines, and
// comparisons, shared by the engine tests. Single-threaded helpers; each test owns its data.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::engine::testing {

using linalg::index_t;
using linalg::Layout;
using linalg::MatrixView;

// TestMatrix: owned storage of rows x cols in a layout, with `pad` extra elements in the leading
// dimension so that ld != rows is exercised.
template <class T>
struct TestMatrix {
  index_t rows = 0, cols = 0, ld = 1;
  Layout layout = Layout::col_major;
  std::vector<T> storage;

  TestMatrix(index_t r, index_t c, Layout l = Layout::col_major, index_t pad = 3)
      : rows(r), cols(c), layout(l) {
    ld = std::max<index_t>(1, (l == Layout::col_major ? r : c) + pad);
    storage.assign(
        static_cast<std::size_t>(ld * std::max<index_t>(1, l == Layout::col_major ? c : r)),
        T(-777));
  }
  MatrixView<T> view() { return {storage.data(), rows, cols, ld, layout}; }
  MatrixView<const T> cview() const { return {storage.data(), rows, cols, ld, layout}; }
  T& operator()(index_t i, index_t j) { return view()(i, j); }
  T operator()(index_t i, index_t j) const { return cview()(i, j); }
};

template <class T>
void fill_random(TestMatrix<T>& m, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (index_t j = 0; j < m.cols; ++j)
    for (index_t i = 0; i < m.rows; ++i) m(i, j) = static_cast<T>(dist(gen));
}

// make_spd(): a well-conditioned symmetric positive definite n x n matrix (both triangles).
template <class T>
TestMatrix<T> make_spd(index_t n, Layout layout, unsigned seed) {
  TestMatrix<T> g(n, n), a(n, n, layout);
  fill_random(g, seed);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j <= i; ++j) {
      double sum = 0;
      for (index_t p = 0; p < n; ++p) sum += double(g(i, p)) * double(g(j, p));
      a(i, j) = a(j, i) = static_cast<T>(sum / n + (i == j ? 1.0 : 0.0));
    }
  return a;
}

// op_at(): element (i, j) of op(X).
template <class T>
T op_at(linalg::Op op, MatrixView<const T> x, index_t i, index_t j) {
  return op == linalg::Op::none ? x(i, j) : x(j, i);
}

// reference_gemm(): the naive triple loop, in double.
template <class T>
void reference_gemm(linalg::Op op_a, linalg::Op op_b, T alpha, MatrixView<const T> a,
                    MatrixView<const T> b, T beta, MatrixView<T> c) {
  const index_t k = op_a == linalg::Op::none ? a.cols : a.rows;
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t j = 0; j < c.cols; ++j) {
      double sum = 0;
      for (index_t p = 0; p < k; ++p)
        sum += double(op_at(op_a, a, i, p)) * double(op_at(op_b, b, p, j));
      c(i, j) = static_cast<T>(double(alpha) * sum +
                               (beta == T(0) ? 0.0 : double(beta) * double(c(i, j))));
    }
}

// max_abs_diff(): the largest |x - y| over all elements (same shapes).
template <class T>
double max_abs_diff(MatrixView<const T> x, MatrixView<const T> y) {
  double worst = 0;
  for (index_t i = 0; i < x.rows; ++i)
    for (index_t j = 0; j < x.cols; ++j)
      worst = std::max(worst, std::abs(double(x(i, j)) - double(y(i, j))));
  return worst;
}

// tolerance(): a relative error bound for reductions of length k.
template <class T>
double tolerance(index_t k) {
  return (sizeof(T) == 4 ? 2e-5 : 1e-12) * double(std::max<index_t>(k, 16));
}

}  // namespace teamla::engine::testing
