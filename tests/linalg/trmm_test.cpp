// SPDX-License-Identifier: Apache-2.0
// trmm_test.cpp: linalg::trmm against a long-double naive oracle.
//
// Every side/uplo/op/diag combination, every layout of A and B, padded ld, alpha == 0 (B set to
// zero without reading A) and NaN in the triangle of A that trmm must not read (nor, with a
// unit diagonal, the diagonal), double and float, every ISA, and on a team; sizes past one
// panel (and a forced blocking far smaller than the matrices) so that the ordering of the
// in-place blocks is exercised. The fallback recursion, taken when memory is refused, is
// exercised by the fault tests (tests/faults/workload.hpp).
#include <gtest/gtest.h>

#include <tuple>

#include "linalg/level3_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Diag;
using linalg::Exec;
using linalg::Op;
using linalg::Side;
using linalg::Uplo;

struct TrmmCase {
  Side side;
  Uplo uplo;
  Op op;
  Diag diag;
  Layout la, lb;
};

template <class T>
void check_trmm(const TrmmCase& s, T alpha, index_t m, index_t n, Exec& exec) {
  SCOPED_TRACE(::testing::Message()
               << "side=" << (s.side == Side::left ? "L" : "R") << " uplo="
               << (s.uplo == Uplo::lower ? "L" : "U") << " op=" << (s.op == Op::none ? "N" : "T")
               << " diag=" << (s.diag == Diag::unit ? "U" : "N") << " alpha=" << alpha << " m=" << m
               << " n=" << n << " A=" << layout_name(s.la) << " B=" << layout_name(s.lb)
               << " bytes=" << sizeof(T));
  std::mt19937_64 rng(static_cast<unsigned>(m * 17 + n));
  const index_t order = s.side == Side::left ? m : n;
  Padded<T> a = random_padded<T>(order, order, s.la, 2, rng);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (index_t j = 0; j < order; ++j)
    for (index_t i = 0; i < order; ++i) {
      if (s.uplo == Uplo::lower ? i < j : i > j) a.at(i, j) = nan;
      if (i == j && s.diag == Diag::unit) a.at(i, j) = nan;
    }
  const Padded<T> b = random_padded<T>(m, n, s.lb, 3, rng);
  Padded<T> out = b;
  linalg::trmm<T>(s.side, s.uplo, s.op, s.diag, alpha, a.cview(), out.view(), exec);
  // op(A)(i, p), with the triangle and the diagonal rule applied.
  const auto tri = [&](index_t i, index_t p) -> long double {
    const index_t r = s.op == Op::none ? i : p;
    const index_t c = s.op == Op::none ? p : i;
    if (r == c) return s.diag == Diag::unit ? 1.0L : static_cast<long double>(a.at(r, c));
    const bool stored = s.uplo == Uplo::lower ? r > c : r < c;
    return stored ? static_cast<long double>(a.at(r, c)) : 0.0L;
  };
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      long double sum = 0;
      if (alpha != T(0)) {
        for (index_t p = 0; p < order; ++p) {
          sum += s.side == Side::left ? tri(i, p) * b.at(p, j) : b.at(i, p) * tri(p, j);
        }
      }
      const long double expect = static_cast<long double>(alpha) * sum;
      const long double got = out.at(i, j);
      ASSERT_FALSE(std::isnan(static_cast<double>(got))) << i << "," << j;
      ASSERT_LE(std::fabs(got - expect), tolerance<T>(order, 1)) << i << "," << j;
    }
  }
  const index_t lead = b.layout == Layout::col_major ? b.rows : b.cols;
  for (std::size_t e = 0; e < b.storage.size(); ++e) {
    if (static_cast<index_t>(e % static_cast<std::size_t>(b.ld)) >= lead) {
      ASSERT_EQ(out.storage[e], b.storage[e]) << "padding written at " << e;
    }
  }
}

TEST(Trmm, EveryCaseEveryIsa) {
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
                const TrmmCase s{side, uplo, op, diag, la, lb};
                for (auto [m, n] : level3_shapes()) {
                  check_trmm<double>(s, 1.0, m, n, exec);
                  check_trmm<float>(s, -0.5f, n, m, exec);
                }
              }
  }
}

