// SPDX-License-Identifier: Apache-2.0
// lu_test.cpp: linalg::getrf, getrs, gesv, getri and laswp against naive oracles and reference
// LAPACK.
//
// Covers: the residual ||P A - L U|| over square, tall and wide shapes (leaf, panel and block
// boundaries), both layouts, padded ld (the padding untouched), double and float, every ISA
// path, serial and on teams of 2 and 3, with small forced blocks (many steps, lookahead at
// every one) and a team member that never starts; pivots and info equal to reference LAPACK's
// dgetrf, exact zero pivots and NaN included; solves with op none and transpose; gesv leaving
// B untouched on a singular A; the inverse, and A untouched when U is singular; laswp in both
// directions and with a strided ipiv; bad input rejected with nothing written.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <random>
#include <vector>

#include "factor/lu_internal.hpp"
#include "linalg/chol_test_util.hpp"
#include "teamla/linalg/lu.hpp"

namespace teamla::test {
namespace {

using linalg::Exec;
using linalg::Op;

template <class T>
void fill_random(Padded<T>& a, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (index_t j = 0; j < a.cols; ++j)
    for (index_t i = 0; i < a.rows; ++i) a.at(i, j) = static_cast<T>(dist(rng));
}

template <class T>
long double eps() {
  return std::numeric_limits<T>::epsilon();
}

// permuted(): the rows of `a` with getrf's interchanges applied in order (P A).
template <class T>
std::vector<long double> permuted(const Padded<T>& a, const std::vector<int>& ipiv) {
  const index_t m = a.rows;
  const index_t n = a.cols;
  std::vector<long double> pa(static_cast<std::size_t>(m * n));
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) pa[i + j * m] = a.at(i, j);
  for (std::size_t i = 0; i < ipiv.size(); ++i) {
    const index_t p = ipiv[i] - 1;
    for (index_t j = 0; j < n; ++j) std::swap(pa[i + j * m], pa[p + j * m]);
  }
  return pa;
}

// lu_residual(): max |P A - L U| / (k max|A| eps), L and U read from the factored `f`; exact
// for small shapes, probed with 4 random vectors (||P A x - L (U x)||) for large ones.
template <class T>
long double lu_residual(const Padded<T>& a, const Padded<T>& f, const std::vector<int>& ipiv) {
  const index_t m = a.rows;
  const index_t n = a.cols;
  const index_t k = std::min(m, n);
  const auto l = [&](index_t i, index_t p) -> long double {
    return i == p ? 1.0L : (i > p ? (long double)f.at(i, p) : 0.0L);
  };
  const auto u = [&](index_t p, index_t j) -> long double {
    return p <= j ? (long double)f.at(p, j) : 0.0L;
  };
  const std::vector<long double> pa = permuted(a, ipiv);
  long double amax = 0;
  for (long double v : pa) amax = std::max(amax, std::fabs(v));
  if (amax == 0 || k == 0) return 0;
  long double worst = 0;
  if (m * n * k <= 40'000'000) {
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = 0; i < m; ++i) {
        long double s = 0;
        for (index_t p = 0; p <= std::min({i, j, k - 1}); ++p) s += l(i, p) * u(p, j);
        worst = std::max(worst, std::fabs(s - pa[i + j * m]));
      }
    }
    return worst / (static_cast<long double>(k) * amax * eps<T>());
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int probe = 0; probe < 4; ++probe) {
    std::vector<long double> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = dist(rng);
    std::vector<long double> ux(static_cast<std::size_t>(k), 0.0L);
    for (index_t j = 0; j < n; ++j)
      for (index_t p = 0; p <= std::min(j, k - 1); ++p) ux[p] += u(p, j) * x[j];
    for (index_t i = 0; i < m; ++i) {
      long double lux = 0;
      long double pax = 0;
      for (index_t p = 0; p <= std::min(i, k - 1); ++p) lux += l(i, p) * ux[p];
      for (index_t j = 0; j < n; ++j) pax += pa[i + j * m] * x[j];
      worst = std::max(worst, std::fabs(lux - pax) / static_cast<long double>(n));
    }
  }
  return worst / (static_cast<long double>(k) * amax * eps<T>());
}

