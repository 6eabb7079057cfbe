// SPDX-License-Identifier: Apache-2.0
// blas_faults_test.cpp: libteamla_blas.so returns right results, and keeps its host process
// alive, when the system refuses it threads or memory (fault_injection.hpp), in every mode
// (TEAMLA_MODE) at 1 and 2 threads. Each test runs in its own process (gtest_discover_tests),
// so the process engine is built under the test's fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "blas/blas_test_util.hpp"
#include "faults/fault_injection.hpp"

namespace teamla::faults {
namespace {

using blas_test::random_matrix;

// GemmCall: dgemm_ on buffers made before any fault is armed, checked after it is lifted.
struct GemmCall {
  explicit GemmCall(int size)
      : n(size),
        a(random_matrix(n, n, 1)),
        b(random_matrix(n, n, 2)),
        c0(random_matrix(n, n, 3)),
        c(c0) {}
  void run() {
    const double alpha = 0.75;
    const double beta = -0.5;
    dgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
  }
  [[nodiscard]] bool right() const {
    return blas_test::max_gemm_error(n, n, n, 0.75, a, b, -0.5, c0, c) < 1e-11 * (n + 1);
  }
  int n;
  std::vector<double> a, b, c0, c;
};

// CholeskyCall: dpotrf_ and dpotrs_ on an SPD system with a known solution.
struct CholeskyCall {
  explicit CholeskyCall(int size) : n(size), x(random_matrix(n, 1, 7)), rhs(n, 0.0) {
    const auto g = random_matrix(n, n, 5);
    factor.assign(static_cast<std::size_t>(n) * n, 0.0);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        double sum = i == j ? n : 0.0;
        for (int p = 0; p < n; ++p) sum += g[i + p * n] * g[j + p * n];
        factor[i + j * n] = sum;
      }
    }
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) rhs[i] += factor[i + j * n] * x[j];
    }
  }
  void run() {
    dpotrf_("L", &n, factor.data(), &n, &info);
    const int one = 1;
    if (info == 0) dpotrs_("L", &n, &one, factor.data(), &n, rhs.data(), &n, &info);
  }
  [[nodiscard]] bool right() const {
    if (info != 0) return false;
    for (int i = 0; i < n; ++i) {
      if (std::abs(rhs[i] - x[i]) > 1e-8) return false;
    }
    return true;
  }
  int n;
  std::vector<double> x, rhs, factor;
  int info = -1;
};

// TrsmSyrkCall: dtrsm_ (left, lower) and dsyrk_ (lower) on one n x n operand, and sgemm_.
struct TrsmSyrkCall {
  explicit TrsmSyrkCall(int size)
      : n(size),
        tri(random_matrix(n, n, 11)),
        b0(random_matrix(n, n, 12)),
        x(b0),
        c0(random_matrix(n, n, 13)),
        c(c0) {
    for (int j = 0; j < n; ++j) tri[j + j * n] = n;  // well conditioned
    for (int i = 0; i < n * n; ++i) {
      fa.push_back(static_cast<float>(tri[i]));
      fb.push_back(static_cast<float>(b0[i]));
      fc.push_back(0.0f);
    }
  }
  void run() {
    const double one = 1.0;
    dtrsm_("L", "L", "N", "N", &n, &n, &one, tri.data(), &n, x.data(), &n);
    dsyrk_("L", "N", &n, &n, &one, b0.data(), &n, &one, c.data(), &n);
    const float fone = 1.0f, fzero = 0.0f;
    sgemm_("N", "N", &n, &n, &n, &fone, fa.data(), &n, fb.data(), &n, &fzero, fc.data(), &n);
  }
  // right(): L X = B on the lower triangle L of `tri`; C = B B^T + C0 on the lower triangle;
  // the float product against a double one.
  [[nodiscard]] bool right() const {
    double worst_trsm = 0, worst_syrk = 0, worst_sgemm = 0;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        double lx = 0, bbt = 0, ab = 0;
        for (int p = 0; p <= i; ++p) lx += tri[i + p * n] * x[p + j * n];
        for (int p = 0; p < n; ++p) {
          bbt += b0[i + p * n] * b0[j + p * n];
          ab += double(fa[i + p * n]) * double(fb[p + j * n]);
        }
        worst_trsm = std::max(worst_trsm, std::abs(lx - b0[i + j * n]));
        if (i >= j) worst_syrk = std::max(worst_syrk, std::abs(c[i + j * n] - bbt - c0[i + j * n]));
        worst_sgemm = std::max(worst_sgemm, std::abs(double(fc[i + j * n]) - ab));
      }
    }
    return worst_trsm < 1e-10 && worst_syrk < 1e-11 * n && worst_sgemm < 1e-5 * n * n;
  }
  int n;
  std::vector<double> tri, b0, x, c0, c;
  std::vector<float> fa, fb, fc;
};

