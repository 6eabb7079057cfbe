// SPDX-License-Identifier: Apache-2.0
// trsm_test.cpp: linalg::trsm on its own, against a long-double residual oracle.
//
// Every side x uplo x op x diag combination, both layouts of A and B, padded leading
// dimensions, alpha in {1, -0.5, 0}, double and float, every ISA path, serial and on a team.
// The unused triangle of A holds NaN (a read of it would poison the result); with a unit
// diagonal the diagonal is NaN too. The padding of B must keep its sentinel.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "linalg/chol_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Diag;
using linalg::Exec;
using linalg::Op;
using linalg::Side;
using linalg::Uplo;

// A triangular matrix with a dominant diagonal (well conditioned), NaN where it must not be
// read.
template <class T>
Padded<T> make_triangle(index_t m, Uplo uplo, Diag diag, Layout layout, std::mt19937_64& rng) {
  Padded<T> a(m, m, layout, 2, std::numeric_limits<T>::quiet_NaN());
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t j = 0; j < m; ++j) {
    for (index_t i = 0; i < m; ++i) {
      const bool stored = uplo == Uplo::lower ? i > j : i < j;
      if (stored) a.at(i, j) = static_cast<T>(dist(rng) / std::sqrt(double(m)));
    }
    a.at(j, j) = diag == Diag::unit ? std::numeric_limits<T>::quiet_NaN()
                                    : static_cast<T>(2.0 + dist(rng) * 0.5);
  }
  return a;
}

template <class T>
long double tri_at(const Padded<T>& a, Uplo uplo, Op op, Diag diag, index_t i, index_t j) {
  if (op == Op::transpose) std::swap(i, j);
  if (i == j) return diag == Diag::unit ? 1.0L : (long double)a.at(i, i);
  const bool stored = uplo == Uplo::lower ? i > j : i < j;
  return stored ? (long double)a.at(i, j) : 0.0L;
}

template <class T>
void check_trsm(Side side, Uplo uplo, Op op, Diag diag, T alpha, index_t m, index_t n, Layout la,
                Layout lb, Exec& exec) {
  SCOPED_TRACE(::testing::Message()
               << "side=" << (side == Side::left ? "L" : "R") << " uplo="
               << (uplo == Uplo::lower ? "L" : "U") << " op=" << (op == Op::none ? "N" : "T")
               << " diag=" << (diag == Diag::unit ? "U" : "N") << " alpha=" << alpha << " m=" << m
               << " n=" << n << " A=" << layout_name(la) << " B=" << layout_name(lb)
               << " bytes=" << sizeof(T));
  std::mt19937_64 rng(m * 131 + n);
  const index_t order = side == Side::left ? m : n;
  Padded<T> a = make_triangle<T>(order, uplo, diag, la, rng);
  Padded<T> b(m, n, lb, 3, T(1234));
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) b.at(i, j) = static_cast<T>(dist(rng));
  Padded<T> x = b;
  linalg::trsm<T>(side, uplo, op, diag, alpha, a.cview(), x.view(), exec);
  // padding untouched
  for (std::size_t e = 0; e < b.storage.size(); ++e) {
    const index_t inner = static_cast<index_t>(e) % b.ld;
    const index_t outer = static_cast<index_t>(e) / b.ld;
    const bool inside =
        lb == Layout::col_major ? (inner < m && outer < n) : (inner < n && outer < m);
    if (!inside) {
      ASSERT_EQ(x.storage[e], T(1234));
    }
  }
  // residual: op(A) X - alpha B (left) or X op(A) - alpha B (right)
  long double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      long double s = 0;
      for (index_t p = 0; p < order; ++p) {
        s += side == Side::left ? tri_at(a, uplo, op, diag, i, p) * x.at(p, j)
                                : (long double)x.at(i, p) * tri_at(a, uplo, op, diag, p, j);
      }
      const long double r = std::fabs(s - (long double)alpha * b.at(i, j));
      ASSERT_FALSE(std::isnan((double)r)) << "NaN at " << i << "," << j;
      worst = std::max(worst, r);
    }
  }
  EXPECT_LE(worst, 32 * std::numeric_limits<T>::epsilon() * (order + 1));
}

