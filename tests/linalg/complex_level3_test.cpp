// SPDX-License-Identifier: Apache-2.0
// complex_level3_test.cpp: the complex level 3 but gemm (linalg/src/level3/complex_*.cpp), in
// std::complex<double> and std::complex<float>.
//
// Covers: trsm on every side, triangle, op (the conjugate transpose included) and diagonal, in
// both layouts, against op(A) X = alpha B multiplied back in long double, with alpha zero
// reading neither A nor B's values; trmm on every case against alpha op(A) B; herk on both
// triangles with op none and conjugate transpose, real alpha and beta (zero included), the other
// triangle untouched and the diagonal's imaginary parts zero; both on teams of 2; bad arguments
// throw.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "linalg/team_param_test.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

using Wide = std::complex<long double>;

template <class Z>
Wide wide(Z z) {
  return {z.real(), z.imag()};
}

template <class Z>
std::vector<Z> random_values(index_t count, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Z> v(static_cast<std::size_t>(count));
  for (Z& z : v)
    z = Z(static_cast<typename Z::value_type>(u(rng)), static_cast<typename Z::value_type>(u(rng)));
  return v;
}

template <class Z>
double tolerance() {
  return std::is_same_v<Z, std::complex<double>> ? 1e-11 : 1e-3;
}

template <class Z>
Wide op_element(const MatrixView<const Z>& a, Op op, index_t i, index_t j) {
  const Wide z = wide(op == Op::none ? a(i, j) : a(j, i));
  return op == Op::conj_transpose ? std::conj(z) : z;
}

// triangle_element(): op(A)(i, j) with only A's `uplo` triangle read, its diagonal 1 when unit.
template <class Z>
Wide triangle_element(const MatrixView<const Z>& a, Uplo uplo, Op op, Diag diag, index_t i,
                      index_t j) {
  const index_t r = op == Op::none ? i : j;
  const index_t c = op == Op::none ? j : i;
  if (r == c && diag == Diag::unit) return 1;
  if ((uplo == Uplo::lower) ? r < c : r > c) return 0;
  return op_element(a, op, i, j);
}

// check_trsm(): X from trsm, multiplied back by op(A) (only A's triangle, its diagonal 1 when
// unit) against alpha B.
template <class Z>
void check_trsm(Side side, Uplo uplo, Op op, Diag diag, Layout layout, index_t m, index_t n,
                team::Team* team) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(m * 31 + n));
  const index_t order = side == Side::left ? m : n;
  std::vector<Z> sa = random_values<Z>(order * order, rng);
  const MatrixView<Z> a{sa.data(), order, order, order, layout};
  // Off-diagonal entries of 1/order at most: well conditioned, the unit diagonal included.
  for (Z& z : sa) z /= static_cast<typename Z::value_type>(order);
  for (index_t i = 0; i < order; ++i) a(i, i) += Z(1, 0.5);
  const std::vector<Z> sb = random_values<Z>(m * n, rng);
  std::vector<Z> sx = sb;
  const MatrixView<Z> x{sx.data(), m, n, layout == Layout::col_major ? m : n, layout};
  const MatrixView<const Z> b{sb.data(), m, n, x.ld, layout};
  const Z alpha(0.5, -0.25);
  Exec exec;
  exec.team = team;
  trsm<Z>(side, uplo, op, diag, alpha, a, x, exec);
  const MatrixView<const Z> ca = a;
  const auto tri = [&](index_t i, index_t j) { return triangle_element(ca, uplo, op, diag, i, j); };
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      Wide s = 0;
      for (index_t p = 0; p < order; ++p) {
        s += side == Side::left ? tri(i, p) * wide(x(p, j)) : wide(x(i, p)) * tri(p, j);
      }
      worst = std::max(worst, static_cast<double>(std::abs(s - wide(alpha) * wide(b(i, j)))));
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(order));
}

