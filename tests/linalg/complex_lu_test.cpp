// SPDX-License-Identifier: Apache-2.0
// complex_lu_test.cpp: getrf, getrs, gesv, getri and laswp in std::complex<double> and
// std::complex<float> (linalg/src/factor/, the real LU's steps on the complex product).
//
// Covers: pivots, info and factors equal to reference LAPACK's zgetrf/cgetrf (loaded by dlopen)
// over square, tall and wide shapes, both layouts, serial, with small forced blocks and on teams
// of 2; the pivot chosen by |re| + |im| as izamax does, not by modulus; an exactly singular
// column; solves with op none, transpose and conjugate transpose; gesv; the inverse, and A
// untouched when U is singular; laswp; a conjugate-transpose op refused for nothing but complex.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "factor/lu_internal.hpp"
#include "linalg/team_param_test.hpp"
#include "teamla/linalg/lu.hpp"

namespace teamla::linalg {
namespace {

using Wide = std::complex<long double>;

template <class Z>
Wide wide(Z z) {
  return {z.real(), z.imag()};
}

template <class Z>
std::vector<Z> random_matrix(index_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Z> v(static_cast<std::size_t>(count));
  for (Z& z : v) {
    z = Z(static_cast<typename Z::value_type>(u(rng)), static_cast<typename Z::value_type>(u(rng)));
  }
  return v;
}

template <class Z>
double tolerance() {
  return std::is_same_v<Z, std::complex<double>> ? 1e-12 : 2e-5;
}

template <class Z>
using GetrfFn = void (*)(const int*, const int*, Z*, const int*, int*, int*);

template <class Z>
GetrfFn<Z> reference_getrf() {
  static void* lib =
      dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return nullptr;
  const bool dbl = std::is_same_v<Z, std::complex<double>>;
  return reinterpret_cast<GetrfFn<Z>>(dlsym(lib, dbl ? "zgetrf_" : "cgetrf_"));
}

// expect_as_lapack(): `a` (column-major m x n) factored by teamla on `exec` and by reference
// LAPACK: the same info and pivots, and factors within rounding.
template <class Z>
void expect_as_lapack(std::vector<Z> a, index_t m, index_t n, Exec& exec) {
  std::vector<Z> ref = a;
  const auto k = static_cast<std::size_t>(std::min(m, n));
  std::vector<int> ipiv(k, -1);
  std::vector<int> ref_ipiv(k, -1);
  const index_t info = getrf<Z>(col_major(a.data(), m, n), ipiv.data(), exec);
  const int mi = static_cast<int>(m);
  const int ni = static_cast<int>(n);
  const int ld = std::max(1, mi);
  int ref_info = -1;
  reference_getrf<Z>()(&mi, &ni, ref.data(), &ld, ref_ipiv.data(), &ref_info);
  EXPECT_EQ(info, ref_info);
  ASSERT_EQ(ipiv, ref_ipiv) << m << " x " << n;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, static_cast<double>(std::abs(wide(a[i]) - wide(ref[i]))));
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(std::max(m, n)));
}

template <class Z>
class ComplexLu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (reference_getrf<Z>() == nullptr) GTEST_SKIP() << "reference LAPACK not installed";
  }
};
using ComplexTypes = ::testing::Types<std::complex<double>, std::complex<float>>;
TYPED_TEST_SUITE(ComplexLu, ComplexTypes);

// Single precision's rounding differs between a blocked and an unblocked order enough to turn
// a near tie the other way past a hundred or so rows: its shapes stay below that.
TYPED_TEST(ComplexLu, PivotsAndFactorsEqualLapacks) {
  Exec exec;
  const index_t large = std::is_same_v<TypeParam, std::complex<double>> ? 300 : 90;
  for (const auto& [m, n] : {std::pair<index_t, index_t>{1, 1},
                             {7, 5},
                             {5, 7},
                             {37, 37},
                             {100, 60},
                             {60, 100},
                             {large, large}}) {
    expect_as_lapack(random_matrix<TypeParam>(m * n, static_cast<std::uint64_t>(m + 3 * n)), m, n,
                     exec);
  }
  level3_detail::set_getrf_block_override(16);  // many steps, a lookahead at each
  expect_as_lapack(random_matrix<TypeParam>(large * large, 5), large, large, exec);
  level3_detail::set_getrf_block_override(0);
}

