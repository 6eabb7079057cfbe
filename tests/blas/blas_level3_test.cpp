// SPDX-License-Identifier: Apache-2.0
// blas_level3_test.cpp: [ds]symm_, [ds]trmm_, [ds]syr2k_, [ds]posv_ and their CBLAS forms at the
// ABI: illegal arguments reach the program's xerbla_ / cblas_xerbla at the reference positions
// and change nothing, posv returns LAPACK's INFO (B untouched when A is not positive definite),
// the alpha/beta edge rules hold, and a row-major CBLAS call computes the row-major product.
// The numerical coverage is the reference suites' (blas_ref.*) and the linalg tests'.
#include <gtest/gtest.h>

#include <cmath>
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

class Level3Errors : public ::testing::Test {
 protected:
  void SetUp() override { g_report = Report{}; }
  // expect_report(): exactly one report, naming `name` and `position`, and the output untouched.
  void expect_report(const char* name, int position) {
    EXPECT_EQ(g_report.calls, 1);
    EXPECT_EQ(g_report.name, name);
    EXPECT_EQ(g_report.info, position);
    for (double value : out) ASSERT_EQ(value, kSentinel) << "output written despite the error";
    g_report = Report{};
  }
  std::vector<double> in = std::vector<double>(64, 1.0);
  std::vector<double> out = std::vector<double>(64, kSentinel);
  const double alpha = 1.0, beta = 0.0;
  const int two = 2, one = 1, minus = -1;
};