// check_trmm(): B from trmm against alpha op(A) B (only A's triangle, its diagonal 1 when unit)
// in long double.
template <class Z>
void check_trmm(Side side, Uplo uplo, Op op, Diag diag, Layout layout, index_t m, index_t n,
                team::Team* team) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(m * 17 + n));
  const index_t order = side == Side::left ? m : n;
  std::vector<Z> sa = random_values<Z>(order * order, rng);
  const MatrixView<const Z> a{sa.data(), order, order, order, layout};
  const std::vector<Z> sb = random_values<Z>(m * n, rng);
  std::vector<Z> sx = sb;
  const MatrixView<Z> x{sx.data(), m, n, layout == Layout::col_major ? m : n, layout};
  const MatrixView<const Z> b{sb.data(), m, n, x.ld, layout};
  const Z alpha(-0.5, 0.75);
  Exec exec;
  exec.team = team;
  trmm<Z>(side, uplo, op, diag, alpha, a, x, exec);
  const auto tri = [&](index_t i, index_t j) { return triangle_element(a, uplo, op, diag, i, j); };
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      Wide s = 0;
      for (index_t p = 0; p < order; ++p) {
        s += side == Side::left ? tri(i, p) * wide(b(p, j)) : wide(b(i, p)) * tri(p, j);
      }
      worst = std::max(worst, static_cast<double>(std::abs(wide(alpha) * s - wide(x(i, j)))));
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(order));
}

template <class Z>
class ComplexLevel3 : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<double>, std::complex<float>>;
TYPED_TEST_SUITE(ComplexLevel3, ComplexTypes);

TYPED_TEST(ComplexLevel3, TrsmEveryCase) {
  for (Side side : {Side::left, Side::right}) {
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      for (Op op : {Op::none, Op::transpose, Op::conj_transpose}) {
        for (Diag diag : {Diag::non_unit, Diag::unit}) {
          for (Layout layout : {Layout::col_major, Layout::row_major}) {
            SCOPED_TRACE(::testing::Message()
                         << "side " << int(side) << " uplo " << int(uplo) << " op " << int(op)
                         << " diag " << int(diag) << " layout " << int(layout));
            check_trsm<TypeParam>(side, uplo, op, diag, layout, 37, 23, nullptr);
          }
        }
      }
    }
  }
}

TYPED_TEST(ComplexLevel3, TrmmEveryCase) {
  for (Side side : {Side::left, Side::right}) {
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      for (Op op : {Op::none, Op::transpose, Op::conj_transpose}) {
        for (Diag diag : {Diag::non_unit, Diag::unit}) {
          for (Layout layout : {Layout::col_major, Layout::row_major}) {
            SCOPED_TRACE(::testing::Message()
                         << "side " << int(side) << " uplo " << int(uplo) << " op " << int(op)
                         << " diag " << int(diag) << " layout " << int(layout));
            check_trmm<TypeParam>(side, uplo, op, diag, layout, 37, 23, nullptr);
          }
        }
      }
    }
  }
}

TYPED_TEST(ComplexLevel3, TrsmAlphaZeroWritesZeros) {
  using Z = TypeParam;
  const auto nan = std::numeric_limits<typename Z::value_type>::quiet_NaN();
  std::vector<Z> a(9, Z(nan, nan));
  std::vector<Z> b(6, Z(nan, 1));
  Exec exec;
  trsm<Z>(Side::left, Uplo::lower, Op::none, Diag::non_unit, Z(0),
          col_major<const Z>(a.data(), 3, 3), col_major(b.data(), 3, 2), exec);
  for (const Z& z : b) EXPECT_EQ(z, Z(0));
}