// A row-major view of the same matrix factors as LAPACK factors the column-major one.
TYPED_TEST(ComplexLu, RowMajorAsLapacks) {
  using Z = TypeParam;
  const index_t m = 70;
  const index_t n = 50;
  const std::vector<Z> a = random_matrix<Z>(m * n, 21);
  std::vector<Z> rows(a.size());
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) rows[static_cast<std::size_t>(i * n + j)] = a[i + j * m];
  }
  std::vector<Z> ref = a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  std::vector<int> ref_ipiv(static_cast<std::size_t>(n));
  Exec exec;
  const index_t info =
      getrf<Z>(MatrixView<Z>{rows.data(), m, n, n, Layout::row_major}, ipiv.data(), exec);
  const int mi = static_cast<int>(m);
  const int ni = static_cast<int>(n);
  int ref_info = -1;
  reference_getrf<Z>()(&mi, &ni, ref.data(), &mi, ref_ipiv.data(), &ref_info);
  EXPECT_EQ(info, ref_info);
  EXPECT_EQ(ipiv, ref_ipiv);
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      worst = std::max(worst,
                       static_cast<double>(std::abs(wide(rows[i * n + j]) - wide(ref[i + j * m]))));
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(m));
}

// izamax compares |re| + |im|: 2 + 2i (4) beats 3 (3), though its modulus (2.83) is smaller.
TYPED_TEST(ComplexLu, PivotIsTheLargestSumOfParts) {
  using Z = TypeParam;
  std::vector<Z> a{Z(3, 0), Z(2, 2), Z(1, 0), Z(0, 1)};
  std::vector<int> ipiv(2);
  Exec exec;
  EXPECT_EQ(getrf<Z>(col_major(a.data(), 2, 2), ipiv.data(), exec), 0);
  EXPECT_EQ(ipiv[0], 2);
}

TYPED_TEST(ComplexLu, ZeroColumnInfoAsLapacks) {
  using Z = TypeParam;
  const index_t n = 40;
  std::vector<Z> a = random_matrix<Z>(n * n, 9);
  for (index_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + 17 * n)] = Z(0);
  Exec exec;
  expect_as_lapack(a, n, n, exec);
}

