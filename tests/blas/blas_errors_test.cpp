// SPDX-License-Identifier: Apache-2.0
// blas_errors_test.cpp: illegal arguments and edge semantics of the exported routines.
//
// Contract covered: illegal arguments reach the program's own xerbla_ / cblas_xerbla (this
// test program defines both, as the reference test programs do) with the routine's name and
// the reference position, and change nothing; LAPACK routines also return -position in INFO;
// the reference edge semantics (alpha == 0 leaves A and B unreferenced, beta == 0 does not
// read C) hold at the ABI; the complex LU routines and trmm take 'C' as the conjugate transpose.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
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

// The complex LU family and trmm check their arguments as zgetrs.f, zgetrf.f, zgesv.f, zgetri.f
// and ztrmm.f do ('C' is a legal TRANS), and refuse pivots outside A as the real routines do.
TEST_F(BlasErrors, ComplexLuAndTrmmReportTheirPositions) {
  using Z = std::complex<double>;
  auto* z_out = reinterpret_cast<Z*>(out.data());
  const auto* z_in = reinterpret_cast<const Z*>(in.data());
  const int two = 2, one = 1, minus = -1, short_work = 1, lwork = 8, k1 = 1, k2 = 2, inc = 1;
  const std::vector<int> ipiv = {1, 2}, wild = {1, 9};
  std::vector<int> pivots(2, 0);
  const Z alpha = {1, 1};
  int info = 0;
  zgetrs_("X", &two, &one, z_in, &two, ipiv.data(), z_out, &two, &info);
  expect_report("ZGETRS", 1);
  EXPECT_EQ(info, -1);
  zgetrs_("C", &minus, &one, z_in, &two, ipiv.data(), z_out, &two, &info);
  expect_report("ZGETRS", 2);
  zgetrs_("C", &two, &one, z_in, &one, ipiv.data(), z_out, &two, &info);
  expect_report("ZGETRS", 5);
  zgetrs_("c", &two, &one, z_in, &two, wild.data(), z_out, &two, &info);
  expect_report("ZGETRS", 6);
  zgetrf_(&two, &two, z_out, &one, pivots.data(), &info);
  expect_report("ZGETRF", 4);
  EXPECT_EQ(info, -4);
  zgesv_(&two, &minus, z_out, &two, pivots.data(), z_out + 4, &two, &info);
  expect_report("ZGESV ", 2);
  zgetri_(&two, z_out, &two, ipiv.data(), z_out + 4, &short_work, &info);
  expect_report("ZGETRI", 6);
  EXPECT_EQ(info, -6);
  zgetri_(&two, z_out, &two, wild.data(), z_out + 4, &lwork, &info);
  expect_report("ZGETRI", 4);
  zlaswp_(&two, z_out, &two, &k1, &k2, wild.data(), &inc);
  expect_report("ZLASWP", 6);
  ztrmm_("X", "U", "C", "N", &two, &two, &alpha, z_in, &two, z_out, &two);
  expect_report("ZTRMM ", 1);
  ztrmm_("L", "U", "X", "N", &two, &two, &alpha, z_in, &two, z_out, &two);
  expect_report("ZTRMM ", 3);
  ztrmm_("R", "L", "C", "U", &one, &two, &alpha, z_in, &one, z_out, &one);
  expect_report("ZTRMM ", 9);
  cblas_ztrmm(kColMajor, 7, kUpper, kConjTrans, kNonUnit, 2, 2, &alpha, z_in, 2, z_out, 2);
  expect_report("cblas_ztrmm", 2);
  cblas_ztrmm(kRowMajor, kLeft, kUpper, kConjTrans, kNonUnit, -1, 2, &alpha, z_in, 2, z_out, 2);
  expect_report("cblas_ztrmm", 7);

  std::vector<std::complex<float>> c_out(8, {42.0F, 42.0F});
  const std::vector<std::complex<float>> c_before = c_out;
  const std::complex<float> c_alpha = {1, 0};
  cgetrf_(&minus, &two, c_out.data(), &two, pivots.data(), &info);
  expect_report("CGETRF", 1);
  EXPECT_EQ(info, -1);
  ctrmm_("L", "U", "C", "X", &two, &two, &c_alpha, c_out.data(), &two, c_out.data() + 4, &two);
  expect_report("CTRMM ", 4);
  EXPECT_EQ(c_out, c_before);
}

