// SPDX-License-Identifier: Apache-2.0
// syrk_test.cpp: linalg::syrk on its own, against a long-double naive oracle.
//
// Both triangles, op none/transpose, both layouts of A and C, padded ld, alpha/beta edge
// cases (beta == 0 with NaN in C must not propagate; alpha == 0 and k == 0 only scale),
// double and float, every ISA path, serial and on a team. The other triangle of C must keep
// its sentinel bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "linalg/chol_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Exec;
using linalg::Op;
using linalg::Uplo;

template <class T>
void check_syrk(Uplo uplo, Op op, T alpha, T beta, index_t n, index_t k, Layout la, Layout lc,
                Exec& exec, bool nan_c = false) {
  SCOPED_TRACE(::testing::Message()
               << "uplo=" << (uplo == Uplo::lower ? "L" : "U")
               << " op=" << (op == Op::none ? "N" : "T") << " alpha=" << alpha << " beta=" << beta
               << " n=" << n << " k=" << k << " A=" << layout_name(la) << " C=" << layout_name(lc)
               << " bytes=" << sizeof(T));
  std::mt19937_64 rng(n * 7 + k);
  std::uniform_real_distribution<double> dist(-1, 1);
  Padded<T> a(op == Op::none ? n : k, op == Op::none ? k : n, la, 1);
  for (auto& v : a.storage) v = static_cast<T>(dist(rng));
  const T sentinel = T(-4321);
  Padded<T> c(n, n, lc, 2, sentinel);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const bool mine = uplo == Uplo::lower ? i >= j : i <= j;
      if (mine)
        c.at(i, j) = nan_c ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(dist(rng));
    }
  Padded<T> out = c;
  linalg::syrk<T>(uplo, op, alpha, a.cview(), beta, out.view(), exec);
  for (std::size_t e = 0; e < c.storage.size(); ++e) {
    if (c.storage[e] == sentinel) {
      ASSERT_EQ(out.storage[e], sentinel) << "other triangle written";
    }
  }
  long double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      if (uplo == Uplo::lower ? i < j : i > j) continue;
      long double s = 0;
      for (index_t p = 0; p < k; ++p) {
        const long double x = op == Op::none ? a.at(i, p) : a.at(p, i);
        const long double y = op == Op::none ? a.at(j, p) : a.at(p, j);
        s += x * y;
      }
      long double expect = (long double)alpha * s;
      if (beta != T(0)) expect += (long double)beta * c.at(i, j);
      const long double got = out.at(i, j);
      ASSERT_FALSE(std::isnan((double)got)) << i << "," << j;
      worst = std::max(worst, std::fabs(got - expect));
    }
  }
  EXPECT_LE(worst, 4 * std::numeric_limits<T>::epsilon() * (k + 4));
}

TEST(Syrk, EveryCaseEveryIsa) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (Op op : {Op::none, Op::transpose})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (Layout lc : {Layout::col_major, Layout::row_major}) {
            Exec exec;
            for (auto [n, k] : std::vector<std::pair<index_t, index_t>>{
                     {1, 1}, {3, 2}, {17, 33}, {129, 20}, {200, 131}}) {
              check_syrk<double>(uplo, op, 1.0, 1.0, n, k, la, lc, exec);
              check_syrk<double>(uplo, op, -0.5, 0.0, n, k, la, lc, exec, true);
              check_syrk<float>(uplo, op, 2.0f, -1.0f, n, k, la, lc, exec);
            }
          }
  }
}

// Tiny blocking (mc = one register tile, kc = 5, nc = two NR panels) splits even small
// matrices into many column blocks, k slices and row blocks, so tiles inside the triangle,
// outside it and crossed by the diagonal all occur in every block position; a wrong
// classification or a beta applied twice shows as a wrong entry or a touched sentinel.
TEST(Syrk, TinyBlockingReachesEveryTileKind) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    linalg::detail::force_blocking(1, 5, 1, 0);
    Exec exec;
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (Layout lc : {Layout::col_major, Layout::row_major}) {
        check_syrk<double>(uplo, Op::none, -1.0, 1.0, 61, 23, Layout::col_major, lc, exec);
        check_syrk<double>(uplo, Op::transpose, 0.5, 0.0, 47, 11, Layout::row_major, lc, exec,
                           true);
        check_syrk<float>(uplo, Op::none, 1.0f, -2.0f, 53, 17, Layout::col_major, lc, exec);
      }
    linalg::detail::clear_blocking_override();
  }
}

TEST(Syrk, EdgeAlphaAndK) {
  Exec exec;
  check_syrk<double>(Uplo::lower, Op::none, 0.0, 2.0, 40, 10, Layout::col_major, Layout::col_major,
                     exec);
  check_syrk<double>(Uplo::upper, Op::none, 1.0, 0.5, 40, 0, Layout::col_major, Layout::row_major,
                     exec);
  check_syrk<double>(Uplo::upper, Op::none, 0.0, 0.0, 40, 3, Layout::col_major, Layout::col_major,
                     exec, true);
  check_syrk<float>(Uplo::lower, Op::transpose, 1.0f, 1.0f, 0, 5, Layout::col_major,
                    Layout::col_major, exec);
}

TEST(Syrk, OnTeam) {
  TeamHolder holder(3);
  Exec exec;
  exec.team = holder.team.get();
  check_syrk<double>(Uplo::lower, Op::none, -1.0, 1.0, 700, 256, Layout::col_major,
                     Layout::col_major, exec);
  EXPECT_EQ(exec.stats.sections, 1u);
  EXPECT_GE(exec.stats.max_width_used, 2u);
  check_syrk<float>(Uplo::upper, Op::transpose, 1.0f, 0.0f, 500, 64, Layout::row_major,
                    Layout::col_major, exec);
  check_syrk<double>(Uplo::lower, Op::none, 1.0, 1.0, 5, 2, Layout::col_major, Layout::col_major,
                     exec);
  EXPECT_EQ(exec.stats.sections, 0u);
}

TEST(Syrk, BadInputThrowsAndLeavesCUntouched) {
  std::vector<double> a(16, 1.0);
  std::vector<double> c(16, 2.0);
  const std::vector<double> before = c;
  Exec exec;
  auto av = linalg::col_major<const double>(a.data(), 4, 4);
  EXPECT_THROW(linalg::syrk<double>(static_cast<Uplo>(3), Op::none, 1.0, av, 1.0,
                                    linalg::col_major(c.data(), 4, 4), exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::syrk<double>(Uplo::lower, Op::none, 1.0, av.block(0, 0, 3, 4), 1.0,
                                    linalg::col_major(c.data(), 4, 4), exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::syrk<double>(Uplo::lower, Op::none, 1.0, av, 1.0,
                                    linalg::col_major(c.data(), 4, 3), exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::syrk<double>(Uplo::lower, Op::none, 1.0, av, 1.0,
                                    {c.data(), 4, 4, 1, Layout::col_major}, exec),
               linalg::InvalidArgument);
  EXPECT_EQ(c, before);
}

}  // namespace
}  // namespace teamla::test
