// SPDX-License-Identifier: Apache-2.0
// engine_level3_test.cpp: CpuEngine's symm, trmm and syr2k in every engine mode.
//
// Contract covered: each mode (held, per_call, serial) runs the routine with the result of the
// linalg kernel run serially (itself checked against a naive oracle in tests/linalg), in double
// and float, column- and row-major, at sizes where the team is used; the call is recorded
// under its name; a bad argument throws InvalidArgument with the output untouched.
#include <gtest/gtest.h>

#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"

namespace teamla::engine {
namespace {

using linalg::Layout;
using testing::TestMatrix;

struct Case {
  Mode mode;
  Layout layout;
};

class EngineLevel3 : public ::testing::TestWithParam<Case> {
 protected:
  CpuEngine make_engine() const {
    EngineConfig config;
    config.mode = GetParam().mode;
    config.threads = 2;
    return CpuEngine(config);
  }
  Layout layout() const { return GetParam().layout; }
};

template <class T>
void check_symm(CpuEngine& engine, Layout layout, index_t m, index_t n) {
  for (Side side : {Side::left, Side::right}) {
    const index_t order = side == Side::left ? m : n;
    TestMatrix<T> a(order, order, layout), b(m, n, layout), c(m, n, layout);
    testing::fill_random(a, 1);
    testing::fill_random(b, 2);
    testing::fill_random(c, 3);
    TestMatrix<T> serial = c;
    engine.symm(side, Uplo::upper, T(0.5), a.view(), b.view(), T(-1), c.view());
    EXPECT_EQ(engine.last_call().routine, "symm");
    linalg::Exec exec;
    linalg::symm(side, Uplo::upper, T(0.5), a.cview(), b.cview(), T(-1), serial.view(), exec);
    EXPECT_LE(testing::max_abs_diff(c.cview(), serial.cview()), testing::tolerance<T>(order));
  }
}

template <class T>
void check_trmm(CpuEngine& engine, Layout layout, index_t m, index_t n) {
  for (Side side : {Side::left, Side::right})
    for (Op op : {Op::none, Op::transpose}) {
      const index_t order = side == Side::left ? m : n;
      TestMatrix<T> a(order, order, layout), b(m, n, layout);
      testing::fill_random(a, 4);
      testing::fill_random(b, 5);
      TestMatrix<T> serial = b;
      engine.trmm(side, Uplo::lower, op, Diag::non_unit, T(2), a.view(), b.view());
      EXPECT_EQ(engine.last_call().routine, "trmm");
      linalg::Exec exec;
      linalg::trmm(side, Uplo::lower, op, Diag::non_unit, T(2), a.cview(), serial.view(), exec);
      EXPECT_LE(testing::max_abs_diff(b.cview(), serial.cview()), testing::tolerance<T>(order));
    }
}

template <class T>
void check_syr2k(CpuEngine& engine, Layout layout, index_t n, index_t k) {
  for (Op op : {Op::none, Op::transpose}) {
    const index_t rows = op == Op::none ? n : k;
    const index_t cols = op == Op::none ? k : n;
    TestMatrix<T> a(rows, cols, layout), b(rows, cols, layout), c(n, n, layout);
    testing::fill_random(a, 6);
    testing::fill_random(b, 7);
    testing::fill_random(c, 8);
    TestMatrix<T> serial = c;
    engine.syr2k(Uplo::lower, op, T(1), a.view(), b.view(), T(0.5), c.view());
    EXPECT_EQ(engine.last_call().routine, "syr2k");
    linalg::Exec exec;
    linalg::syr2k(Uplo::lower, op, T(1), a.cview(), b.cview(), T(0.5), serial.view(), exec);
    EXPECT_LE(testing::max_abs_diff(c.cview(), serial.cview()), testing::tolerance<T>(2 * k));
  }
}

TEST_P(EngineLevel3, SymmMatchesTheSerialKernel) {
  CpuEngine engine = make_engine();
  check_symm<double>(engine, layout(), 200, 150);
  check_symm<float>(engine, layout(), 90, 70);
}

TEST_P(EngineLevel3, TrmmMatchesTheSerialKernel) {
  CpuEngine engine = make_engine();
  check_trmm<double>(engine, layout(), 180, 260);
  check_trmm<float>(engine, layout(), 70, 90);
}

TEST_P(EngineLevel3, Syr2kMatchesTheSerialKernel) {
  CpuEngine engine = make_engine();
  check_syr2k<double>(engine, layout(), 220, 130);
  check_syr2k<float>(engine, layout(), 80, 40);
}

TEST_P(EngineLevel3, BadArgumentsThrowAndLeaveTheOutputUntouched) {
  CpuEngine engine = make_engine();
  TestMatrix<double> a(4, 4, layout()), b(4, 3, layout()), c(4, 3, layout());
  testing::fill_random(c, 9);
  const TestMatrix<double> before = c;
  EXPECT_THROW(engine.symm(Side::right, Uplo::lower, 1.0, a.view(), b.view(), 0.0, c.view()),
               linalg::InvalidArgument);
  EXPECT_THROW(engine.trmm(Side::right, Uplo::lower, Op::none, Diag::unit, 1.0, a.view(), c.view()),
               linalg::InvalidArgument);
  EXPECT_THROW(engine.syr2k(Uplo::lower, Op::none, 1.0, a.view(), b.view(), 0.0, c.view()),
               linalg::InvalidArgument);
  EXPECT_EQ(c.storage, before.storage);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.mode)) + "_" +
         (info.param.layout == Layout::col_major ? "col" : "row");
}

INSTANTIATE_TEST_SUITE_P(Modes, EngineLevel3,
                         ::testing::Values(Case{Mode::held, Layout::col_major},
                                           Case{Mode::held, Layout::row_major},
                                           Case{Mode::per_call, Layout::col_major},
                                           Case{Mode::serial, Layout::row_major}),
                         case_name);

}  // namespace
}  // namespace teamla::engine