// The complex symmetric and Hermitian products and updates: zsyrk and zsyr2k take TRANS 'N' or
// 'T' only, zher2k 'N' or 'C' only (as zsyrk.f, zsyr2k.f and zher2k.f); zhemm checks as dsymm.
TEST_F(BlasErrors, ComplexSymmetricRoutinesReportTheirPositions) {
  using Z = std::complex<double>;
  auto* z_out = reinterpret_cast<Z*>(out.data());
  const auto* z_in = reinterpret_cast<const Z*>(in.data());
  const int two = 2, one = 1;
  const Z alpha = {1, 1};
  const Z beta = {0, 1};
  const double real_beta = 0.5;
  zsyrk_("U", "C", &two, &two, &alpha, z_in, &two, &beta, z_out, &two);
  expect_report("ZSYRK ", 2);
  zher2k_("L", "T", &two, &two, &alpha, z_in, &two, z_in, &two, &real_beta, z_out, &two);
  expect_report("ZHER2K", 2);
  zher2k_("L", "C", &two, &two, &alpha, z_in, &two, z_in, &one, &real_beta, z_out, &two);
  expect_report("ZHER2K", 9);
  zhemm_("X", "U", &two, &two, &alpha, z_in, &two, z_in, &two, &beta, z_out, &two);
  expect_report("ZHEMM ", 1);
  zhemm_("R", "U", &two, &two, &alpha, z_in, &one, z_in, &two, &beta, z_out, &two);
  expect_report("ZHEMM ", 7);
  cblas_zher2k(kRowMajor, 7, kNoTrans, 2, 2, &alpha, z_in, 2, z_in, 2, 0.5, z_out, 2);
  expect_report("cblas_zher2k", 3);
  cblas_zsyr2k(kColMajor, kUpper, kConjTrans, 2, 2, &alpha, z_in, 2, z_in, 2, &beta, z_out, 2);
  expect_report("cblas_zsyr2k", 3);
}

// op_entry(): entry (i, k) of op(A) for A n x n, stored column-major or row-major.
std::complex<double> op_entry(const std::vector<std::complex<double>>& a, int n, char trans, int i,
                              int k, bool row_major = false) {
  const auto at = [&](int r, int c) {
    return row_major ? a[static_cast<std::size_t>(r * n + c)]
                     : a[static_cast<std::size_t>(r + c * n)];
  };
  if (trans == 'N') return at(i, k);
  return trans == 'T' ? at(k, i) : std::conj(at(k, i));
}