// check_solve(): getrs with `op` after getrf: op(A) X = B, multiplied back in long double.
template <class Z>
void check_solve(Op op, index_t n, index_t nrhs, Exec& exec) {
  const std::vector<Z> a = random_matrix<Z>(n * n, static_cast<std::uint64_t>(n));
  const std::vector<Z> b = random_matrix<Z>(n * nrhs, 77);
  std::vector<Z> lu = a;
  std::vector<Z> x = b;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ASSERT_EQ(getrf<Z>(col_major(lu.data(), n, n), ipiv.data(), exec), 0);
  getrs<Z>(op, col_major<const Z>(lu.data(), n, n), ipiv.data(), col_major(x.data(), n, nrhs),
           exec);
  double worst = 0;
  for (index_t j = 0; j < nrhs; ++j) {
    for (index_t i = 0; i < n; ++i) {
      Wide s = 0;
      for (index_t p = 0; p < n; ++p) {
        Wide e = wide(op == Op::none ? a[i + p * n] : a[p + i * n]);
        if (op == Op::conj_transpose) e = std::conj(e);
        s += e * wide(x[p + j * n]);
      }
      worst = std::max(worst, static_cast<double>(std::abs(s - wide(b[i + j * n]))));
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * 100 * static_cast<double>(n)) << "op " << int(op);
}

TYPED_TEST(ComplexLu, SolvesEveryOp) {
  Exec exec;
  for (Op op : {Op::none, Op::transpose, Op::conj_transpose}) {
    check_solve<TypeParam>(op, 70, 9, exec);
  }
}

TYPED_TEST(ComplexLu, GesvSolvesAndLeavesBOnSingular) {
  using Z = TypeParam;
  const index_t n = 50;
  const std::vector<Z> a = random_matrix<Z>(n * n, 3);
  std::vector<Z> lu = a;
  std::vector<Z> x(static_cast<std::size_t>(n), Z(1, -1));
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  Exec exec;
  ASSERT_EQ(gesv<Z>(col_major(lu.data(), n, n), ipiv.data(), col_major(x.data(), n, 1), exec), 0);
  for (index_t i = 0; i < n; ++i) {
    Wide s = 0;
    for (index_t p = 0; p < n; ++p) s += wide(a[i + p * n]) * wide(x[p]);
    EXPECT_LE(static_cast<double>(std::abs(s - Wide(1, -1))), tolerance<Z>() * 100 * n);
  }
  std::vector<Z> singular(static_cast<std::size_t>(n * n), Z(0));
  std::vector<Z> b(static_cast<std::size_t>(n), Z(2, 3));
  EXPECT_EQ(gesv<Z>(col_major(singular.data(), n, n), ipiv.data(), col_major(b.data(), n, 1), exec),
            1);
  for (const Z& z : b) EXPECT_EQ(z, Z(2, 3));
}

TYPED_TEST(ComplexLu, InverseTimesAIsIdentity) {
  using Z = TypeParam;
  for (index_t n : {5, 90, 200}) {
    const std::vector<Z> a = random_matrix<Z>(n * n, static_cast<std::uint64_t>(n));
    std::vector<Z> inv = a;
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    Exec exec;
    ASSERT_EQ(getrf<Z>(col_major(inv.data(), n, n), ipiv.data(), exec), 0);
    ASSERT_EQ(getri<Z>(col_major(inv.data(), n, n), ipiv.data(), exec), 0);
    double worst = 0;
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = 0; i < n; ++i) {
        Wide s = 0;
        for (index_t p = 0; p < n; ++p) s += wide(inv[i + p * n]) * wide(a[p + j * n]);
        worst = std::max(worst, static_cast<double>(std::abs(s - Wide(i == j ? 1 : 0))));
      }
    }
    EXPECT_LE(worst, tolerance<Z>() * 1000 * static_cast<double>(n)) << "n " << n;
  }
  std::vector<Z> u{Z(1), Z(0), Z(2), Z(0)};  // U(1, 1) = 0: no inverse, A untouched
  const std::vector<Z> before = u;
  std::vector<int> ipiv{1, 2};
  Exec exec;
  EXPECT_EQ(getri<Z>(col_major(u.data(), 2, 2), ipiv.data(), exec), 2);
  EXPECT_EQ(u, before);
}

TYPED_TEST(ComplexLu, LaswpBothDirections) {
  using Z = TypeParam;
  std::vector<Z> a{Z(1, 1), Z(2, 2), Z(3, 3)};
  const std::vector<int> ipiv{3, 3};
  laswp<Z>(col_major(a.data(), 3, 1), 1, 2, ipiv.data(), 1);
  EXPECT_EQ(a, (std::vector<Z>{Z(3, 3), Z(1, 1), Z(2, 2)}));
  laswp<Z>(col_major(a.data(), 3, 1), 1, 2, ipiv.data(), -1);
  EXPECT_EQ(a, (std::vector<Z>{Z(1, 1), Z(2, 2), Z(3, 3)}));
}

TEST(ComplexLuArguments, ConjTransposeOnlyForComplex) {
  std::vector<double> a(4, 1.0), b(2, 1.0);
  std::vector<int> ipiv{1, 2};
  Exec exec;
  EXPECT_THROW(getrs<double>(Op::conj_transpose, col_major<const double>(a.data(), 2, 2),
                             ipiv.data(), col_major(b.data(), 2, 1), exec),
               InvalidArgument);
}

using ComplexLuOnTeam = test::TeamParamTest;

TEST_P(ComplexLuOnTeam, FactorsAndSolvesAsSerial) {
  if (reference_getrf<std::complex<double>>() == nullptr) GTEST_SKIP() << "no reference LAPACK";
  Exec exec;
  exec.team = team_.get();
  expect_as_lapack(random_matrix<std::complex<double>>(600 * 600, 1), 600, 600, exec);
  EXPECT_GE(exec.stats.max_width_used, 2U) << "a 600 factorization on a team runs a section";
  level3_detail::set_getrf_block_override(32);
  expect_as_lapack(random_matrix<std::complex<double>>(300 * 260, 2), 300, 260, exec);
  level3_detail::set_getrf_block_override(0);
  check_solve<std::complex<double>>(Op::conj_transpose, 300, 200, exec);
}

INSTANTIATE_TEST_SUITE_P(Widths, ComplexLuOnTeam, ::testing::Values(2));

}  // namespace
}  // namespace teamla::linalg
