// SPDX-License-Identifier: Apache-2.0
// complex_cholesky_test.cpp: potrf and potrs of Hermitian positive definite matrices in
// std::complex<double> and std::complex<float> (linalg/src/factor/complex_cholesky.cpp).
//
// Covers: L L^H (lower) and U^H U (upper) reproduce A, in both layouts and at orders around
// the recursion's leaves, serially and on teams of 2 and 3; the other triangle is untouched;
// the factor's diagonal is real and the imaginary parts of A's diagonal are not read; info is
// the first column whose leading minor is not positive definite (a negative or NaN pivot);
// potrs solves A X = B; bad arguments throw before anything is written.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "linalg/team_param_test.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

template <class Z>
using Real = typename Z::value_type;

// hpd(): G G^H / n + I of a random G: Hermitian positive definite, well conditioned; the
// diagonal's imaginary parts set to `diagonal_imag` (which potrf must not read).
template <class Z>
std::vector<Z> hpd(index_t n, std::mt19937_64& rng, double diagonal_imag = 0) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<double>> g(static_cast<std::size_t>(n * n));
  for (auto& x : g) x = {u(rng), u(rng)};
  std::vector<Z> a(static_cast<std::size_t>(n * n));
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      std::complex<double> s = i == j ? 1.0 : 0.0;
      for (index_t k = 0; k < n; ++k) s += g[i + k * n] * std::conj(g[j + k * n]) / double(n);
      if (i == j) s = {s.real(), diagonal_imag};
      a[static_cast<std::size_t>(i + j * n)] =
          Z(static_cast<Real<Z>>(s.real()), static_cast<Real<Z>>(s.imag()));
    }
  }
  return a;
}

template <class Z>
double tolerance() {
  return std::is_same_v<Z, std::complex<double>> ? 1e-12 : 2e-4;
}

// check_factor(): potrf of A in `layout` (A Hermitian, so its storage reads the same) and the
// residual of the factor's product against A, on the triangle asked for.
template <class Z>
void check_factor(Uplo uplo, Layout layout, index_t n, team::Team* team) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 7 + static_cast<std::uint64_t>(uplo));
  const std::vector<Z> original = hpd<Z>(n, rng, 5.0);
  std::vector<Z> a = original;
  const MatrixView<Z> view{a.data(), n, n, n, layout};
  Exec exec;
  exec.team = team;
  ASSERT_EQ(potrf<Z>(uplo, view, exec), 0);
  const bool lower = uplo == Uplo::lower;
  // factor(i, j): L (lower) or U^H (upper), as a lower triangle.
  const auto factor = [&](index_t i, index_t j) -> std::complex<double> {
    if (j > i) return 0;
    const Z z = lower ? view(i, j) : std::conj(view(j, i));
    return {z.real(), z.imag()};
  };
  const MatrixView<const Z> before{original.data(), n, n, n, layout};
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    EXPECT_EQ(view(j, j).imag(), Real<Z>(0)) << "diagonal " << j;
    for (index_t i = j; i < n; ++i) {
      std::complex<double> s = 0;
      for (index_t k = 0; k <= j; ++k) s += factor(i, k) * std::conj(factor(j, k));
      const Z want = lower ? before(i, j) : std::conj(before(j, i));
      const std::complex<double> w = i == j ? std::complex<double>(want.real(), 0)
                                            : std::complex<double>(want.real(), want.imag());
      worst = std::max(worst, std::abs(s - w));
      // The other triangle is untouched.
      if (i > j) {
        const index_t r = lower ? j : i;
        const index_t c = lower ? i : j;
        ASSERT_EQ(view(r, c), before(r, c)) << "(" << r << ", " << c << ")";
      }
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(n)) << "n " << n;
}

template <class Z>
class ComplexCholesky : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<double>, std::complex<float>>;
TYPED_TEST_SUITE(ComplexCholesky, ComplexTypes);