// BlockingScope forces a blocking (mc, kc, nc) for its lifetime.
struct BlockingScope {
  BlockingScope(index_t mc, index_t kc, index_t nc) {
    linalg::detail::force_blocking(mc, kc, nc, 0);
  }
  ~BlockingScope() { linalg::detail::clear_blocking_override(); }
  BlockingScope(const BlockingScope&) = delete;
  BlockingScope& operator=(const BlockingScope&) = delete;
};

// The product runs on gemm's loops, one kc-deep panel at a time (trmm_blocked.cpp: A on the
// left of a column-major B, or on the right of one, which a row-major B becomes): with blocks
// far smaller than the matrices (kc = 3 or 7 per panel, mc = one strip or two, nc = one
// micro-panel or 5 columns), every panel boundary, diagonal strip and order of the in-place
// visit is crossed, on every ISA, both sides, both triangles, every layout.
TEST(Trmm, BlockedPanelsCrossEveryBoundary) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (auto [mc, kc, nc] : {std::tuple<index_t, index_t, index_t>{1, 3, 1}, {60, 7, 5}}) {
      BlockingScope blocking(mc, kc, nc);
      for (Uplo uplo : {Uplo::lower, Uplo::upper})
        for (Op op : {Op::none, Op::transpose})
          for (Diag diag : {Diag::non_unit, Diag::unit})
            for (Side side : {Side::left, Side::right})
              for (Layout la : {Layout::col_major, Layout::row_major})
                for (Layout lb : {Layout::col_major, Layout::row_major}) {
                  Exec exec;
                  const TrmmCase s{side, uplo, op, diag, la, lb};
                  check_trmm<double>(s, 1.5, 53, 19, exec);
                  check_trmm<float>(s, -1.0f, 61, 11, exec);
                }
    }
  }
}

TEST(Trmm, AlphaZeroWritesZerosWithoutReadingA) {
  Exec exec;
  for (Side side : {Side::left, Side::right}) {
    check_trmm<double>(
        {side, Uplo::lower, Op::none, Diag::non_unit, Layout::col_major, Layout::col_major}, 0.0, 9,
        4, exec);
  }
  std::vector<double> a(9, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> b(6, std::numeric_limits<double>::quiet_NaN());
  linalg::trmm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 0.0,
                       linalg::col_major<const double>(a.data(), 3, 3),
                       linalg::col_major(b.data(), 3, 2), exec);
  for (double v : b) EXPECT_EQ(v, 0.0);
}

TEST(Trmm, LargerShapesAndTeam) {
  Exec serial;
  check_trmm<double>(
      {Side::left, Uplo::lower, Op::none, Diag::non_unit, Layout::col_major, Layout::col_major},
      1.5, 300, 100, serial);
  check_trmm<float>(
      {Side::right, Uplo::upper, Op::transpose, Diag::unit, Layout::row_major, Layout::col_major},
      1.0f, 90, 260, serial);
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  check_trmm<double>(
      {Side::left, Uplo::upper, Op::none, Diag::non_unit, Layout::col_major, Layout::col_major},
      1.0, 300, 600, exec);
  EXPECT_EQ(exec.stats.sections, 1u);
  EXPECT_EQ(exec.stats.max_width_used, 2u);
  check_trmm<double>(
      {Side::right, Uplo::lower, Op::transpose, Diag::unit, Layout::row_major, Layout::col_major},
      -1.0, 500, 200, exec);
}

TEST(Trmm, BadInputThrowsAndLeavesBUntouched) {
  std::vector<double> a(16, 1.0);
  std::vector<double> b(16, 2.0);
  const std::vector<double> before = b;
  Exec exec;
  auto av = linalg::col_major<const double>(a.data(), 4, 4);
  auto bv = linalg::col_major(b.data(), 4, 4);
  EXPECT_THROW(linalg::trmm<double>(static_cast<Side>(5), Uplo::lower, Op::none, Diag::non_unit,
                                    1.0, av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trmm<double>(Side::left, static_cast<Uplo>(5), Op::none, Diag::non_unit, 1.0,
                                    av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trmm<double>(Side::left, Uplo::lower, static_cast<Op>(5), Diag::non_unit,
                                    1.0, av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trmm<double>(Side::left, Uplo::lower, Op::none, static_cast<Diag>(5), 1.0,
                                    av, bv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::trmm<double>(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0,
                                    av.block(0, 0, 3, 3), bv, exec),
               linalg::InvalidArgument);
  EXPECT_EQ(b, before);
}

}  // namespace
}  // namespace teamla::test
