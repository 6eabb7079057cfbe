// SPDX-License-Identifier: Apache-2.0
// blas_errors_test.cpp: illegal arguments and edge semantics of the exported routines.
//
// Contract covered: illegal arguments reach the program's own xerbla_ / cblas_xerbla (this
// test program defines both, as the reference test programs do) with the routine's name and
// the reference position, and change nothing; LAPACK routines also return -position in INFO;
// the reference edge semantics (alpha == 0 leaves A and B unreferenced, beta == 0 does not
// read C) hold at the ABI.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "blas/blas_abi.hpp"

namespace {
struct Report {
  int calls = 0;
  std::string name;
  int info = 0;
};
Report g_report;  // NOLINT: written by the handlers below, single-threaded test
}  // namespace

// The handlers: the library must find these (the program's) rather than its own defaults.
extern "C" void xerbla_(const char* name, const int* info, std::size_t length) {
  ++g_report.calls;
  g_report.name.assign(name, length);
  g_report.info = *info;
}
extern "C" void cblas_xerbla(int info, const char* routine, const char* /*form*/, ...) {
  ++g_report.calls;
  g_report.name = routine;
  g_report.info = info;
}

namespace {

using namespace teamla::blas_test;

constexpr double kSentinel = 42.0;

class BlasErrors : public ::testing::Test {
 protected:
  void SetUp() override { g_report = Report{}; }
  // expect_report(): exactly one report, naming `name` and `position`, and C untouched.
  void expect_report(const char* name, int position) {
    EXPECT_EQ(g_report.calls, 1);
    EXPECT_EQ(g_report.name, name);
    EXPECT_EQ(g_report.info, position);
    for (double value : out) ASSERT_EQ(value, kSentinel) << "output written despite the error";
    g_report = Report{};
  }
  std::vector<double> in = std::vector<double>(64, 1.0);
  std::vector<double> out = std::vector<double>(64, kSentinel);
};

TEST_F(BlasErrors, DgemmReportsEachArgumentAtItsReferencePosition) {
  struct Case {
    const char *ta, *tb;
    int m, n, k, lda, ldb, ldc, position;
  };
  const Case cases[] = {
      {"X", "N", 2, 2, 2, 2, 2, 2, 1},
      {"N", "/", 2, 2, 2, 2, 2, 2, 2},
      {"N", "N", -1, 2, 2, 2, 2, 2, 3},
      {"N", "N", 2, -1, 2, 2, 2, 2, 4},
      {"N", "N", 2, 2, -1, 2, 2, 2, 5},
      {"N", "N", 3, 2, 2, 2, 2, 3, 8},
      {"T", "N", 2, 2, 3, 2, 3, 2, 8},
      {"N", "N", 2, 2, 3, 2, 2, 2, 10},
      {"N", "t", 2, 3, 2, 2, 2, 2, 10},
      {"N", "N", 3, 2, 2, 3, 2, 2, 13},
      // Several illegal: the first in the reference's order wins.
      {"N", "N", -1, -1, -1, 0, 0, 0, 3},
  };
  const double alpha = 1.0, beta = 0.0;
  for (const Case& c : cases) {
    dgemm_(c.ta, c.tb, &c.m, &c.n, &c.k, &alpha, in.data(), &c.lda, in.data(), &c.ldb, &beta,
           out.data(), &c.ldc);
    expect_report("DGEMM ", c.position);
  }
}

TEST_F(BlasErrors, DtrsmAndDsyrkReportTheirPositions) {
  const double alpha = 1.0, beta = 0.0;
  const int two = 2, one = 1, minus = -1;
  dtrsm_("X", "U", "N", "N", &two, &two, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 1);
  dtrsm_("L", "X", "N", "N", &two, &two, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 2);
  dtrsm_("L", "U", "X", "N", &two, &two, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 3);
  dtrsm_("L", "U", "N", "X", &two, &two, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 4);
  dtrsm_("L", "U", "N", "N", &minus, &two, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 5);
  dtrsm_("R", "U", "N", "N", &two, &minus, &alpha, in.data(), &two, out.data(), &two);
  expect_report("DTRSM ", 6);
  dtrsm_("R", "L", "T", "U", &one, &two, &alpha, in.data(), &one, out.data(), &one);
  expect_report("DTRSM ", 9);
  dtrsm_("L", "L", "T", "U", &two, &one, &alpha, in.data(), &two, out.data(), &one);
  expect_report("DTRSM ", 11);

  dsyrk_("X", "N", &two, &two, &alpha, in.data(), &two, &beta, out.data(), &two);
  expect_report("DSYRK ", 1);
  dsyrk_("U", "X", &two, &two, &alpha, in.data(), &two, &beta, out.data(), &two);
  expect_report("DSYRK ", 2);
  dsyrk_("U", "N", &minus, &two, &alpha, in.data(), &two, &beta, out.data(), &two);
  expect_report("DSYRK ", 3);
  dsyrk_("U", "N", &two, &minus, &alpha, in.data(), &two, &beta, out.data(), &two);
  expect_report("DSYRK ", 4);
  dsyrk_("U", "T", &one, &two, &alpha, in.data(), &one, &beta, out.data(), &one);
  expect_report("DSYRK ", 7);
  dsyrk_("L", "N", &two, &one, &alpha, in.data(), &two, &beta, out.data(), &one);
  expect_report("DSYRK ", 10);
}

TEST_F(BlasErrors, LapackRoutinesReportAndReturnMinusThePosition) {
  const int two = 2, one = 1, minus = -1;
  int info = 0;
  dpotrf_("X", &two, out.data(), &two, &info);
  expect_report("DPOTRF", 1);
  EXPECT_EQ(info, -1);
  dpotrf_("U", &minus, out.data(), &two, &info);
  expect_report("DPOTRF", 2);
  EXPECT_EQ(info, -2);
  dpotrf_("L", &two, out.data(), &one, &info);
  expect_report("DPOTRF", 4);
  EXPECT_EQ(info, -4);
  std::vector<float> out32(16, 42.0F);
  spotrf_("L", &two, out32.data(), &one, &info);
  EXPECT_EQ(g_report.name, "SPOTRF");
  EXPECT_EQ(info, -4);
  g_report = Report{};

  dpotrs_("X", &two, &one, in.data(), &two, out.data(), &two, &info);
  expect_report("DPOTRS", 1);
  dpotrs_("L", &minus, &one, in.data(), &two, out.data(), &two, &info);
  expect_report("DPOTRS", 2);
  dpotrs_("L", &two, &minus, in.data(), &two, out.data(), &two, &info);
  expect_report("DPOTRS", 3);
  dpotrs_("L", &two, &one, in.data(), &one, out.data(), &two, &info);
  expect_report("DPOTRS", 5);
  dpotrs_("L", &two, &one, in.data(), &two, out.data(), &one, &info);
  expect_report("DPOTRS", 7);
  EXPECT_EQ(info, -7);
}

TEST_F(BlasErrors, CblasNumbersErrorsAsTheReferenceCblas) {
  cblas_dgemm(7, kNoTrans, kNoTrans, 2, 2, 2, 1.0, in.data(), 2, in.data(), 2, 0.0, out.data(), 2);
  expect_report("cblas_dgemm", 1);
  cblas_dgemm(kColMajor, 7, kNoTrans, 2, 2, 2, 1.0, in.data(), 2, in.data(), 2, 0.0, out.data(), 2);
  expect_report("cblas_dgemm", 2);
  cblas_dgemm(kRowMajor, kNoTrans, 7, 2, 2, 2, 1.0, in.data(), 2, in.data(), 2, 0.0, out.data(), 2);
  expect_report("cblas_dgemm", 3);
  cblas_dgemm(kColMajor, kNoTrans, kNoTrans, -1, 2, 2, 1.0, in.data(), 2, in.data(), 2, 0.0,
              out.data(), 2);
  expect_report("cblas_dgemm", 4);
  // Row-major: the reference reports M at 5 and N at 4 (its Fortran call swaps them), and
  // lda at 11, ldb at 9; the CBLAS test programs' cblas_xerbla swaps them back.
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, -1, 2, 2, 1.0, in.data(), 2, in.data(), 2, 0.0,
              out.data(), 2);
  expect_report("cblas_dgemm", 5);
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, 2, -1, 2, 1.0, in.data(), 2, in.data(), 2, 0.0,
              out.data(), 2);
  expect_report("cblas_dgemm", 4);
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, 2, 2, 3, 1.0, in.data(), 2, in.data(), 2, 0.0,
              out.data(), 2);
  expect_report("cblas_dgemm", 11);
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, 2, 3, 2, 1.0, in.data(), 2, in.data(), 2, 0.0,
              out.data(), 3);
  expect_report("cblas_dgemm", 9);
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, 2, 3, 2, 1.0, in.data(), 2, in.data(), 3, 0.0,
              out.data(), 2);
  expect_report("cblas_dgemm", 14);

  cblas_dtrsm(kRowMajor, kLeft, kUpper, kNoTrans, kNonUnit, -1, 2, 1.0, in.data(), 2, out.data(),
              2);
  expect_report("cblas_dtrsm", 7);
  cblas_dtrsm(kColMajor, kLeft, kUpper, kNoTrans, 7, 2, 2, 1.0, in.data(), 2, out.data(), 2);
  expect_report("cblas_dtrsm", 5);
  cblas_dsyrk(kColMajor, 7, kNoTrans, 2, 2, 1.0, in.data(), 2, 0.0, out.data(), 2);
  expect_report("cblas_dsyrk", 2);
  cblas_dsyrk(kRowMajor, kUpper, kNoTrans, 2, 3, 1.0, in.data(), 2, 0.0, out.data(), 2);
  expect_report("cblas_dsyrk", 8);
}