// The storage outside the view (the padding) still holds the fill value.
template <class T>
void expect_padding_kept(const Padded<T>& f, T fill) {
  const index_t inner = f.layout == Layout::col_major ? f.rows : f.cols;
  const index_t outer = f.layout == Layout::col_major ? f.cols : f.rows;
  for (index_t o = 0; o < outer; ++o) {
    for (index_t i = inner; i < f.ld; ++i) {
      ASSERT_EQ(f.storage[static_cast<std::size_t>(i + o * f.ld)], fill) << "padding written";
    }
  }
}

template <class T>
void check_factor(index_t m, index_t n, Layout layout, index_t pad, Exec& exec,
                  std::uint64_t seed) {
  const T fill = T(-7.25);
  Padded<T> a(m, n, layout, pad, fill);
  fill_random(a, seed);
  Padded<T> f = a;
  std::vector<int> ipiv(static_cast<std::size_t>(std::min(m, n)), -1);
  const index_t info = linalg::getrf(f.view(), ipiv.data(), exec);
  SCOPED_TRACE(testing::Message() << m << " x " << n << " " << layout_name(layout) << " pad " << pad
                                  << (sizeof(T) == 8 ? " double" : " float"));
  EXPECT_EQ(info, 0);
  for (std::size_t i = 0; i < ipiv.size(); ++i) {
    ASSERT_GE(ipiv[i], static_cast<int>(i) + 1);
    ASSERT_LE(ipiv[i], m);
  }
  EXPECT_LT(lu_residual(a, f, ipiv), 4.0L);
  expect_padding_kept(f, fill);
}

TEST(Getrf, ResidualOverShapes) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    Exec exec;
    for (index_t n : {1, 2, 3, 15, 16, 17, 33, 64, 100, 129, 257}) {
      check_factor<double>(n, n, Layout::col_major, 3, exec, static_cast<std::uint64_t>(n));
      check_factor<float>(n, n, Layout::row_major, 2, exec, static_cast<std::uint64_t>(n) + 1);
    }
    check_factor<double>(300, 70, Layout::col_major, 1, exec, 3);  // tall
    check_factor<double>(70, 300, Layout::row_major, 0, exec, 4);  // wide
    check_factor<float>(513, 200, Layout::col_major, 0, exec, 5);
    check_factor<float>(40, 0, Layout::col_major, 0, exec, 6);
  }
}

// Small blocks: many steps, every one with its own interchanges for the columns left of it.
TEST(Getrf, ResidualWithSmallBlocks) {
  linalg::level3_detail::set_getrf_block_override(32);
  Exec exec;
  check_factor<double>(300, 300, Layout::col_major, 2, exec, 8);
  check_factor<double>(250, 130, Layout::row_major, 1, exec, 9);
  check_factor<float>(130, 250, Layout::col_major, 0, exec, 10);
  linalg::level3_detail::set_getrf_block_override(0);
}

TEST(Getrf, ResidualLarge) {
  Exec exec;
  for (index_t n : {511, 1024, 1300}) {
    check_factor<double>(n, n, Layout::col_major, 5, exec, static_cast<std::uint64_t>(n));
    check_factor<float>(n, n - 13, Layout::col_major, 0, exec, static_cast<std::uint64_t>(n));
  }
}

