// SPDX-License-Identifier: Apache-2.0
// engine_ops_test.cpp: every routine in every engine mode.
//
// Contract covered: every CpuEngine mode runs every routine (gemm, trsm, syrk, potrf, potrs,
// solve_spd) in double and float, column- and row-major, with the same results as the linalg
// kernel run serially and as a naive reference, at sizes where the team is used.
#include <gtest/gtest.h>

#include <tuple>

#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"

namespace teamla::engine {
namespace {

using linalg::Layout;
using testing::TestMatrix;

struct Case {
  Mode mode;
  std::size_t threads;
  Layout layout;
};

class EngineOps : public ::testing::TestWithParam<Case> {
 protected:
  CpuEngine make_engine() const {
    EngineConfig config;
    config.mode = GetParam().mode;
    config.threads = GetParam().threads;
    return CpuEngine(config);
  }
  Layout layout() const { return GetParam().layout; }
};

template <class T>
void check_gemm(CpuEngine& engine, Layout layout, index_t m, index_t n, index_t k, Op op_a,
                Op op_b) {
  TestMatrix<T> a(op_a == Op::none ? m : k, op_a == Op::none ? k : m, layout);
  TestMatrix<T> b(op_b == Op::none ? k : n, op_b == Op::none ? n : k, layout);
  TestMatrix<T> c(m, n, layout), expected(m, n, layout), serial(m, n, layout);
  testing::fill_random(a, 1);
  testing::fill_random(b, 2);
  testing::fill_random(c, 3);
  expected.storage = c.storage;
  serial.storage = c.storage;
  const T alpha = T(0.75), beta = T(-0.5);
  engine.gemm(op_a, op_b, alpha, a.view(), b.view(), beta, c.view());
  testing::reference_gemm(op_a, op_b, alpha, a.cview(), b.cview(), beta, expected.view());
  linalg::Exec exec;
  linalg::gemm(op_a, op_b, alpha, a.cview(), b.cview(), beta, serial.view(), exec);
  EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<T>(k));
  EXPECT_LE(testing::max_abs_diff(c.cview(), serial.cview()), testing::tolerance<T>(k));
  EXPECT_EQ(engine.last_call().routine, "gemm");
}

TEST_P(EngineOps, GemmMatchesReference) {
  CpuEngine engine = make_engine();
  for (Op op_a : {Op::none, Op::transpose})
    for (Op op_b : {Op::none, Op::transpose}) {
      check_gemm<double>(engine, layout(), 203, 157, 181, op_a, op_b);
      check_gemm<float>(engine, layout(), 203, 157, 181, op_a, op_b);
    }
  check_gemm<double>(engine, layout(), 7, 5, 3, Op::none, Op::none);
  check_gemm<double>(engine, layout(), 0, 5, 3, Op::none, Op::none);
}

TEST_P(EngineOps, GemmUsesTheTeamOnlyWhenItHasOne) {
  CpuEngine engine = make_engine();
  TestMatrix<double> a(400, 400, layout()), b(400, 400, layout()), c(400, 400, layout());
  testing::fill_random(a, 4);
  testing::fill_random(b, 5);
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  const CallStats stats = engine.last_call();
  EXPECT_EQ(stats.on_team, engine.width() > 1);
  EXPECT_LE(stats.exec.max_width_used, engine.width());
  EXPECT_FALSE(stats.contended);
  EXPECT_GT(stats.wall_ns, 0u);
}

// A tiny product (linalg::gemm_is_tiny) runs on the caller before dispatch: correct, and
// invisible to the engine's records and to its team, which it never touches.
TEST_P(EngineOps, TinyGemmSkipsDispatch) {
  CpuEngine engine = make_engine();
  check_gemm<double>(engine, layout(), 40, 40, 40, Op::none, Op::transpose);
  const EngineCounters before = engine.counters();
  for (Op op_a : {Op::none, Op::transpose}) {
    TestMatrix<double> a(32, 32, layout()), b(32, 32, layout()), c(32, 32, layout());
    TestMatrix<double> expected(32, 32, layout());
    testing::fill_random(a, 6);
    testing::fill_random(b, 7);
    testing::fill_random(c, 8);
    expected.storage = c.storage;
    engine.gemm(op_a, Op::none, 2.0, a.view(), b.view(), 1.0, c.view());
    testing::reference_gemm(op_a, Op::none, 2.0, a.cview(), b.cview(), 1.0, expected.view());
    EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<double>(32));
  }
  const EngineCounters after = engine.counters();
  EXPECT_EQ(after.calls, before.calls);
  EXPECT_EQ(after.waits.sections, before.waits.sections);
  EXPECT_EQ(after.pools_built, before.pools_built);
}

