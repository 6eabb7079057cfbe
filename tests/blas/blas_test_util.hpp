// SPDX-License-Identifier: Apache-2.0
// blas_test_util.hpp: small checked workloads on libteamla_blas.so's exported routines, for
// the concurrency and fork tests. Each builds its own data (column-major, entries in
// [-1, 1]), calls the library, and checks the result against a naive computation.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "blas/blas_abi.hpp"

namespace teamla::blas_test {

// Matrices: column-major, random entries in [-1, 1].
inline std::vector<double> random_matrix(int rows, int cols, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  std::vector<double> values(static_cast<std::size_t>(rows) * cols);
  for (double& value : values) value = entry(generator);
  return values;
}

// max_gemm_error(): the largest |C - (alpha A B + beta C0)| for column-major A (m x k),
// B (k x n), computed naively.
inline double max_gemm_error(int m, int n, int k, double alpha, const std::vector<double>& a,
                             const std::vector<double>& b, double beta,
                             const std::vector<double>& c0, const std::vector<double>& c) {
  double worst = 0.0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p) sum += a[i + p * m] * b[p + j * k];
      const double expected = alpha * sum + beta * c0[i + j * m];
      worst = std::max(worst, std::abs(c[i + j * m] - expected));
    }
  }
  return worst;
}

// checked_dgemm(): runs dgemm_ on fresh data and reports whether the result is right.
inline bool checked_dgemm(int m, int n, int k, unsigned seed) {
  const auto a = random_matrix(m, k, seed);
  const auto b = random_matrix(k, n, seed + 1);
  const auto c0 = random_matrix(m, n, seed + 2);
  auto c = c0;
  const double alpha = 0.75;
  const double beta = -0.5;
  dgemm_("N", "N", &m, &n, &k, &alpha, a.data(), &m, b.data(), &k, &beta, c.data(), &m);
  return max_gemm_error(m, n, k, alpha, a, b, beta, c0, c) < 1e-11 * (k + 1);
}

// checked_cholesky(): factors and solves an SPD system with dpotrf_/dpotrs_.
inline bool checked_cholesky(int n, unsigned seed) {
  const auto g = random_matrix(n, n, seed);
  std::vector<double> spd(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      double sum = i == j ? n : 0.0;
      for (int p = 0; p < n; ++p) sum += g[i + p * n] * g[j + p * n];
      spd[i + j * n] = sum;
    }
  }
  const auto x = random_matrix(n, 1, seed + 3);
  std::vector<double> rhs(n, 0.0);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) rhs[i] += spd[i + j * n] * x[j];
  }
  auto factor = spd;
  int info = -1;
  dpotrf_("L", &n, factor.data(), &n, &info);
  if (info != 0) return false;
  const int one = 1;
  dpotrs_("L", &n, &one, factor.data(), &n, rhs.data(), &n, &info);
  if (info != 0) return false;
  for (int i = 0; i < n; ++i) {
    if (std::abs(rhs[i] - x[i]) > 1e-8) return false;
  }
  return true;
}

}  // namespace teamla::blas_test