TEST(Getrf, ResidualOnTeams) {
  for (std::size_t width : {2u, 3u}) {
    TeamHolder holder(width);
    Exec exec;
    exec.team = holder.team.get();
    for (index_t n : {5, 300, 700}) {
      check_factor<double>(n, n, Layout::col_major, 3, exec, 31 * n);
      check_factor<float>(n, n + 40, Layout::row_major, 1, exec, 37 * n);
    }
    check_factor<double>(1100, 1100, Layout::col_major, 0, exec, 5);
    EXPECT_GE(exec.stats.sections, 1u) << "a 1100 factorization on a team runs some section";
    EXPECT_GE(exec.stats.max_width_used, 2u);
    check_factor<double>(20, 20, Layout::col_major, 0, exec, 5);
    EXPECT_EQ(exec.stats.sections, 0u) << "a 20 x 20 factorization is not worth a section";
    // Forced small blocks: many wide steps, each factoring the next panel ahead.
    linalg::level3_detail::set_getrf_block_override(48);
    check_factor<double>(900, 900, Layout::col_major, 0, exec, 6);
    check_factor<float>(700, 500, Layout::row_major, 0, exec, 7);
    linalg::level3_detail::set_getrf_block_override(0);
  }
}

// A team whose member is held before it serves anything: every claimed section goes on without
// it, and the factorization is right.
TEST(Getrf, OnATeamWhoseMemberNeverStarted) {
  HeldMemberTeam held;
  Exec exec;
  exec.team = held.team.get();
  check_factor<double>(1200, 1200, Layout::col_major, 1, exec, 7);
  check_factor<float>(600, 600, Layout::row_major, 0, exec, 11);
  EXPECT_GE(held.pool->counters().members_left_out, 1U) << "the held member was left out";
}

// ---- against reference LAPACK -----------------------------------------------------------

template <class T>
using GetrfFn = void (*)(const int*, const int*, T*, const int*, int*, int*);

template <class T>
GetrfFn<T> reference_getrf() {
  static void* lib =
      dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return nullptr;
  return reinterpret_cast<GetrfFn<T>>(dlsym(lib, sizeof(T) == 8 ? "dgetrf_" : "sgetrf_"));
}

struct Factored {
  std::vector<double> a;
  std::vector<int> ipiv;
  index_t info = 0;
};

// factor_both(): `a` (column-major m x n) factored by teamla (on `exec`) and by reference LAPACK.
std::pair<Factored, Factored> factor_both(const std::vector<double>& a, index_t m, index_t n,
                                          Exec& exec) {
  Factored ours{a, std::vector<int>(static_cast<std::size_t>(std::min(m, n))), 0};
  Factored ref = ours;
  ours.info = linalg::getrf(linalg::col_major(ours.a.data(), m, n), ours.ipiv.data(), exec);
  const int mi = static_cast<int>(m);
  const int ni = static_cast<int>(n);
  const int ld = std::max(1, mi);
  int info = 0;
  reference_getrf<double>()(&mi, &ni, ref.a.data(), &ld, ref.ipiv.data(), &info);
  ref.info = info;
  return {ours, ref};
}

class GetrfReference : public ::testing::Test {
 protected:
  void SetUp() override {
    if (reference_getrf<double>() == nullptr) GTEST_SKIP() << "reference LAPACK not installed";
  }
};

TEST_F(GetrfReference, PivotsEqualLapacks) {
  TeamHolder holder(2);
  for (bool on_team : {false, true}) {
    Exec exec;
    if (on_team) exec.team = holder.team.get();
    for (auto [m, n] : {std::pair<index_t, index_t>{200, 200}, {700, 700}, {400, 150}, {90, 260}}) {
      Padded<double> a(m, n, Layout::col_major, 0);
      fill_random(a, static_cast<std::uint64_t>(m * 1000 + n));
      const auto [ours, ref] = factor_both(a.storage, m, n, exec);
      EXPECT_EQ(ours.ipiv, ref.ipiv) << m << " x " << n << (on_team ? " on a team" : "");
      EXPECT_EQ(ours.info, 0);
    }
  }
}