// check_herk(): the triangle against alpha op(A) op(A)^H + beta C in long double.
template <class Z>
void check_herk(Uplo uplo, Op op, typename Z::value_type alpha, typename Z::value_type beta,
                index_t n, index_t k, team::Team* team) {
  using R = typename Z::value_type;
  std::mt19937_64 rng(static_cast<std::uint64_t>(n + 7 * k));
  const index_t ar = op == Op::none ? n : k;
  const index_t ac = op == Op::none ? k : n;
  std::vector<Z> sa = random_values<Z>(ar * ac, rng);
  const MatrixView<const Z> a = col_major<const Z>(sa.data(), ar, ac);
  const std::vector<Z> before = random_values<Z>(n * n, rng);
  std::vector<Z> sc = before;
  Exec exec;
  exec.team = team;
  herk(uplo, op, alpha, a, beta, col_major(sc.data(), n, n), exec);
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * n);
      const bool in_triangle = uplo == Uplo::lower ? i >= j : i <= j;
      if (!in_triangle) {
        ASSERT_EQ(sc[at], before[at]) << "(" << i << ", " << j << ") outside the triangle";
        continue;
      }
      Wide s = 0;
      for (index_t p = 0; p < k; ++p) {
        s += op_element(a, op, i, p) * std::conj(op_element(a, op, j, p));
      }
      Wide old = beta == R(0) ? Wide(0) : wide(before[at]);
      if (i == j) old = old.real();
      const Wide want = static_cast<long double>(alpha) * s + static_cast<long double>(beta) * old;
      worst = std::max(worst, static_cast<double>(std::abs(wide(sc[at]) - want)));
      if (i == j) {
        EXPECT_EQ(sc[at].imag(), R(0));
      }
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(k + 1));
}

TYPED_TEST(ComplexLevel3, HerkBothTrianglesAndOps) {
  using R = typename TypeParam::value_type;
  for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
    for (Op op : {Op::none, Op::conj_transpose}) {
      for (const auto& [alpha, beta] :
           {std::pair<R, R>{R(0.75), R(-0.5)}, {R(1), R(0)}, {R(0), R(2)}}) {
        SCOPED_TRACE(::testing::Message() << "uplo " << int(uplo) << " op " << int(op) << " alpha "
                                          << alpha << " beta " << beta);
        check_herk<TypeParam>(uplo, op, alpha, beta, 45, 70, nullptr);
        check_herk<TypeParam>(uplo, op, alpha, beta, 3, 5, nullptr);
      }
    }
  }
}

// RankKind: which rank update check_rank() runs.
enum class RankKind { syrk, syr2k, her2k };

// check_rank(): syrk, syr2k or her2k's triangle against its sum in long double, the other
// triangle untouched, a Hermitian diagonal's imaginary parts zero.
template <class Z>
void check_rank(RankKind kind, Uplo uplo, Op op, Z alpha, Z beta, index_t n, index_t k,
                team::Team* team, Layout layout = Layout::col_major) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(3 * n + k));
  const index_t ar = op == Op::none ? n : k;
  const index_t ac = op == Op::none ? k : n;
  const std::vector<Z> sa = random_values<Z>(ar * ac, rng);
  const std::vector<Z> sb = random_values<Z>(ar * ac, rng);
  const MatrixView<const Z> a = col_major<const Z>(sa.data(), ar, ac);
  const MatrixView<const Z> b = col_major<const Z>(sb.data(), ar, ac);
  const std::vector<Z> before = random_values<Z>(n * n, rng);
  std::vector<Z> sc = before;
  const MatrixView<Z> c{sc.data(), n, n, n, layout};
  const bool hermitian = kind == RankKind::her2k;
  Exec exec;
  exec.team = team;
  if (kind == RankKind::syrk) syrk<Z>(uplo, op, alpha, a, beta, c, exec);
  if (kind == RankKind::syr2k) syr2k<Z>(uplo, op, alpha, a, b, beta, c, exec);
  if (kind == RankKind::her2k) her2k(uplo, op, alpha, a, b, beta.real(), c, exec);
  // across(x, i, p): op(X)(i, p), conjugated for the Hermitian forms' right factor.
  const auto across = [&](const MatrixView<const Z>& x, index_t i, index_t p) {
    const Wide z = op_element(x, op, i, p);
    return hermitian ? std::conj(z) : z;
  };
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      const auto at = static_cast<std::size_t>(layout == Layout::col_major ? i + j * n : i * n + j);
      if (uplo == Uplo::lower ? i < j : i > j) {
        ASSERT_EQ(sc[at], before[at]) << "(" << i << ", " << j << ") outside the triangle";
        continue;
      }
      Wide s = 0;
      for (index_t p = 0; p < k; ++p) {
        if (kind == RankKind::syrk) {
          s += wide(alpha) * op_element(a, op, i, p) * op_element(a, op, j, p);
        } else {
          const Wide second = hermitian ? std::conj(wide(alpha)) : wide(alpha);
          s += wide(alpha) * op_element(a, op, i, p) * across(b, j, p) +
               second * op_element(b, op, i, p) * across(a, j, p);
        }
      }
      Wide old = beta == Z(0) ? Wide(0) : wide(before[at]);
      if (hermitian && i == j) old = old.real();
      const Wide want = s + (hermitian ? Wide(wide(beta).real()) : wide(beta)) * old;
      worst = std::max(worst, static_cast<double>(std::abs(wide(sc[at]) - want)));
      if (hermitian && i == j) {
        EXPECT_EQ(sc[at].imag(), typename Z::value_type(0));
      }
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(k + 1));
}