// 'C' is the conjugate transpose at the complex ABI (A^H, not A^T): zgetrs_ solves with it,
// ztrmm_ and a row-major cblas_ztrmm multiply by it; zgesv_ and zgetri_ solve and invert.
TEST(BlasComplex, LuAndTrmmComputeWithTheConjugateTranspose) {
  using Z = std::complex<double>;
  const int n = 2, one = 1;
  const std::vector<Z> a = {{1, 1}, {0, 3}, {2, 0}, {4, -1}};  // column-major [1+i 2; 3i 4-i]
  const std::vector<Z> b = {{1, 2}, {-3, 1}};
  std::vector<Z> lu = a;
  std::vector<int> ipiv(2, 0);
  int info = -1;
  zgetrf_(&n, &n, lu.data(), &n, ipiv.data(), &info);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(ipiv[1], 2);
  for (const char trans : {'N', 'T', 'C'}) {
    std::vector<Z> x = b;
    const char letter[2] = {trans, '\0'};
    zgetrs_(letter, &n, &one, lu.data(), &n, ipiv.data(), x.data(), &n, &info);
    ASSERT_EQ(info, 0);
    for (int i = 0; i < n; ++i) {
      const Z row = op_entry(a, n, trans, i, 0) * x[0] + op_entry(a, n, trans, i, 1) * x[1];
      EXPECT_NEAR(std::abs(row - b[static_cast<std::size_t>(i)]), 0.0, 1e-14) << trans << i;
    }
  }
  std::vector<Z> factors = a;
  std::vector<Z> x = b;
  zgesv_(&n, &one, factors.data(), &n, ipiv.data(), x.data(), &n, &info);
  ASSERT_EQ(info, 0);
  EXPECT_NEAR(std::abs(a[0] * x[0] + a[2] * x[1] - b[0]), 0.0, 1e-14);
  EXPECT_NEAR(std::abs(a[1] * x[0] + a[3] * x[1] - b[1]), 0.0, 1e-14);
  std::vector<Z> work(1);
  const int query = -1;
  zgetri_(&n, factors.data(), &n, ipiv.data(), work.data(), &query, &info);
  EXPECT_EQ(info, 0);
  const int lwork = static_cast<int>(work[0].real());
  EXPECT_GE(lwork, n);
  work.resize(static_cast<std::size_t>(lwork));
  zgetri_(&n, factors.data(), &n, ipiv.data(), work.data(), &lwork, &info);
  ASSERT_EQ(info, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const Z product = op_entry(a, n, 'N', i, 0) * factors[static_cast<std::size_t>(2 * j)] +
                        op_entry(a, n, 'N', i, 1) * factors[static_cast<std::size_t>(2 * j + 1)];
      EXPECT_NEAR(std::abs(product - Z(i == j ? 1.0 : 0.0)), 0.0, 1e-14);
    }
  }

  // B = alpha A^H B with A upper triangular: its lower entry must not be read.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Z> upper = a;
  upper[1] = {nan, nan};
  const std::vector<Z> full_upper = {a[0], 0.0, a[2], a[3]};
  const Z alpha = {0.5, -1};
  std::vector<Z> product = {{1, 0}, {2, 1}, {0, -1}, {3, 3}};  // 2 x 2, column-major
  const std::vector<Z> before = product;
  ztrmm_("L", "U", "C", "N", &n, &n, &alpha, upper.data(), &n, product.data(), &n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const Z expected =
          alpha *
          (op_entry(full_upper, n, 'C', i, 0) * before[static_cast<std::size_t>(2 * j)] +
           op_entry(full_upper, n, 'C', i, 1) * before[static_cast<std::size_t>(2 * j + 1)]);
      EXPECT_NEAR(std::abs(product[static_cast<std::size_t>(i + 2 * j)] - expected), 0.0, 1e-14);
    }
  }
  // Row-major: the same A^H B, A and B stored by rows (A's lower entry at [2]).
  std::vector<Z> upper_rows = {a[0], a[2], {nan, nan}, a[3]};
  const std::vector<Z> full_rows = {a[0], a[2], 0.0, a[3]};
  std::vector<Z> rows = {{1, 0}, {0, -1}, {5, 0}, {2, 1}, {3, 3}, {-1, 2}};  // 2 x 3 by rows
  const std::vector<Z> rows_before = rows;
  cblas_ztrmm(kRowMajor, kLeft, kUpper, kConjTrans, kNonUnit, n, 3, &alpha, upper_rows.data(), n,
              rows.data(), 3);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Z expected =
          alpha *
          (op_entry(full_rows, n, 'C', i, 0, true) * rows_before[static_cast<std::size_t>(j)] +
           op_entry(full_rows, n, 'C', i, 1, true) * rows_before[static_cast<std::size_t>(3 + j)]);
      EXPECT_NEAR(std::abs(rows[static_cast<std::size_t>(3 * i + j)] - expected), 0.0, 1e-14);
    }
  }
}

}  // namespace