// Exactly singular: column c is zero, so U(c, c) is exactly 0 whatever the rounding. info names
// it, and the factorization is completed with the same pivots as LAPACK's.
TEST_F(GetrfReference, ZeroPivotInfoEqualsLapacks) {
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  for (auto [n, c] : {std::pair<index_t, index_t>{50, 0}, {50, 49}, {300, 17}, {600, 333}}) {
    Padded<double> a(n, n, Layout::col_major, 0);
    fill_random(a, static_cast<std::uint64_t>(n + c));
    for (index_t i = 0; i < n; ++i) a.at(i, c) = 0;
    const auto [ours, ref] = factor_both(a.storage, n, n, exec);
    EXPECT_EQ(ours.info, c + 1) << n << " singular at " << c;
    EXPECT_EQ(ours.info, ref.info);
    EXPECT_EQ(ours.ipiv, ref.ipiv);
  }
}

// Inf: the same pivots as LAPACK (Inf is a largest entry like any other), and NaN exactly where
// LAPACK has NaN.
TEST_F(GetrfReference, InfPivotsAsLapacks) {
  const index_t n = 150;
  Padded<double> a(n, n, Layout::col_major, 0);
  fill_random(a, 99);
  a.at(40, 30) = std::numeric_limits<double>::infinity();
  Exec exec;
  const auto [ours, ref] = factor_both(a.storage, n, n, exec);
  EXPECT_EQ(ours.info, ref.info);
  EXPECT_EQ(ours.ipiv, ref.ipiv);
  for (std::size_t i = 0; i < ours.a.size(); ++i) {
    ASSERT_EQ(std::isnan(ours.a[i]), std::isnan(ref.a[i])) << "element " << i;
  }
}

// NaN: a NaN is never the largest entry (idamax), so the pivots before its column and at it are
// LAPACK's, the columns before it stay free of NaN, and the NaN spreads into the factors. Past
// that, where a row of NaN is chosen depends on the BLAS's idamax (the reference loaded here
// runs on the system's BLAS), so the rest is not compared.
TEST_F(GetrfReference, NanPropagates) {
  const index_t n = 150;
  const index_t c = 30;
  Padded<double> a(n, n, Layout::col_major, 0);
  fill_random(a, 99);
  a.at(40, c) = std::numeric_limits<double>::quiet_NaN();
  Exec exec;
  const auto [ours, ref] = factor_both(a.storage, n, n, exec);
  EXPECT_EQ(ours.info, 0);
  EXPECT_TRUE(std::equal(ours.ipiv.begin(), ours.ipiv.begin() + c + 1, ref.ipiv.begin()));
  const auto nan_at = [&](index_t i, index_t j) { return std::isnan(ours.a[i + j * n]); };
  index_t nans = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      if (j < c) {
        ASSERT_FALSE(nan_at(i, j)) << "NaN left of its column at " << i << ", " << j;
      }
      nans += nan_at(i, j) ? 1 : 0;
    }
  }
  EXPECT_GT(nans, n - c) << "the NaN spread along its row of L and the trailing matrix";
}

// ---- solves and the inverse ---------------------------------------------------------------

// solve_residual(): max |op(A) X - B| / (n max|A| max|X| eps).
template <class T>
long double solve_residual(const Padded<T>& a, Op op, const Padded<T>& x, const Padded<T>& b) {
  const index_t n = a.rows;
  long double worst = 0;
  long double amax = 0;
  long double xmax = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs((long double)a.at(i, j)));
  for (index_t j = 0; j < x.cols; ++j) {
    for (index_t i = 0; i < n; ++i) xmax = std::max(xmax, std::fabs((long double)x.at(i, j)));
    for (index_t i = 0; i < n; ++i) {
      long double s = 0;
      for (index_t p = 0; p < n; ++p) {
        s += (long double)(op == Op::none ? a.at(i, p) : a.at(p, i)) * x.at(p, j);
      }
      worst = std::max(worst, std::fabs(s - (long double)b.at(i, j)));
    }
  }
  return worst / (static_cast<long double>(n) * amax * std::max(xmax, 1.0L) * eps<T>());
}