// LuCall: dgesv_ on a general system with a known solution.
struct LuCall {
  explicit LuCall(int size)
      : n(size),
        a0(random_matrix(n, n, 11)),
        x(random_matrix(n, 1, 12)),
        rhs(n, 0.0),
        a(a0),
        solution(rhs),
        ipiv(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) a0[i + i * n] += 4.0;  // well conditioned
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) rhs[i] += a0[i + j * n] * x[j];
    }
  }
  // run() allocates nothing of its own: the buffers were made before any fault is armed.
  void run() {
    std::copy(a0.begin(), a0.end(), a.begin());
    std::copy(rhs.begin(), rhs.end(), solution.begin());
    const int one = 1;
    dgesv_(&n, &one, a.data(), &n, ipiv.data(), solution.data(), &n, &info);
  }
  [[nodiscard]] bool right() const {
    double worst = 0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(solution[i] - x[i]));
    return info == 0 && worst < 1e-9;
  }
  int n;
  int info = -1;
  std::vector<double> a0, x, rhs, a, solution;
  std::vector<int> ipiv;
};

// ComplexCall: zgemm_ (C = A^H B, complex alpha), zposv_ and zgesv_ on a Hermitian positive
// definite system with a known solution, and zhemm_ by its lower triangle, complex*16 values as
// pairs of doubles.
struct ComplexCall {
  using Z = std::complex<double>;
  explicit ComplexCall(int size)
      : n(size), a(pairs(11)), b(pairs(12)), c(static_cast<std::size_t>(2 * n * n)), x(pairs(13)) {
    hpd.assign(static_cast<std::size_t>(2 * n * n), 0.0);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        Z sum = i == j ? Z(4.0 * n) : Z(0);
        for (int p = 0; p < n; ++p) sum += at(a, i, p) * std::conj(at(a, j, p));
        set(hpd, i, j, sum);
      }
    }
    rhs.assign(static_cast<std::size_t>(2 * n), 0.0);
    for (int i = 0; i < n; ++i) {
      Z sum = 0;
      for (int j = 0; j < n; ++j) sum += at(hpd, i, j) * Z(x[2 * j], x[2 * j + 1]);
      rhs[2 * i] = sum.real();
      rhs[2 * i + 1] = sum.imag();
    }
    factor = hpd;
    solution = rhs;
    general = hpd;
    general_solution = rhs;
    product.assign(c.size(), 0.0);
    ipiv.assign(static_cast<std::size_t>(n), 0);
  }
  // run() allocates nothing of its own: the buffers were made before any fault is armed.
  void run() {
    const double alpha[2] = {0.5, -1.0};
    const double beta[2] = {0.0, 0.0};
    zgemm_("C", "N", &n, &n, &n, alpha, a.data(), &n, b.data(), &n, beta, c.data(), &n);
    std::copy(hpd.begin(), hpd.end(), factor.begin());
    std::copy(rhs.begin(), rhs.end(), solution.begin());
    const int one = 1;
    zposv_("L", &n, &one, factor.data(), &n, solution.data(), &n, &info);
    std::copy(hpd.begin(), hpd.end(), general.begin());
    std::copy(rhs.begin(), rhs.end(), general_solution.begin());
    zgesv_(&n, &one, complex_data(general), &n, ipiv.data(), complex_data(general_solution), &n,
           &general_info);
    const Z unit(1), none(0);
    zhemm_("L", "L", &n, &n, &unit, complex_data(hpd), &n, complex_data(b), &n, &none,
           complex_data(product), &n);
  }
  static Z* complex_data(std::vector<double>& m) { return reinterpret_cast<Z*>(m.data()); }
  [[nodiscard]] bool right() const {
    double worst = 0;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        Z sum = 0;
        for (int p = 0; p < n; ++p) sum += std::conj(at(a, p, i)) * at(b, p, j);
        worst = std::max(worst, std::abs(Z(0.5, -1.0) * sum - at(c, i, j)));
      }
    }
    for (int i = 0; i < n; ++i) {
      const Z want(x[2 * i], x[2 * i + 1]);
      worst = std::max(worst, std::abs(Z(solution[2 * i], solution[2 * i + 1]) - want) * n);
      worst = std::max(
          worst, std::abs(Z(general_solution[2 * i], general_solution[2 * i + 1]) - want) * n);
    }
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        Z sum = 0;
        for (int p = 0; p < n; ++p) sum += at(hpd, i, p) * at(b, p, j);
        worst = std::max(worst, std::abs(sum - at(product, i, j)) / n);
      }
    }
    return info == 0 && general_info == 0 && worst < 1e-9 * n;
  }
  std::vector<double> pairs(int seed) const { return random_matrix(2 * n, n, seed); }
  Z at(const std::vector<double>& m, int i, int j) const {
    return {m[2 * (i + j * n)], m[2 * (i + j * n) + 1]};
  }
  void set(std::vector<double>& m, int i, int j, Z z) const {
    m[2 * (i + j * n)] = z.real();
    m[2 * (i + j * n) + 1] = z.imag();
  }
  int n;
  int info = -1;
  int general_info = -1;
  std::vector<double> a, b, c, x, hpd, rhs, factor, solution, general, general_solution, product;
  std::vector<int> ipiv;
};

