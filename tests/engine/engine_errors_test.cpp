// SPDX-License-Identifier: Apache-2.0
// engine_errors_test.cpp: bad input, non-SPD matrices and exceptions inside kernels.
//
// Contract covered: bad input throws linalg::InvalidArgument naming the routine, the argument
// and its value, before anything is written (outputs compared bit for bit); solve_spd on a
// matrix that is not SPD throws NotPositiveDefinite and leaves B untouched, solve on a singular
// one SingularMatrix; an exception
// thrown inside a kernel (here, by one team member) reaches the caller and leaves the engine
// usable in every mode.
#include <gtest/gtest.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_engine_impl.hpp"
#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"

namespace teamla::engine {
namespace {

using testing::TestMatrix;

// expect_invalid(): `call` throws InvalidArgument for `argument`, and the message contains
// every one of `fragments`.
template <class Call>
void expect_invalid(Call&& call, const std::string& argument,
                    std::initializer_list<std::string> fragments) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one about " << argument;
  } catch (const linalg::InvalidArgument& error) {
    EXPECT_EQ(error.argument(), argument) << error.what();
    for (const std::string& fragment : fragments)
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "message '" << error.what() << "' lacks '" << fragment << "'";
  }
}

class BadArguments : public ::testing::TestWithParam<Mode> {
 protected:
  CpuEngine engine{EngineConfig{.threads = 2, .mode = GetParam()}};
};

TEST_P(BadArguments, GemmShapesAreCheckedBeforeWriting) {
  TestMatrix<double> a(5, 3), b(4, 2), c(5, 2);
  testing::fill_random(c, 1);
  const auto before = c.storage;
  expect_invalid([&] { engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view()); },
                 "B", {"teamla::gemm", "4 x 2", "k = 3"});
  TestMatrix<double> b_ok(3, 2), c_bad(5, 4);
  expect_invalid(
      [&] { engine.gemm(Op::none, Op::none, 1.0, a.view(), b_ok.view(), 0.0, c_bad.view()); }, "C",
      {"C is 5 x 4", "5 x 2"});
  MatrixView<double> short_ld = c.view();
  short_ld.ld = 3;
  expect_invalid(
      [&] { engine.gemm(Op::none, Op::none, 1.0, a.view(), b_ok.view(), 0.0, short_ld); }, "ldc",
      {"ldc = 3", "rows of C (5)"});
  MatrixView<double> null_a = a.view();
  null_a.data = nullptr;
  expect_invalid([&] { engine.gemm(Op::none, Op::none, 1.0, null_a, b_ok.view(), 0.0, c.view()); },
                 "A", {"A is null", "5 x 3"});
  expect_invalid(
      [&] { engine.gemm(static_cast<Op>(7), Op::none, 1.0, a.view(), b_ok.view(), 0.0, c.view()); },
      "op_a", {"op_a = 7"});
  EXPECT_EQ(c.storage, before);
}

TEST_P(BadArguments, RowMajorLeadingDimensionIsNamed) {
  TestMatrix<float> a(4, 6, Layout::row_major), b(6, 2, Layout::row_major),
      c(4, 2, Layout::row_major);
  MatrixView<float> bad_a = a.view();
  bad_a.ld = 5;
  expect_invalid([&] { engine.gemm(Op::none, Op::none, 1.0f, bad_a, b.view(), 0.0f, c.view()); },
                 "lda", {"lda = 5", "columns of A (6, row-major)"});
}

TEST_P(BadArguments, TrsmSyrkPotrfPotrsCheckShapes) {
  TestMatrix<double> rect(4, 3), b(4, 2), square(4, 4);
  testing::fill_random(b, 2);
  const auto b_before = b.storage;
  expect_invalid(
      [&] {
        engine.trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, rect.view(), b.view());
      },
      "A", {"teamla::trsm", "4 x 3, not square"});
  TestMatrix<double> a3(3, 3);
  expect_invalid(
      [&] {
        engine.trsm(Side::right, Uplo::lower, Op::none, Diag::non_unit, 1.0, a3.view(), b.view());
      },
      "A", {"side = right", "2 x 2"});
  EXPECT_EQ(b.storage, b_before);

  TestMatrix<double> c(4, 4);
  testing::fill_random(c, 3);
  const auto c_before = c.storage;
  expect_invalid([&] { engine.syrk(Uplo::lower, Op::none, 1.0, a3.view(), 0.0, c.view()); }, "A",
                 {"teamla::syrk", "op(A) is 3 x 3", "4 rows"});
  expect_invalid(
      [&] { engine.syrk(static_cast<Uplo>(9), Op::none, 1.0, square.view(), 0.0, c.view()); },
      "uplo", {"uplo = 9"});
  EXPECT_EQ(c.storage, c_before);

  testing::fill_random(rect, 4);
  const auto rect_before = rect.storage;
  expect_invalid([&] { (void)engine.potrf(Uplo::lower, rect.view()); }, "A",
                 {"teamla::potrf", "4 x 3, not square"});
  EXPECT_EQ(rect.storage, rect_before);

  TestMatrix<double> b5(5, 1);
  expect_invalid([&] { engine.potrs(Uplo::lower, square.view(), b5.view()); }, "B",
                 {"teamla::potrs", "B is 5 x 1", "4 rows"});
}

