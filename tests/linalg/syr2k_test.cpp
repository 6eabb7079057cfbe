// SPDX-License-Identifier: Apache-2.0
// syr2k_test.cpp: linalg::syr2k against a long-double naive oracle.
//
// Both triangles, op none/transpose, every layout of A, B and C, padded ld, alpha/beta edge
// cases (beta == 0 with NaN in C, alpha == 0 and k == 0 only scale), double and float, every
// ISA, tiny blocking (every tile kind), and on a team. The other triangle of C keeps its
// sentinel bit for bit.
#include <gtest/gtest.h>

#include "linalg/level3_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Exec;
using linalg::Op;
using linalg::Uplo;

struct Syr2kCase {
  Uplo uplo;
  Op op;
  Layout lab, lc;
};

template <class T>
void check_syr2k(const Syr2kCase& s, T alpha, T beta, index_t n, index_t k, Exec& exec,
                 bool nan_c = false) {
  SCOPED_TRACE(::testing::Message()
               << "uplo=" << (s.uplo == Uplo::lower ? "L" : "U")
               << " op=" << (s.op == Op::none ? "N" : "T") << " alpha=" << alpha << " beta=" << beta
               << " n=" << n << " k=" << k << " AB=" << layout_name(s.lab)
               << " C=" << layout_name(s.lc) << " bytes=" << sizeof(T));
  std::mt19937_64 rng(static_cast<unsigned>(n * 13 + k));
  const index_t rows = s.op == Op::none ? n : k;
  const index_t cols = s.op == Op::none ? k : n;
  const Padded<T> a = random_padded<T>(rows, cols, s.lab, 1, rng);
  const Padded<T> b = random_padded<T>(rows, cols, s.lab, 2, rng);
  const T sentinel = T(-4321);
  Padded<T> c(n, n, s.lc, 2, sentinel);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      if (s.uplo == Uplo::lower ? i >= j : i <= j) {
        c.at(i, j) = nan_c ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(dist(rng));
      }
    }
  }
  Padded<T> out = c;
  linalg::syr2k<T>(s.uplo, s.op, alpha, a.cview(), b.cview(), beta, out.view(), exec);
  for (std::size_t e = 0; e < c.storage.size(); ++e) {
    if (c.storage[e] == sentinel) {
      ASSERT_EQ(out.storage[e], sentinel) << "other triangle written";
    }
  }
  const auto at = [&](const Padded<T>& x, index_t i, index_t p) -> long double {
    return s.op == Op::none ? x.at(i, p) : x.at(p, i);
  };
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      if (s.uplo == Uplo::lower ? i < j : i > j) continue;
      long double sum = 0;
      if (alpha != T(0)) {
        for (index_t p = 0; p < k; ++p)
          sum += at(a, i, p) * at(b, j, p) + at(b, i, p) * at(a, j, p);
      }
      long double expect = static_cast<long double>(alpha) * sum;
      if (beta != T(0)) expect += static_cast<long double>(beta) * c.at(i, j);
      const long double got = out.at(i, j);
      ASSERT_FALSE(std::isnan(static_cast<double>(got))) << i << "," << j;
      ASSERT_LE(std::fabs(got - expect), tolerance<T>(2 * k, 2)) << i << "," << j;
    }
  }
}

TEST(Syr2k, EveryCaseEveryIsa) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (Op op : {Op::none, Op::transpose})
        for (Layout lab : {Layout::col_major, Layout::row_major})
          for (Layout lc : {Layout::col_major, Layout::row_major}) {
            Exec exec;
            const Syr2kCase s{uplo, op, lab, lc};
            for (auto [n, k] : level3_shapes()) {
              check_syr2k<double>(s, 1.0, 1.0, n, k, exec);
              check_syr2k<double>(s, -0.5, 0.0, n, k, exec, true);
              check_syr2k<float>(s, 2.0f, -1.0f, n, k, exec);
            }
          }
  }
}

// Tiny blocking splits small matrices into many blocks, so that tiles inside, outside and
// crossed by the diagonal occur in every position, for both rank-k passes.
TEST(Syr2k, TinyBlockingReachesEveryTileKind) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    linalg::detail::force_blocking(1, 5, 1, 0);
    Exec exec;
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (Layout lc : {Layout::col_major, Layout::row_major}) {
        check_syr2k<double>({uplo, Op::none, Layout::col_major, lc}, -1.0, 1.0, 61, 23, exec);
        check_syr2k<double>({uplo, Op::transpose, Layout::row_major, lc}, 0.5, 0.0, 47, 11, exec,
                            true);
        check_syr2k<float>({uplo, Op::none, Layout::col_major, lc}, 1.0f, -2.0f, 53, 17, exec);
      }
    linalg::detail::clear_blocking_override();
  }
}

TEST(Syr2k, EdgeAlphaAndK) {
  Exec exec;
  const Syr2kCase s{Uplo::lower, Op::none, Layout::col_major, Layout::col_major};
  check_syr2k<double>(s, 0.0, 2.0, 40, 10, exec);
  check_syr2k<double>(s, 1.0, 0.5, 40, 0, exec);
  check_syr2k<double>({Uplo::upper, Op::none, Layout::col_major, Layout::row_major}, 0.0, 0.0, 40,
                      3, exec, true);
  check_syr2k<float>(s, 1.0f, 1.0f, 0, 5, exec);
}

TEST(Syr2k, OnTeam) {
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  check_syr2k<double>({Uplo::lower, Op::none, Layout::col_major, Layout::col_major}, -1.0, 1.0, 500,
                      256, exec);
  EXPECT_EQ(exec.stats.sections, 1u);
  EXPECT_EQ(exec.stats.max_width_used, 2u);
  check_syr2k<float>({Uplo::upper, Op::transpose, Layout::row_major, Layout::col_major}, 1.0f, 0.0f,
                     300, 64, exec, true);
}

TEST(Syr2k, BadInputThrowsAndLeavesCUntouched) {
  std::vector<double> a(16, 1.0);
  std::vector<double> c(16, 2.0);
  const std::vector<double> before = c;
  Exec exec;
  auto av = linalg::col_major<const double>(a.data(), 4, 4);
  auto cv = linalg::col_major(c.data(), 4, 4);
  EXPECT_THROW(linalg::syr2k<double>(static_cast<Uplo>(5), Op::none, 1.0, av, av, 0.0, cv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(linalg::syr2k<double>(Uplo::lower, static_cast<Op>(5), 1.0, av, av, 0.0, cv, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(
      linalg::syr2k<double>(Uplo::lower, Op::none, 1.0, av, av.block(0, 0, 4, 3), 0.0, cv, exec),
      linalg::InvalidArgument);
  EXPECT_THROW(
      linalg::syr2k<double>(Uplo::lower, Op::none, 1.0, av, av, 0.0, cv.block(0, 0, 4, 3), exec),
      linalg::InvalidArgument);
  EXPECT_EQ(c, before);
}

}  // namespace
}  // namespace teamla::test