template <class T>
void check_cholesky_family(CpuEngine& engine, Layout layout, index_t n, index_t nrhs) {
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    TestMatrix<T> a = testing::make_spd<T>(n, layout, 10);
    TestMatrix<T> factor = a, serial = a;
    ASSERT_EQ(engine.potrf(uplo, factor.view()), 0);
    linalg::Exec exec;
    ASSERT_EQ(linalg::potrf(uplo, serial.view(), exec), 0);
    // L*L^T (or U^T*U) reproduces A.
    double worst = 0, worst_vs_serial = 0;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j <= i; ++j) {
        double sum = 0;
        for (index_t p = 0; p <= j; ++p) {
          sum += uplo == Uplo::lower ? double(factor(i, p)) * double(factor(j, p))
                                     : double(factor(p, i)) * double(factor(p, j));
        }
        worst = std::max(worst, std::abs(sum - double(a(i, j))));
        const index_t r = uplo == Uplo::lower ? i : j, c = uplo == Uplo::lower ? j : i;
        worst_vs_serial =
            std::max(worst_vs_serial, std::abs(double(factor(r, c)) - double(serial(r, c))));
      }
    EXPECT_LE(worst, testing::tolerance<T>(n) * 4);
    EXPECT_LE(worst_vs_serial, testing::tolerance<T>(n) * 4);
    // The other triangle is untouched.
    EXPECT_EQ(uplo == Uplo::lower ? factor(0, n - 1) : factor(n - 1, 0),
              uplo == Uplo::lower ? a(0, n - 1) : a(n - 1, 0));

    // potrs: A * X = B.
    TestMatrix<T> b(n, nrhs, layout), x(n, nrhs, layout), residual(n, nrhs, layout);
    testing::fill_random(b, 11);
    x.storage = b.storage;
    engine.potrs(uplo, factor.view(), x.view());
    residual.storage = b.storage;
    testing::reference_gemm<T>(Op::none, Op::none, T(1), a.cview(), x.cview(), T(-1),
                               residual.view());
    TestMatrix<T> zero(n, nrhs, layout);
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < nrhs; ++j) zero(i, j) = 0;
    EXPECT_LE(testing::max_abs_diff(residual.cview(), zero.cview()), testing::tolerance<T>(n) * 8);
  }
}

TEST_P(EngineOps, PotrfAndPotrsSolve) {
  CpuEngine engine = make_engine();
  check_cholesky_family<double>(engine, layout(), 260, 7);
  check_cholesky_family<float>(engine, layout(), 130, 3);
  check_cholesky_family<double>(engine, layout(), 5, 1);
}

TEST_P(EngineOps, PotrfReportsTheFirstBadPivot) {
  CpuEngine engine = make_engine();
  TestMatrix<double> a = testing::make_spd<double>(50, layout(), 12);
  a(20, 20) = -100.0;
  EXPECT_EQ(engine.potrf(Uplo::lower, a.view()), 21);
}

template <class T>
void check_trsm(CpuEngine& engine, Layout layout, index_t n, index_t other) {
  for (Side side : {Side::left, Side::right})
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (Op op : {Op::none, Op::transpose})
        for (Diag diag : {Diag::non_unit, Diag::unit}) {
          // A well-conditioned triangle, unit diagonal or not: small off-diagonal entries.
          TestMatrix<T> a(n, n, layout);
          testing::fill_random(a, 20);
          for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j) a(i, j) = i == j ? T(2) : a(i, j) / T(n);
          const index_t rows = side == Side::left ? n : other,
                        cols = side == Side::left ? other : n;
          TestMatrix<T> b(rows, cols, layout), x(rows, cols, layout), serial(rows, cols, layout);
          testing::fill_random(b, 21);
          x.storage = b.storage;
          serial.storage = b.storage;
          const T alpha = T(1.5);
          engine.trsm(side, uplo, op, diag, alpha, a.view(), x.view());
          linalg::Exec exec;
          linalg::trsm(side, uplo, op, diag, alpha, a.cview(), serial.view(), exec);
          EXPECT_LE(testing::max_abs_diff(x.cview(), serial.cview()), testing::tolerance<T>(n) * 4);
          // op(A) * X (or X * op(A)) == alpha * B, with A's triangle and diag as declared.
          TestMatrix<T> tri(n, n);
          for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j) {
              const bool in = uplo == Uplo::lower ? i >= j : i <= j;
              tri(i, j) = i == j ? (diag == Diag::unit ? T(1) : a(i, i)) : (in ? a(i, j) : T(0));
            }
          TestMatrix<T> product(rows, cols);
          if (side == Side::left) {
            testing::reference_gemm<T>(op, Op::none, T(1), tri.cview(), x.cview(), T(0),
                                       product.view());
          } else {
            testing::reference_gemm<T>(Op::none, op, T(1), x.cview(), tri.cview(), T(0),
                                       product.view());
          }
          double worst = 0;
          for (index_t i = 0; i < rows; ++i)
            for (index_t j = 0; j < cols; ++j)
              worst = std::max(worst, std::abs(double(product(i, j)) - double(alpha * b(i, j))));
          EXPECT_LE(worst, testing::tolerance<T>(n) * 8)
              << "side " << int(side) << " uplo " << int(uplo) << " op " << int(op) << " diag "
              << int(diag);
        }
}