class BlasFaults : public ::testing::TestWithParam<std::tuple<const char*, int>> {
 protected:
  void SetUp() override {
    setenv("TEAMLA_MODE", std::get<0>(GetParam()), 1);
    setenv("TEAMLA_NUM_THREADS", std::to_string(std::get<1>(GetParam())).c_str(), 1);
  }
};

// EveryRoutine: dgemm_ at 64 and 600, dpotrf_ + dpotrs_, dgesv_, dtrsm_, dsyrk_ and sgemm_
// at `size`, zgemm_, zposv_, zgesv_ and zhemm_ at half of it, made under the fault that `arm` sets
// and checked after it is lifted.
struct EveryRoutine {
  explicit EveryRoutine(int size) : cholesky(size), lu(size), others(size), complex(size / 2) {}
  template <class Arm>
  void run_under(Arm&& arm) {
    Armed refused(arm);
    small.run();
    large.run();
    cholesky.run();
    lu.run();
    others.run();
    complex.run();
  }
  void expect_right() const {
    EXPECT_TRUE(small.right());
    EXPECT_TRUE(large.right());
    EXPECT_TRUE(cholesky.right());
    EXPECT_TRUE(lu.right());
    EXPECT_TRUE(others.right());
    EXPECT_TRUE(complex.right());
  }
  GemmCall small{64}, large{600};
  CholeskyCall cholesky;
  LuCall lu;
  TrsmSyrkCall others;
  ComplexCall complex;
};

TEST_P(BlasFaults, EveryThreadRefused) {
  EveryRoutine calls(300);
  calls.run_under([] { refuse_threads(); });
  calls.expect_right();
  const bool wants_workers =
      std::string(std::get<0>(GetParam())) != "serial" && std::get<1>(GetParam()) > 1;
  EXPECT_EQ(threads_refused() > 0, wants_workers) << "the fault met the pool's thread starts";
}

TEST_P(BlasFaults, LargeAllocationsRefused) {
  EveryRoutine calls(600);  // every packed buffer of n = 600 is 1 MiB or more
  calls.run_under([] { refuse_allocations_from(std::size_t{1} << 20); });
  calls.expect_right();
  EXPECT_GT(allocations_refused(), 0u);
}

TEST_P(BlasFaults, EachAllocationRefusedInTurn) {
  // The first k - 1 allocations are granted and the k-th refused, from the process's first
  // call on (the engine's construction included), for every k the calls make.
  std::uint64_t k = 1;
  std::uint64_t made = 0;
  for (; k <= 2000; ++k) {
    GemmCall gemm(200);
    CholeskyCall cholesky(150);
    LuCall lu(300);
    ComplexCall complex(120);
    {
      Armed refused([k] { refuse_nth_allocation(k); });
      gemm.run();
      cholesky.run();
      lu.run();
      complex.run();
      made = allocations_seen();
    }
    ASSERT_TRUE(gemm.right()) << "allocation " << k << " refused";
    ASSERT_TRUE(cholesky.right()) << "allocation " << k << " refused";
    ASSERT_TRUE(lu.right()) << "allocation " << k << " refused";
    ASSERT_TRUE(complex.right()) << "allocation " << k << " refused";
    if (made < k) break;
  }
  EXPECT_LT(made, k) << "the sweep did not reach the end of the calls";
}

std::string name_of(const ::testing::TestParamInfo<std::tuple<const char*, int>>& info) {
  return std::string(std::get<0>(info.param)) + "_" + std::to_string(std::get<1>(info.param)) + "t";
}

INSTANTIATE_TEST_SUITE_P(Modes, BlasFaults,
                         ::testing::Combine(::testing::Values("held", "per_call", "serial"),
                                            ::testing::Values(1, 2)),
                         name_of);

}  // namespace
}  // namespace teamla::faults