TYPED_TEST(ComplexLevel3, RankUpdatesBothTrianglesAndOps) {
  using Z = TypeParam;
  for (RankKind kind : {RankKind::syrk, RankKind::syr2k, RankKind::her2k}) {
    const Op other = kind == RankKind::her2k ? Op::conj_transpose : Op::transpose;
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      for (Op op : {Op::none, other}) {
        for (const auto& [alpha, beta] :
             {std::pair<Z, Z>{Z(0.75, -0.5), Z(-0.5, 0)}, {Z(1), Z(0)}, {Z(0), Z(2)}}) {
          SCOPED_TRACE(::testing::Message() << "kind " << int(kind) << " uplo " << int(uplo)
                                            << " op " << int(op) << " alpha " << alpha);
          check_rank<Z>(kind, uplo, op, alpha, beta, 45, 70, nullptr);
          check_rank<Z>(kind, uplo, op, alpha, beta, 3, 5, nullptr);
          check_rank<Z>(kind, uplo, op, alpha, beta, 70, 33, nullptr, Layout::row_major);
        }
      }
    }
  }
}

// check_symm(): symm's or hemm's C against alpha S B + beta C (left) or alpha B S + beta C
// (right) in long double, S read from A's uplo triangle alone: the other triangle holds NaN,
// and so do a Hermitian A's diagonal imaginary parts.
template <class Z>
void check_symm(bool hermitian, Side side, Uplo uplo, Z alpha, Z beta, index_t m, index_t n,
                team::Team* team) {
  using R = typename Z::value_type;
  std::mt19937_64 rng(static_cast<std::uint64_t>(m + 11 * n));
  const index_t order = side == Side::left ? m : n;
  std::vector<Z> sa = random_values<Z>(order * order, rng);
  const R nan = std::numeric_limits<R>::quiet_NaN();
  for (index_t j = 0; j < order; ++j) {
    for (index_t i = 0; i < order; ++i) {
      Z& z = sa[static_cast<std::size_t>(i + j * order)];
      if (uplo == Uplo::lower ? i < j : i > j) z = Z(nan, nan);
      if (hermitian && i == j) z = Z(z.real(), nan);
    }
  }
  const std::vector<Z> sb = random_values<Z>(m * n, rng);
  const std::vector<Z> before = random_values<Z>(m * n, rng);
  std::vector<Z> sc = before;
  const MatrixView<const Z> a = col_major<const Z>(sa.data(), order, order);
  const MatrixView<const Z> b = col_major<const Z>(sb.data(), m, n);
  Exec exec;
  exec.team = team;
  if (hermitian) {
    hemm(side, uplo, alpha, a, b, beta, col_major(sc.data(), m, n), exec);
  } else {
    symm<Z>(side, uplo, alpha, a, b, beta, col_major(sc.data(), m, n), exec);
  }
  const auto full = [&](index_t i, index_t j) -> Wide {
    const bool stored = uplo == Uplo::lower ? i >= j : i <= j;
    const Wide z = wide(stored ? a(i, j) : a(j, i));
    if (i == j && hermitian) return z.real();
    return !stored && hermitian ? std::conj(z) : z;
  };
  double worst = 0;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      Wide s = 0;
      for (index_t p = 0; p < order; ++p) {
        s += side == Side::left ? full(i, p) * wide(b(p, j)) : wide(b(i, p)) * full(p, j);
      }
      const std::size_t at = static_cast<std::size_t>(i + j * m);
      const Wide old = beta == Z(0) ? Wide(0) : wide(before[at]);
      const Wide want = wide(alpha) * s + wide(beta) * old;
      worst = std::max(worst, static_cast<double>(std::abs(wide(sc[at]) - want)));
    }
  }
  EXPECT_LE(worst, tolerance<Z>() * static_cast<double>(order + 1));
}