template <class T>
void check_getrs(index_t n, index_t nrhs, Op op, Layout layout, Exec& exec) {
  Padded<T> a(n, n, layout, 1);
  fill_random(a, static_cast<std::uint64_t>(n * 3 + nrhs));
  Padded<T> b(n, nrhs, Layout::col_major, 2);
  fill_random(b, static_cast<std::uint64_t>(n + 11));
  Padded<T> f = a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ASSERT_EQ(linalg::getrf(f.view(), ipiv.data(), exec), 0);
  Padded<T> x = b;
  linalg::getrs(op, f.cview(), ipiv.data(), x.view(), exec);
  EXPECT_LT(solve_residual(a, op, x, b), 50.0L)
      << n << " x " << nrhs << (op == Op::none ? " N" : " T") << " " << layout_name(layout);
}

TEST(Getrs, SolvesBothOps) {
  TeamHolder holder(2);
  for (bool on_team : {false, true}) {
    Exec exec;
    if (on_team) exec.team = holder.team.get();
    for (Op op : {Op::none, Op::transpose}) {
      for (index_t n : {1, 7, 64, 300}) {
        check_getrs<double>(n, 1, op, Layout::col_major, exec);
        check_getrs<double>(n, 37, op, Layout::row_major, exec);
        check_getrs<float>(n, 5, op, Layout::col_major, exec);
      }
    }
  }
}

TEST(Gesv, SolvesAndLeavesBUntouchedWhenSingular) {
  Exec exec;
  const index_t n = 120;
  Padded<double> a(n, n, Layout::col_major, 0);
  fill_random(a, 3);
  Padded<double> b(n, 3, Layout::col_major, 0);
  fill_random(b, 4);
  Padded<double> f = a;
  Padded<double> x = b;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  EXPECT_EQ(linalg::gesv(f.view(), ipiv.data(), x.view(), exec), 0);
  EXPECT_LT(solve_residual(a, Op::none, x, b), 50.0L);

  for (index_t i = 0; i < n; ++i) a.at(i, 50) = 0;
  f = a;
  x = b;
  EXPECT_EQ(linalg::gesv(f.view(), ipiv.data(), x.view(), exec), 51);
  EXPECT_EQ(x.storage, b.storage) << "B is untouched when U is singular";
}

template <class T>
void check_inverse(index_t n, Layout layout, Exec& exec, std::span<T> work = {}) {
  Padded<T> a(n, n, layout, 1, T(3));
  fill_random(a, static_cast<std::uint64_t>(n + 5));
  Padded<T> f = a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ASSERT_EQ(linalg::getrf(f.view(), ipiv.data(), exec), 0);
  ASSERT_EQ(linalg::getri(f.view(), ipiv.data(), exec, work), 0);
  // A * inv(A) = I
  long double worst = 0;
  long double amax = 0;
  long double imax = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      amax = std::max(amax, std::fabs((long double)a.at(i, j)));
      imax = std::max(imax, std::fabs((long double)f.at(i, j)));
    }
  }
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      long double s = 0;
      for (index_t p = 0; p < n; ++p) s += (long double)a.at(i, p) * f.at(p, j);
      worst = std::max(worst, std::fabs(s - (i == j ? 1.0L : 0.0L)));
    }
  }
  EXPECT_LT(worst / (static_cast<long double>(n) * amax * imax * eps<T>()), 20.0L)
      << n << " " << layout_name(layout);
  expect_padding_kept(f, T(3));
}

TEST(Getri, InvertsAcrossBlocks) {
  TeamHolder holder(2);
  for (bool on_team : {false, true}) {
    Exec exec;
    if (on_team) exec.team = holder.team.get();
    for (index_t n : {1, 2, 31, 33, 64, 65, 200, 400}) {
      check_inverse<double>(n, Layout::col_major, exec);
      check_inverse<float>(n, Layout::row_major, exec);
    }
  }
}

