// SPDX-License-Identifier: Apache-2.0
// symm_test.cpp: linalg::symm against a long-double naive oracle.
//
// Both sides and triangles, every layout of A, B and C, padded ld, alpha/beta edge cases
// (beta == 0 with NaN in C, alpha == 0 only scales), double and float, every ISA, serial and
// on a team. The triangle of A that symm must not read holds NaN: reading it shows.
#include <gtest/gtest.h>

#include "linalg/level3_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Exec;
using linalg::Side;
using linalg::Uplo;

struct SymmCase {
  Side side;
  Uplo uplo;
  Layout la, lb, lc;
};

template <class T>
void check_symm(const SymmCase& s, T alpha, T beta, index_t m, index_t n, Exec& exec,
                bool nan_c = false) {
  SCOPED_TRACE(::testing::Message() << "side=" << (s.side == Side::left ? "L" : "R") << " uplo="
                                    << (s.uplo == Uplo::lower ? "L" : "U") << " alpha=" << alpha
                                    << " beta=" << beta << " m=" << m << " n=" << n
                                    << " A=" << layout_name(s.la) << " B=" << layout_name(s.lb)
                                    << " C=" << layout_name(s.lc) << " bytes=" << sizeof(T));
  std::mt19937_64 rng(static_cast<unsigned>(m * 31 + n));
  const index_t order = s.side == Side::left ? m : n;
  Padded<T> a = random_padded<T>(order, order, s.la, 3, rng);
  for (index_t j = 0; j < order; ++j)
    for (index_t i = 0; i < order; ++i)
      if (s.uplo == Uplo::lower ? i < j : i > j) a.at(i, j) = std::numeric_limits<T>::quiet_NaN();
  const Padded<T> b = random_padded<T>(m, n, s.lb, 1, rng);
  Padded<T> c = random_padded<T>(m, n, s.lc, 2, rng);
  if (nan_c)
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < m; ++i) c.at(i, j) = std::numeric_limits<T>::quiet_NaN();
  Padded<T> out = c;
  linalg::symm<T>(s.side, s.uplo, alpha, a.cview(), b.cview(), beta, out.view(), exec);
  const auto sym = [&](index_t i, index_t j) -> long double {
    const bool stored = s.uplo == Uplo::lower ? i >= j : i <= j;
    return stored ? a.at(i, j) : a.at(j, i);
  };
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      long double sum = 0;
      if (alpha != T(0)) {
        for (index_t p = 0; p < order; ++p) {
          sum += s.side == Side::left ? sym(i, p) * b.at(p, j) : b.at(i, p) * sym(p, j);
        }
      }
      long double expect = static_cast<long double>(alpha) * sum;
      if (beta != T(0)) expect += static_cast<long double>(beta) * c.at(i, j);
      const long double got = out.at(i, j);
      ASSERT_FALSE(std::isnan(static_cast<double>(got))) << i << "," << j;
      ASSERT_LE(std::fabs(got - expect), tolerance<T>(order, 2)) << i << "," << j;
    }
  }
  // Outside C's view (its padding) nothing changed.
  for (std::size_t e = 0; e < c.storage.size(); ++e) {
    const index_t lead = c.layout == Layout::col_major ? c.rows : c.cols;
    if (static_cast<index_t>(e % static_cast<std::size_t>(c.ld)) >= lead) {
      ASSERT_EQ(out.storage[e], c.storage[e]) << "padding written at " << e;
    }
  }
}

TEST(Symm, EveryCaseEveryIsa) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (Side side : {Side::left, Side::right})
      for (Uplo uplo : {Uplo::lower, Uplo::upper})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (Layout lbc : {Layout::col_major, Layout::row_major}) {
            Exec exec;
            const SymmCase s{side, uplo, la, lbc, lbc};
            const SymmCase mixed{side, uplo, la, lbc,
                                 lbc == Layout::col_major ? Layout::row_major : Layout::col_major};
            for (auto [m, n] : level3_shapes()) {
              check_symm<double>(s, 1.0, 1.0, m, n, exec);
              check_symm<double>(mixed, -0.5, 0.0, m, n, exec, true);
              check_symm<float>(s, 2.0f, -1.0f, m, n, exec);
            }
          }
  }
}