TEST_F(BlasErrors, LegalCallsReportNothing) {
  const double alpha = 1.0, beta = 0.0;
  const int two = 2;
  dgemm_("n", "t", &two, &two, &two, &alpha, in.data(), &two, in.data(), &two, &beta, out.data(),
         &two);
  EXPECT_EQ(g_report.calls, 0);
  EXPECT_EQ(out[0], 2.0);
}

// LAPACK does not check pivots: a pivot outside A would read and write outside it. teamla
// reports it as an illegal ipiv (its position), with nothing written.
TEST_F(BlasErrors, LuPivotsOutsideTheMatrixAreReportedNotFollowed) {
  const int two = 2, one = 1, lwork = 64;
  int info = 0;
  const std::vector<int> wild = {1, 9};
  dgetrs_("N", &two, &one, in.data(), &two, wild.data(), out.data(), &two, &info);
  expect_report("DGETRS", 6);
  EXPECT_EQ(info, -6);
  dgetri_(&two, out.data(), &two, wild.data(), in.data(), &lwork, &info);
  expect_report("DGETRI", 4);
  EXPECT_EQ(info, -4);
  const int k1 = 1, k2 = 2, inc = 1;
  dlaswp_(&two, out.data(), &two, &k1, &k2, wild.data(), &inc);
  expect_report("DLASWP", 6);
}