TEST(Getri, UsesNarrowWorkWhenGiven) {
  Exec exec;
  std::vector<double> work(static_cast<std::size_t>(150 * 64));
  check_inverse<double>(150, Layout::col_major, exec, std::span<double>(work));
  std::vector<double> narrow(150 * 3);  // not a full block: getri allocates its own
  check_inverse<double>(150, Layout::col_major, exec, std::span<double>(narrow));
}

TEST(Getri, SingularLeavesAUntouched) {
  Exec exec;
  const index_t n = 90;
  Padded<double> a(n, n, Layout::col_major, 0);
  fill_random(a, 12);
  for (index_t i = 0; i < n; ++i) a.at(i, 20) = 0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  EXPECT_EQ(linalg::getrf(a.view(), ipiv.data(), exec), 21);
  const std::vector<double> factored = a.storage;
  EXPECT_EQ(linalg::getri(a.view(), ipiv.data(), exec), 21);
  EXPECT_EQ(a.storage, factored);
}

// ---- laswp ------------------------------------------------------------------------------

TEST(Laswp, MatchesNaiveInBothDirectionsAndStrides) {
  const index_t m = 9;
  const index_t n = 4;
  for (Layout layout : {Layout::col_major, Layout::row_major}) {
    for (index_t incx : {1, -1, 2, -2}) {
      Padded<double> a(m, n, layout, 1);
      fill_random(a, 5);
      Padded<double> expected = a;
      const index_t k1 = 2;
      const index_t k2 = 6;
      const index_t stride = std::abs(incx);
      std::vector<int> ipiv(static_cast<std::size_t>(k1 - 1 + (k2 - k1) * stride + 1), 1);
      for (index_t k = k1; k <= k2; ++k)
        ipiv[(k1 - 1) + (k - k1) * stride] = static_cast<int>(10 - k);
      for (index_t t = 0; t <= k2 - k1; ++t) {
        const index_t k = incx > 0 ? k1 + t : k2 - t;
        const index_t p = ipiv[(k1 - 1) + (k - k1) * stride] - 1;
        for (index_t j = 0; j < n; ++j) std::swap(expected.at(k - 1, j), expected.at(p, j));
      }
      linalg::laswp(a.view(), k1, k2, ipiv.data(), incx);
      EXPECT_EQ(a.storage, expected.storage) << "incx " << incx << " " << layout_name(layout);
    }
  }
}

// ---- bad input ------------------------------------------------------------------------------

TEST(Lu, BadArgumentsAreRejectedUntouched) {
  Exec exec;
  Padded<double> a(4, 4, Layout::col_major, 0);
  fill_random(a, 1);
  const std::vector<double> before = a.storage;
  std::vector<int> ipiv(4, 1);
  EXPECT_THROW(linalg::getrf(a.view(), nullptr, exec), linalg::InvalidArgument);
  MatrixView<double> bad_ld = a.view();
  bad_ld.ld = 2;
  EXPECT_THROW(linalg::getrf(bad_ld, ipiv.data(), exec), linalg::InvalidArgument);
  Padded<double> b(3, 2, Layout::col_major, 0);
  EXPECT_THROW(linalg::getrs(Op::none, a.cview(), ipiv.data(), b.view(), exec),
               linalg::InvalidArgument);
  Padded<double> rect(4, 3, Layout::col_major, 0);
  EXPECT_THROW(linalg::getri(rect.view(), ipiv.data(), exec), linalg::InvalidArgument);
  std::vector<int> wild = {1, 9, 3, 4};
  Padded<double> b4(4, 1, Layout::col_major, 0);
  EXPECT_THROW(linalg::getrs(Op::none, a.cview(), wild.data(), b4.view(), exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::getri(a.view(), wild.data(), exec), linalg::InvalidArgument);
  EXPECT_THROW(linalg::laswp(a.view(), 1, 2, wild.data(), 1), linalg::InvalidArgument);
  EXPECT_THROW(linalg::gesv(a.view(), ipiv.data(), b.view(), exec), linalg::InvalidArgument);
  EXPECT_EQ(a.storage, before);
}

}  // namespace
}  // namespace teamla::test