TYPED_TEST(ComplexLevel3, SymmAndHemmEveryCase) {
  using Z = TypeParam;
  for (bool hermitian : {false, true}) {
    for (Side side : {Side::left, Side::right}) {
      for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
        SCOPED_TRACE(::testing::Message() << "hermitian " << hermitian << " side " << int(side)
                                          << " uplo " << int(uplo));
        check_symm<Z>(hermitian, side, uplo, Z(0.5, 0.25), Z(-1, 0.5), 37, 23, nullptr);
        check_symm<Z>(hermitian, side, uplo, Z(1), Z(0), 150, 140, nullptr);
      }
    }
  }
}

TEST(ComplexLevel3Arguments, BadArgumentsThrow) {
  using Z = std::complex<double>;
  std::vector<Z> a(16, Z(1)), c(16, Z(3));
  Exec exec;
  EXPECT_THROW(herk(Uplo::lower, Op::transpose, 1.0, col_major<const Z>(a.data(), 4, 4), 0.0,
                    col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(herk(Uplo::lower, Op::none, 1.0, col_major<const Z>(a.data(), 3, 4), 0.0,
                    col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(trsm<Z>(Side::left, Uplo::lower, Op::none, Diag::unit, Z(1),
                       col_major<const Z>(a.data(), 3, 3), col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(syrk<Z>(Uplo::lower, Op::conj_transpose, Z(1), col_major<const Z>(a.data(), 4, 4),
                       Z(0), col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(her2k(Uplo::lower, Op::transpose, Z(1), col_major<const Z>(a.data(), 4, 4),
                     col_major<const Z>(a.data(), 4, 4), 0.0, col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(hemm(Side::left, Uplo::lower, Z(1), col_major<const Z>(a.data(), 3, 3),
                    col_major<const Z>(a.data(), 4, 4), Z(0), col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  for (const Z& z : c) EXPECT_EQ(z, Z(3));
}

using ComplexLevel3OnTeam = test::TeamParamTest;

TEST_P(ComplexLevel3OnTeam, LargeSolvesAndUpdatesMatch) {
  check_trsm<std::complex<double>>(Side::right, Uplo::lower, Op::conj_transpose, Diag::non_unit,
                                   Layout::col_major, 300, 200, team_.get());
  check_trsm<std::complex<float>>(Side::left, Uplo::upper, Op::none, Diag::unit, Layout::row_major,
                                  150, 260, team_.get());
  check_herk<std::complex<double>>(Uplo::upper, Op::none, 1.0, 0.5, 260, 150, team_.get());
  check_trmm<std::complex<double>>(Side::left, Uplo::lower, Op::transpose, Diag::non_unit,
                                   Layout::col_major, 300, 200, team_.get());
  check_trmm<std::complex<float>>(Side::right, Uplo::upper, Op::conj_transpose, Diag::unit,
                                  Layout::row_major, 150, 260, team_.get());
  using Z = std::complex<double>;
  check_rank<Z>(RankKind::her2k, Uplo::upper, Op::conj_transpose, Z(0.5, 1), Z(0.5), 260, 150,
                team_.get());
  check_rank<std::complex<float>>(RankKind::syr2k, Uplo::lower, Op::none, {1, -1}, {0, 1}, 200, 120,
                                  team_.get());
  check_symm<Z>(true, Side::right, Uplo::upper, Z(0.5, -1), Z(1), 180, 300, team_.get());
  check_symm<std::complex<float>>(false, Side::left, Uplo::lower, {1, 0}, {0, 0}, 300, 170,
                                  team_.get());
}

INSTANTIATE_TEST_SUITE_P(Widths, ComplexLevel3OnTeam, ::testing::Values(2));

}  // namespace
}  // namespace teamla::linalg