TYPED_TEST(ComplexCholesky, FactorReproducesTheMatrix) {
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    for (Layout layout : {Layout::col_major, Layout::row_major}) {
      for (index_t n : {1, 2, 15, 16, 17, 33, 64, 100, 257}) {
        SCOPED_TRACE(::testing::Message() << "uplo " << static_cast<int>(uplo) << " layout "
                                          << static_cast<int>(layout) << " n " << n);
        check_factor<TypeParam>(uplo, layout, n, nullptr);
      }
    }
  }
}

TYPED_TEST(ComplexCholesky, InfoIsTheFirstColumnThatIsNotPositiveDefinite) {
  using Z = TypeParam;
  std::mt19937_64 rng(3);
  const index_t n = 90;
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    for (const index_t bad : {1, 17, 40, 90}) {
      for (const Real<Z> pivot : {Real<Z>(-1), std::numeric_limits<Real<Z>>::quiet_NaN()}) {
        std::vector<Z> a = hpd<Z>(n, rng);
        a[static_cast<std::size_t>((bad - 1) * (n + 1))] = Z(pivot, 0);
        Exec exec;
        EXPECT_EQ(potrf<Z>(uplo, col_major(a.data(), n, n), exec), bad)
            << "column " << bad << " pivot " << pivot;
      }
    }
  }
}

TYPED_TEST(ComplexCholesky, PotrsSolves) {
  using Z = TypeParam;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    for (const index_t n : {7, 70, 150}) {
      const index_t nrhs = 5;
      const std::vector<Z> original = hpd<Z>(n, rng);
      std::vector<Z> a = original;
      std::vector<Z> b(static_cast<std::size_t>(n * nrhs));
      for (Z& x : b) x = Z(static_cast<Real<Z>>(u(rng)), static_cast<Real<Z>>(u(rng)));
      std::vector<Z> x = b;
      Exec exec;
      ASSERT_EQ(potrf<Z>(uplo, col_major(a.data(), n, n), exec), 0);
      potrs<Z>(uplo, col_major<const Z>(a.data(), n, n), col_major(x.data(), n, nrhs), exec);
      double worst = 0;
      for (index_t j = 0; j < nrhs; ++j) {
        for (index_t i = 0; i < n; ++i) {
          std::complex<double> s = 0;
          for (index_t k = 0; k < n; ++k) {
            const Z aik = original[static_cast<std::size_t>(i + k * n)];
            const Z xk = x[static_cast<std::size_t>(k + j * n)];
            s += std::complex<double>(aik.real(), i == k ? 0 : aik.imag()) *
                 std::complex<double>(xk.real(), xk.imag());
          }
          const Z bij = b[static_cast<std::size_t>(i + j * n)];
          worst = std::max(worst, std::abs(s - std::complex<double>(bij.real(), bij.imag())));
        }
      }
      EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(n)) << "n " << n;
    }
  }
}

TEST(ComplexCholeskyArguments, BadArgumentsThrowBeforeWriting) {
  using Z = std::complex<double>;
  std::vector<Z> a(12, Z(2));
  Exec exec;
  EXPECT_THROW((void)potrf<Z>(Uplo::lower, col_major(a.data(), 3, 4), exec), InvalidArgument);
  EXPECT_THROW((void)potrf<Z>(static_cast<Uplo>(9), col_major(a.data(), 3, 3), exec),
               InvalidArgument);
  std::vector<Z> b(8, Z(1));
  EXPECT_THROW(
      potrs<Z>(Uplo::lower, col_major<const Z>(a.data(), 3, 3), col_major(b.data(), 4, 2), exec),
      InvalidArgument);
  for (const Z& z : a) EXPECT_EQ(z, Z(2));
  for (const Z& z : b) EXPECT_EQ(z, Z(1));
}

using ComplexCholeskyOnTeam = test::TeamParamTest;

TEST_P(ComplexCholeskyOnTeam, FactorReproducesTheMatrix) {
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    check_factor<std::complex<double>>(uplo, Layout::col_major, 300, team_.get());
    check_factor<std::complex<float>>(uplo, Layout::row_major, 200, team_.get());
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, ComplexCholeskyOnTeam, ::testing::Values(2, 3));

}  // namespace
}  // namespace teamla::linalg