// From order 256 on, with a column-major C, gemm packs S straight from its stored triangle
// (no copy). Orders 256 and 300 with small n keep the oracle cheap; kc = 5 (force_blocking)
// then puts the diagonal across many micro-panels in every k slice, and with the default
// blocking it crosses the panels of one slice. The triangle not stored is NaN, so a panel
// that read it shows.
TEST(Symm, LargeOrdersPackTheStoredTriangle) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (const bool tiny_blocks : {false, true}) {
      if (tiny_blocks) linalg::detail::force_blocking(1, 5, 1, 0);
      Exec exec;
      for (Uplo uplo : {Uplo::lower, Uplo::upper})
        for (Layout la : {Layout::col_major, Layout::row_major}) {
          const SymmCase left{Side::left, uplo, la, Layout::col_major, Layout::col_major};
          const SymmCase right{Side::right, uplo, la, Layout::row_major, Layout::row_major};
          check_symm<double>(left, 1.0, 0.5, 256, 5, exec);
          check_symm<double>(left, -2.0, 0.0, 300, 3, exec, true);
          check_symm<float>(left, 0.5f, 1.0f, 263, 4, exec);
          check_symm<double>(right, 1.0, 1.0, 6, 257, exec);
        }
      linalg::detail::clear_blocking_override();
    }
  }
}

TEST(Symm, AlphaZeroOnlyScales) {
  Exec exec;
  const SymmCase s{Side::left, Uplo::lower, Layout::col_major, Layout::col_major,
                   Layout::col_major};
  check_symm<double>(s, 0.0, 2.0, 20, 10, exec);
  check_symm<double>(s, 0.0, 0.0, 20, 10, exec, true);
  check_symm<float>(s, 0.0f, 1.0f, 5, 5, exec);
}

TEST(Symm, OnTeam) {
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  const SymmCase left{Side::left, Uplo::upper, Layout::col_major, Layout::col_major,
                      Layout::col_major};
  check_symm<double>(left, 1.0, 0.5, 300, 260, exec);
  EXPECT_EQ(exec.stats.max_width_used, 2u);
  const SymmCase right{Side::right, Uplo::lower, Layout::row_major, Layout::col_major,
                       Layout::row_major};
  check_symm<float>(right, -1.0f, 0.0f, 257, 300, exec, true);
}

TEST(Symm, BadInputThrowsAndLeavesCUntouched) {
  std::vector<double> a(16, 1.0);
  std::vector<double> b(16, 1.0);
  std::vector<double> c(16, 2.0);
  const std::vector<double> before = c;
  Exec exec;
  auto av = linalg::col_major<const double>(a.data(), 4, 4);
  auto bv = linalg::col_major<const double>(b.data(), 4, 4);
  auto cv = linalg::col_major(c.data(), 4, 4);
  EXPECT_THROW(linalg::symm<double>(static_cast<Side>(5), Uplo::lower, 1.0, av, bv, 0.0, cv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::symm<double>(Side::left, static_cast<Uplo>(5), 1.0, av, bv, 0.0, cv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(
      linalg::symm<double>(Side::left, Uplo::lower, 1.0, av.block(0, 0, 3, 3), bv, 0.0, cv, exec),
      linalg::InvalidArgument);
  EXPECT_THROW(
      linalg::symm<double>(Side::right, Uplo::lower, 1.0, av, bv.block(0, 0, 4, 3), 0.0, cv, exec),
      linalg::InvalidArgument);
  EXPECT_EQ(c, before);
}

}  // namespace
}  // namespace teamla::test