TEST(BlasEdges, AlphaZeroLeavesFactorsUnreferencedAndBetaZeroDoesNotReadC) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int m = 3, n = 2, k = 4;
  std::vector<double> c(static_cast<std::size_t>(m) * n, nan);
  const double zero = 0.0, one = 1.0, two = 2.0;
  // alpha == 0 with null A and B: C = beta * C; beta == 0 overwrites the NaNs.
  dgemm_("N", "N", &m, &n, &k, &zero, nullptr, &m, nullptr, &k, &zero, c.data(), &m);
  for (double value : c) EXPECT_EQ(value, 0.0);
  std::vector<double> b(static_cast<std::size_t>(m) * n, 5.0);
  dgemm_("N", "N", &m, &n, &k, &zero, nullptr, &m, nullptr, &k, &two, b.data(), &m);
  for (double value : b) EXPECT_EQ(value, 10.0);
  // trsm with alpha == 0 sets B to zero without reading A.
  dtrsm_("L", "U", "N", "N", &m, &n, &zero, nullptr, &m, b.data(), &m);
  for (double value : b) EXPECT_EQ(value, 0.0);
  // syrk with beta == 0: C's NaNs in the triangle are overwritten, not propagated.
  std::vector<double> a(static_cast<std::size_t>(n) * k, 1.0);
  std::vector<double> s(static_cast<std::size_t>(n) * n, nan);
  dsyrk_("L", "N", &n, &k, &one, a.data(), &n, &zero, s.data(), &n);
  EXPECT_EQ(s[0], 4.0);
  EXPECT_EQ(s[1], 4.0);
  EXPECT_EQ(s[3], 4.0);
  EXPECT_TRUE(std::isnan(s[2])) << "the upper triangle must stay untouched";
}

}  // namespace