TEST(Trsm, EveryCaseEveryIsa) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (Side side : {Side::left, Side::right})
      for (Uplo uplo : {Uplo::lower, Uplo::upper})
        for (Op op : {Op::none, Op::transpose})
          for (Diag diag : {Diag::non_unit, Diag::unit})
            for (Layout la : {Layout::col_major, Layout::row_major})
              for (Layout lb : {Layout::col_major, Layout::row_major}) {
                Exec exec;
                for (auto [m, n] :
                     std::vector<std::pair<index_t, index_t>>{{1, 1}, {2, 3}, {33, 7}, {70, 45}}) {
                  check_trsm<double>(side, uplo, op, diag, 1.0, m, n, la, lb, exec);
                  check_trsm<float>(side, uplo, op, diag, -0.5f, n, m, la, lb, exec);
                }
              }
  }
}

TEST(Trsm, LargerShapesAndTeam) {
  Exec serial;
  check_trsm<double>(Side::right, Uplo::lower, Op::transpose, Diag::non_unit, 1.0, 400, 257,
                     Layout::col_major, Layout::col_major, serial);
  check_trsm<float>(Side::left, Uplo::upper, Op::none, Diag::non_unit, 2.0f, 130, 300,
                    Layout::row_major, Layout::col_major, serial);
  // Column-contiguous B with at least one full strip (64 doubles / 128 floats) of columns:
  // the transposing strip path of the leaf kernels, both directions.
  check_trsm<double>(Side::left, Uplo::lower, Op::none, Diag::unit, 1.0, 100, 200,
                     Layout::col_major, Layout::col_major, serial);
  check_trsm<double>(Side::left, Uplo::lower, Op::transpose, Diag::non_unit, 0.5, 77, 131,
                     Layout::row_major, Layout::col_major, serial);
  check_trsm<float>(Side::left, Uplo::upper, Op::none, Diag::non_unit, 1.0f, 40, 257,
                    Layout::col_major, Layout::col_major, serial);
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  check_trsm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, 300, 600,
                     Layout::col_major, Layout::col_major, exec);
  EXPECT_EQ(exec.stats.sections, 1u);
  EXPECT_EQ(exec.stats.max_width_used, 2u);
  check_trsm<double>(Side::right, Uplo::upper, Op::transpose, Diag::unit, -1.0, 500, 200,
                     Layout::row_major, Layout::col_major, exec);
  check_trsm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, 4, 3,
                     Layout::col_major, Layout::col_major, exec);
  EXPECT_EQ(exec.stats.sections, 0u) << "a 4 x 3 solve is not worth a section";
  // 32 right-hand sides are one slice (kMinSliceCols): a section would pack A's blocks again
  // for 16 columns per participant, however many flops the triangle holds.
  check_trsm<float>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0f, 1000, 32,
                    Layout::col_major, Layout::col_major, exec);
  EXPECT_EQ(exec.stats.sections, 0u);
  EXPECT_EQ(exec.stats.inline_regions, 1u);
}

TEST(Trsm, AlphaZeroWritesZerosWithoutReadingA) {
  std::vector<double> a(9, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> b(6, 5.0);
  Exec exec;
  linalg::trsm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 0.0,
                       linalg::col_major<const double>(a.data(), 3, 3),
                       linalg::col_major(b.data(), 3, 2), exec);
  for (double v : b) EXPECT_EQ(v, 0.0);
}

TEST(Trsm, BadInputThrowsAndLeavesBUntouched) {
  std::vector<double> a(16, 1.0);
  std::vector<double> b(16, 2.0);
  const std::vector<double> before = b;
  Exec exec;
  auto av = linalg::col_major<const double>(a.data(), 4, 4);
  auto bv = linalg::col_major(b.data(), 4, 4);
  EXPECT_THROW(linalg::trsm<double>(static_cast<Side>(5), Uplo::lower, Op::none, Diag::non_unit,
                                    1.0, av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trsm<double>(Side::left, static_cast<Uplo>(5), Op::none, Diag::non_unit, 1.0,
                                    av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trsm<double>(Side::left, Uplo::lower, static_cast<Op>(5), Diag::non_unit,
                                    1.0, av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trsm<double>(Side::left, Uplo::lower, Op::none, static_cast<Diag>(5), 1.0,
                                    av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trsm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0,
                                    av.block(0, 0, 3, 3), bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trsm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, av,
                                    {b.data(), 4, 4, 2, Layout::col_major}, exec),
               linalg::InvalidArgument);
  EXPECT_EQ(b, before);
}

}  // namespace
}  // namespace teamla::test