TEST_F(Level3Errors, DsymmReportsItsPositions) {
  const double* a = in.data();
  double* c = out.data();
  dsymm_("X", "U", &two, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYMM ", 1);
  dsymm_("L", "X", &two, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYMM ", 2);
  dsymm_("L", "U", &minus, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYMM ", 3);
  dsymm_("L", "U", &two, &minus, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYMM ", 4);
  dsymm_("R", "L", &one, &two, &alpha, a, &one, a, &one, &beta, c, &one);  // A is n x n
  expect_report("DSYMM ", 7);
  dsymm_("L", "L", &two, &one, &alpha, a, &two, a, &one, &beta, c, &two);
  expect_report("DSYMM ", 9);
  dsymm_("L", "L", &two, &one, &alpha, a, &two, a, &two, &beta, c, &one);
  expect_report("DSYMM ", 12);
}

TEST_F(Level3Errors, DtrmmReportsTrsmsPositions) {
  const double* a = in.data();
  double* b = out.data();
  dtrmm_("X", "U", "N", "N", &two, &two, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 1);
  dtrmm_("L", "X", "N", "N", &two, &two, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 2);
  dtrmm_("L", "U", "X", "N", &two, &two, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 3);
  dtrmm_("L", "U", "N", "X", &two, &two, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 4);
  dtrmm_("L", "U", "N", "N", &minus, &two, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 5);
  dtrmm_("R", "U", "N", "N", &two, &minus, &alpha, a, &two, b, &two);
  expect_report("DTRMM ", 6);
  dtrmm_("R", "L", "T", "U", &one, &two, &alpha, a, &one, b, &one);
  expect_report("DTRMM ", 9);
  dtrmm_("L", "L", "T", "U", &two, &one, &alpha, a, &two, b, &one);
  expect_report("DTRMM ", 11);
}

TEST_F(Level3Errors, Dsyr2kReportsItsPositions) {
  const double* a = in.data();
  double* c = out.data();
  dsyr2k_("X", "N", &two, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYR2K", 1);
  dsyr2k_("U", "X", &two, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYR2K", 2);
  dsyr2k_("U", "N", &minus, &two, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYR2K", 3);
  dsyr2k_("U", "N", &two, &minus, &alpha, a, &two, a, &two, &beta, c, &two);
  expect_report("DSYR2K", 4);
  dsyr2k_("U", "T", &one, &two, &alpha, a, &one, a, &two, &beta, c, &one);  // A is k x n
  expect_report("DSYR2K", 7);
  dsyr2k_("U", "C", &one, &two, &alpha, a, &two, a, &one, &beta, c, &one);
  expect_report("DSYR2K", 9);
  dsyr2k_("L", "N", &two, &one, &alpha, a, &two, a, &two, &beta, c, &one);
  expect_report("DSYR2K", 12);
}

TEST_F(Level3Errors, DposvReportsAndReturnsMinusThePosition) {
  int info = 0;
  double* a = out.data();
  double* b = out.data() + 16;
  dposv_("X", &two, &one, a, &two, b, &two, &info);
  expect_report("DPOSV ", 1);
  EXPECT_EQ(info, -1);
  dposv_("L", &minus, &one, a, &two, b, &two, &info);
  expect_report("DPOSV ", 2);
  dposv_("L", &two, &minus, a, &two, b, &two, &info);
  expect_report("DPOSV ", 3);
  dposv_("L", &two, &one, a, &one, b, &two, &info);
  expect_report("DPOSV ", 5);
  dposv_("U", &two, &one, a, &two, b, &one, &info);
  expect_report("DPOSV ", 7);
  EXPECT_EQ(info, -7);
}

TEST_F(Level3Errors, CblasNumbersErrorsAsTheReferenceCblas) {
  const double* a = in.data();
  double* c = out.data();
  cblas_dsymm(7, kLeft, kUpper, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsymm", 1);
  cblas_dsymm(kColMajor, 7, kUpper, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsymm", 2);
  cblas_dsymm(kRowMajor, kLeft, 7, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsymm", 3);
  cblas_dsymm(kColMajor, kLeft, kUpper, -1, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsymm", 4);
  // Row-major: the reference's Fortran call swaps M and N, so M is reported at 5.
  cblas_dsymm(kRowMajor, kLeft, kUpper, -1, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsymm", 5);

  cblas_dtrmm(kRowMajor, kLeft, kUpper, kNoTrans, kNonUnit, -1, 2, 1.0, a, 2, c, 2);
  expect_report("cblas_dtrmm", 7);
  cblas_dtrmm(kColMajor, kLeft, kUpper, kNoTrans, 7, 2, 2, 1.0, a, 2, c, 2);
  expect_report("cblas_dtrmm", 5);
  cblas_dtrmm(kColMajor, kLeft, kUpper, kNoTrans, kUnit, 2, 2, 1.0, a, 1, c, 2);
  expect_report("cblas_dtrmm", 10);

  cblas_dsyr2k(kColMajor, 7, kNoTrans, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsyr2k", 2);
  cblas_dsyr2k(kRowMajor, 7, kNoTrans, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsyr2k", 3);
  cblas_dsyr2k(kColMajor, kUpper, 7, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
  expect_report("cblas_dsyr2k", 3);
  // Row-major n x k A (k = 3) is the column-major k x n storage: lda < k is position 7 + 1.
  cblas_dsyr2k(kRowMajor, kUpper, kNoTrans, 2, 3, 1.0, a, 2, a, 3, 0.0, c, 2);
  expect_report("cblas_dsyr2k", 8);
  cblas_dsyr2k(kRowMajor, kUpper, kNoTrans, 2, 3, 1.0, a, 3, a, 2, 0.0, c, 2);
  expect_report("cblas_dsyr2k", 10);
}

TEST(Level3Edges, AlphaZeroAndBetaZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int m = 3, n = 2;
  const double zero = 0.0, one = 1.0, two = 2.0;
  // symm, alpha == 0: A and B unreferenced (null), C = beta * C; beta == 0 overwrites NaN.
  std::vector<double> c(static_cast<std::size_t>(m) * n, nan);
  dsymm_("L", "U", &m, &n, &zero, nullptr, &m, nullptr, &m, &zero, c.data(), &m);
  for (double value : c) EXPECT_EQ(value, 0.0);
  std::vector<double> d(static_cast<std::size_t>(m) * n, 3.0);
  dsymm_("R", "L", &m, &n, &zero, nullptr, &n, nullptr, &m, &two, d.data(), &m);
  for (double value : d) EXPECT_EQ(value, 6.0);
  // alpha == 0 and beta == 1: a quick return, C not even read.
  dsymm_("L", "U", &m, &n, &zero, nullptr, &m, nullptr, &m, &one, c.data(), &m);
  // symm with beta == 0 and NaN in C: overwritten by A*B.
  std::vector<double> a(9, 1.0), b(6, 1.0), e(6, nan);
  dsymm_("L", "U", &m, &n, &one, a.data(), &m, b.data(), &m, &zero, e.data(), &m);
  for (double value : e) EXPECT_EQ(value, 3.0);
  // trmm, alpha == 0: B = 0 without reading A.
  dtrmm_("L", "U", "N", "N", &m, &n, &zero, nullptr, &m, d.data(), &m);
  for (double value : d) EXPECT_EQ(value, 0.0);
  // syr2k, beta == 0: the triangle's NaNs overwritten; the other triangle untouched.
  std::vector<double> s(static_cast<std::size_t>(n) * n, nan);
  dsyr2k_("L", "N", &n, &m, &one, a.data(), &n, b.data(), &n, &zero, s.data(), &n);
  EXPECT_EQ(s[0], 6.0);
  EXPECT_EQ(s[1], 6.0);
  EXPECT_EQ(s[3], 6.0);
  EXPECT_TRUE(std::isnan(s[2])) << "the upper triangle must stay untouched";
}

TEST(Level3Posv, SolvesAndReportsANonPositiveDefiniteMinor) {
  // [4 2; 2 3] x = [2; 1] has x = [0.5; 0].
  std::vector<double> a{4, 2, 2, 3};
  std::vector<double> b{2, 1};
  const int n = 2, nrhs = 1;
  int info = -9;
  dposv_("U", &n, &nrhs, a.data(), &n, b.data(), &n, &info);
  EXPECT_EQ(info, 0);
  EXPECT_NEAR(b[0], 0.5, 1e-15);
  EXPECT_NEAR(b[1], 0.0, 1e-15);
  // [1 2; 2 1]: the minor of order 2 is not positive definite; B untouched.
  std::vector<float> s{1, 2, 2, 1};
  std::vector<float> x{7, 8};
  sposv_("L", &n, &nrhs, s.data(), &n, x.data(), &n, &info);
  EXPECT_EQ(info, 2);
  EXPECT_EQ(x[0], 7.0f);
  EXPECT_EQ(x[1], 8.0f);
}

// A row-major CBLAS call computes the row-major product (the mapping to the Fortran routine
// flips side and uplo and swaps M and N).
TEST(Level3RowMajor, SymmAndTrmmMatchTheRowMajorProduct) {
  const int m = 2, n = 3;
  // Row-major A (2 x 2), upper triangle stored; the lower holds NaN and must not be read.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a{1, 2, nan, 3};
  const std::vector<double> b{1, 2, 3, 4, 5, 6};  // row-major 2 x 3
  std::vector<double> c(6, nan);
  cblas_dsymm(kRowMajor, kLeft, kUpper, m, n, 1.0, a.data(), 2, b.data(), 3, 0.0, c.data(), 3);
  // S = [1 2; 2 3]: S*B = [9 12 15; 14 19 24].
  const std::vector<double> symm_expected{9, 12, 15, 14, 19, 24};
  EXPECT_EQ(c, symm_expected);
  std::vector<double> t = b;
  cblas_dtrmm(kRowMajor, kLeft, kUpper, kNoTrans, kNonUnit, m, n, 1.0, a.data(), 2, t.data(), 3);
  // U = [1 2; 0 3]: U*B = [9 12 15; 12 15 18].
  const std::vector<double> trmm_expected{9, 12, 15, 12, 15, 18};
  EXPECT_EQ(t, trmm_expected);
}

}  // namespace