TEST_P(EngineOps, TrsmSolvesEveryVariant) {
  CpuEngine engine = make_engine();
  check_trsm<double>(engine, layout(), 150, 90);
  check_trsm<float>(engine, layout(), 70, 40);
}

template <class T>
void check_syrk(CpuEngine& engine, Layout layout, index_t n, index_t k) {
  for (Uplo uplo : {Uplo::lower, Uplo::upper})
    for (Op op : {Op::none, Op::transpose}) {
      TestMatrix<T> a(op == Op::none ? n : k, op == Op::none ? k : n, layout);
      TestMatrix<T> c(n, n, layout), expected(n, n, layout), serial(n, n, layout);
      testing::fill_random(a, 30);
      testing::fill_random(c, 31);
      expected.storage = c.storage;
      serial.storage = c.storage;
      const TestMatrix<T> original = c;
      const T alpha = T(0.5), beta = T(2);
      engine.syrk(uplo, op, alpha, a.view(), beta, c.view());
      linalg::Exec exec;
      linalg::syrk(uplo, op, alpha, a.cview(), beta, serial.view(), exec);
      testing::reference_gemm<T>(op, op == Op::none ? Op::transpose : Op::none, alpha, a.cview(),
                                 a.cview(), beta, expected.view());
      double worst = 0, worst_serial = 0;
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
          const bool in = uplo == Uplo::lower ? i >= j : i <= j;
          if (in) {
            worst = std::max(worst, std::abs(double(c(i, j)) - double(expected(i, j))));
            worst_serial = std::max(worst_serial, std::abs(double(c(i, j)) - double(serial(i, j))));
          } else {
            EXPECT_EQ(c(i, j), original(i, j)) << "the other triangle must stay untouched";
          }
        }
      EXPECT_LE(worst, testing::tolerance<T>(k) * 4);
      EXPECT_LE(worst_serial, testing::tolerance<T>(k) * 4);
    }
}

TEST_P(EngineOps, SyrkUpdatesOnlyItsTriangle) {
  CpuEngine engine = make_engine();
  check_syrk<double>(engine, layout(), 190, 170);
  check_syrk<float>(engine, layout(), 90, 60);
}

TEST_P(EngineOps, SolveSpdSolves) {
  CpuEngine engine = make_engine();
  const index_t n = 240, nrhs = 5;
  TestMatrix<double> a = testing::make_spd<double>(n, layout(), 40);
  TestMatrix<double> work = a, b(n, nrhs, layout()), x(n, nrhs, layout());
  testing::fill_random(b, 41);
  x.storage = b.storage;
  engine.solve_spd(work.view(), x.view());
  TestMatrix<double> residual = b;
  testing::reference_gemm<double>(Op::none, Op::none, 1.0, a.cview(), x.cview(), -1.0,
                                  residual.view());
  double worst = 0;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < nrhs; ++j) worst = std::max(worst, std::abs(residual(i, j)));
  EXPECT_LE(worst, 1e-10);
  EXPECT_EQ(engine.last_call().routine, "potrs");
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.mode)) + "_" + std::to_string(info.param.threads) +
         "threads_" + (info.param.layout == Layout::col_major ? "col" : "row");
}

INSTANTIATE_TEST_SUITE_P(Modes, EngineOps,
                         ::testing::Values(Case{Mode::held, 2, Layout::col_major},
                                           Case{Mode::held, 2, Layout::row_major},
                                           Case{Mode::held, 3, Layout::col_major},
                                           Case{Mode::held, 1, Layout::col_major},
                                           Case{Mode::per_call, 2, Layout::col_major},
                                           Case{Mode::per_call, 2, Layout::row_major},
                                           Case{Mode::serial, 2, Layout::col_major},
                                           Case{Mode::serial, 2, Layout::row_major}),
                         case_name);

}  // namespace
}  // namespace teamla::engine