TEST_P(BadArguments, SolveSpdChecksBothStepsBeforeFactoring) {
  TestMatrix<double> a = testing::make_spd<double>(6, Layout::col_major, 5);
  TestMatrix<double> b(5, 2);
  const auto a_before = a.storage;
  expect_invalid([&] { engine.solve_spd(a.view(), b.view()); }, "B",
                 {"teamla::solve_spd", "B is 5 x 2", "6 rows"});
  EXPECT_EQ(a.storage, a_before) << "A must not be factored when B is invalid";
}

TEST_P(BadArguments, SolveSpdOnAnIndefiniteMatrixLeavesBUntouched) {
  TestMatrix<double> a = testing::make_spd<double>(30, Layout::col_major, 6);
  a(12, 12) = -1.0;
  TestMatrix<double> b(30, 3);
  testing::fill_random(b, 7);
  const auto b_before = b.storage;
  try {
    engine.solve_spd(a.view(), b.view());
    ADD_FAILURE() << "expected NotPositiveDefinite";
  } catch (const NotPositiveDefinite& error) {
    EXPECT_EQ(error.column(), 13);
    EXPECT_NE(std::string(error.what()).find("column 13"), std::string::npos) << error.what();
  }
  EXPECT_EQ(b.storage, b_before);
}

TEST_P(BadArguments, SolveOfASingularMatrixThrowsAndLeavesBUntouched) {
  TestMatrix<double> a(30, 30), b(30, 2);
  testing::fill_random(a, 7);
  testing::fill_random(b, 8);
  for (index_t i = 0; i < 30; ++i) a(i, 11) = 0.0;  // U(12, 12) is exactly zero
  const auto b_before = b.storage;
  try {
    engine.solve(a.view(), b.view());
    ADD_FAILURE() << "expected SingularMatrix";
  } catch (const SingularMatrix& error) {
    EXPECT_EQ(error.column(), 12);
    EXPECT_NE(std::string(error.what()).find("U(12, 12)"), std::string::npos) << error.what();
  }
  EXPECT_EQ(b.storage, b_before);
}

TEST_P(BadArguments, SolveAndLuPivotsAreCheckedBeforeWriting) {
  TestMatrix<double> a(6, 6), b(5, 1), b6(6, 1);
  testing::fill_random(a, 9);
  const auto a_before = a.storage;
  expect_invalid([&] { engine.solve(a.view(), b.view()); }, "B",
                 {"teamla::solve", "B is 5 x 1", "6 rows"});
  std::vector<int> short_ipiv(5, 1);
  expect_invalid([&] { (void)engine.getrf(a.view(), std::span<int>(short_ipiv)); }, "ipiv",
                 {"teamla::getrf", "5 entries", "6 pivots"});
  std::vector<int> wild = {1, 2, 3, 7, 5, 6};
  expect_invalid([&] { engine.getrs(Op::none, a.view(), std::span<const int>(wild), b6.view()); },
                 "ipiv", {"teamla::getrs", "ipiv[3] = 7"});
  EXPECT_EQ(a.storage, a_before) << "A must not be factored when an argument is invalid";
}

TEST_P(BadArguments, AnExceptionInsideAKernelLeavesTheEngineUsable) {
  for (int round = 0; round < 3; ++round) {
    EXPECT_THROW(engine.impl().dispatch("fault",
                                        [](linalg::Exec& exec) {
                                          if (exec.team == nullptr)
                                            throw std::runtime_error("fault in a serial kernel");
                                          exec.team->run(
                                              exec.team->width(), [](team::Section& section) {
                                                if (section.rank() + 1 == section.width())
                                                  throw std::runtime_error("fault in a member");
                                              });
                                        }),
                 std::runtime_error);
    // The next call runs normally and correctly.
    TestMatrix<double> a(300, 300), b(300, 300), c(300, 300), expected(300, 300);
    testing::fill_random(a, 8);
    testing::fill_random(b, 9);
    engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
    testing::reference_gemm<double>(Op::none, Op::none, 1.0, a.cview(), b.cview(), 0.0,
                                    expected.view());
    EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<double>(300));
    EXPECT_FALSE(engine.last_call().contended) << "the faulted call must release the team";
    EXPECT_EQ(engine.last_call().on_team, GetParam() != Mode::serial);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, BadArguments,
                         ::testing::Values(Mode::held, Mode::per_call, Mode::serial),
                         [](const auto& mode_case) {
                           return std::string(to_string(mode_case.param));
                         });

}  // namespace
}  // namespace teamla::engine
