// SPDX-License-Identifier: Apache-2.0
// complex_gemm_test.cpp: gemm in std::complex<double> and std::complex<float> (the 1m method,
// linalg/src/gemm/complex_gemm.cpp).
//
// Covers: every pair of none / transpose / conjugate transpose, both layouts, edge shapes and
// padded leading dimensions (the padding untouched), complex, real, zero and unit alpha and
// beta, on every ISA and with tiny blocking (many panels per product); beta == 0 never reads
// C; alpha == 0 or k == 0 only scales C; teams of 2 and 3 run wide and match; bad arguments
// throw before anything is written, conj_transpose included for the real routines.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "isa_dispatch.hpp"
#include "linalg/team_param_test.hpp"
#include "plan/width_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

using detail::Isa;

// Stored: a matrix with its own storage, padded by `pad` elements past each leading dimension,
// the padding set to a sentinel.
template <class Z>
struct Stored {
  std::vector<Z> data;
  MatrixView<Z> view;
};

template <class Z>
Stored<Z> random_matrix(index_t rows, index_t cols, Layout layout, index_t pad,
                        std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const index_t ld = (layout == Layout::col_major ? rows : cols) + pad;
  const index_t outer = layout == Layout::col_major ? cols : rows;
  Stored<Z> s;
  s.data.assign(static_cast<std::size_t>(std::max<index_t>(1, ld * outer)), Z(77, -77));
  s.view = {s.data.data(), rows, cols, std::max<index_t>(1, ld), layout};
  for (index_t j = 0; j < cols; ++j) {
    for (index_t i = 0; i < rows; ++i) s.view(i, j) = Z(u(rng), u(rng));
  }
  return s;
}

using Wide = std::complex<long double>;

template <class Z>
Wide element(const MatrixView<Z>& v, Op op, index_t i, index_t j) {
  const Z z = op == Op::none ? v(i, j) : v(j, i);
  const Wide w(z.real(), z.imag());
  return op == Op::conj_transpose ? std::conj(w) : w;
}

struct Case {
  index_t m, n, k;
  Op op_a, op_b;
  Layout layout;
};

// check_product(): gemm of `c` against the loops in long double, within a bound scaled by the
// magnitudes summed; the padding of C unchanged.
template <class Z>
void check_product(const Case& t, Z alpha, Z beta, Exec& exec, std::mt19937_64& rng) {
  using R = typename Z::value_type;
  const index_t pad = 3;
  Stored<Z> a = random_matrix<Z>(t.op_a == Op::none ? t.m : t.k, t.op_a == Op::none ? t.k : t.m,
                                 t.layout, pad, rng);
  Stored<Z> b = random_matrix<Z>(t.op_b == Op::none ? t.k : t.n, t.op_b == Op::none ? t.n : t.k,
                                 t.layout, pad, rng);
  Stored<Z> c = random_matrix<Z>(t.m, t.n, t.layout, pad, rng);
  const std::vector<Z> c_before = c.data;
  gemm<Z>(t.op_a, t.op_b, alpha, a.view, b.view, beta, c.view, exec);
  const Wide wa(alpha.real(), alpha.imag());
  const Wide wb(beta.real(), beta.imag());
  int bad = 0;
  for (index_t j = 0; j < t.n; ++j) {
    for (index_t i = 0; i < t.m; ++i) {
      Wide sum = 0;
      long double mag = 0;
      for (index_t p = 0; p < t.k; ++p) {
        const Wide x = element(a.view, t.op_a, i, p) * element(b.view, t.op_b, p, j);
        sum += x;
        mag += std::abs(x);
      }
      const index_t at = &c.view(i, j) - c.data.data();
      const Z old = c_before[static_cast<std::size_t>(at)];
      const Wide want = wa * sum + (beta == Z(0) ? Wide(0) : wb * Wide(old.real(), old.imag()));
      const long double bound =
          (4.0L * static_cast<long double>(t.k) + 16) * std::numeric_limits<R>::epsilon() *
          (std::abs(wa) * mag + std::abs(wb) * std::abs(Wide(old.real(), old.imag())) + 1);
      const Z got = c.view(i, j);
      if (!(std::abs(Wide(got.real(), got.imag()) - want) <= bound) && bad++ < 3) {
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << got << ", want (" << want.real() << ","
                      << want.imag() << ")";
      }
    }
  }
  // The padding past each leading dimension is untouched.
  const index_t outer = t.layout == Layout::col_major ? t.n : t.m;
  const index_t inner = t.layout == Layout::col_major ? t.m : t.n;
  for (index_t o = 0; o < outer; ++o) {
    for (index_t e = inner; e < c.view.ld; ++e) {
      ASSERT_EQ(c.data[static_cast<std::size_t>(o * c.view.ld + e)], Z(77, -77));
    }
  }
}

struct OverrideGuard {
  ~OverrideGuard() {
    detail::clear_isa_override();
    detail::clear_blocking_override();
  }
};

template <class Z>
class ComplexGemm : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<double>, std::complex<float>>;
TYPED_TEST_SUITE(ComplexGemm, ComplexTypes);

constexpr Op kOps[] = {Op::none, Op::transpose, Op::conj_transpose};

TYPED_TEST(ComplexGemm, EveryOpPairLayoutAndIsaMatchesTheLoops) {
  using Z = TypeParam;
  const OverrideGuard guard;
  std::mt19937_64 rng(7);
  for (Isa isa : {Isa::ref, Isa::avx2, Isa::avx512}) {
    if (!detail::isa_supported(isa)) continue;
    detail::force_isa(isa);
    for (Op op_a : kOps) {
      for (Op op_b : kOps) {
        for (Layout layout : {Layout::col_major, Layout::row_major}) {
          for (const auto& [m, n, k] : {std::tuple<index_t, index_t, index_t>{1, 1, 1},
                                        {13, 9, 5},
                                        {37, 19, 41},
                                        {64, 64, 64}}) {
            SCOPED_TRACE(::testing::Message()
                         << detail::isa_name(isa) << " ops " << static_cast<int>(op_a)
                         << static_cast<int>(op_b) << " layout " << static_cast<int>(layout) << " "
                         << m << "x" << n << "x" << k);
            Exec exec;
            check_product<Z>({m, n, k, op_a, op_b, layout}, Z(0.5, -1.25), Z(-0.75, 0.5), exec,
                             rng);
          }
        }
      }
    }
  }
}

TYPED_TEST(ComplexGemm, RealZeroAndUnitScalars) {
  using Z = TypeParam;
  std::mt19937_64 rng(11);
  const Z scalars[] = {Z(0), Z(1), Z(-2), Z(0, 1), Z(0.5, 0.25)};
  for (Z alpha : scalars) {
    for (Z beta : scalars) {
      SCOPED_TRACE(::testing::Message() << "alpha " << alpha << " beta " << beta);
      Exec exec;
      check_product<Z>({45, 30, 70, Op::conj_transpose, Op::none, Layout::col_major}, alpha, beta,
                       exec, rng);
    }
  }
}

TYPED_TEST(ComplexGemm, TinyBlockingCrossesManyPanels) {
  using Z = TypeParam;
  const OverrideGuard guard;
  std::mt19937_64 rng(13);
  for (Isa isa : {Isa::ref, Isa::avx2, Isa::avx512}) {
    if (!detail::isa_supported(isa)) continue;
    detail::force_isa(isa);
    detail::force_blocking(1, 4, 1, 0);  // mc = MR, kc 4 (2 complex), nc = NR
    Exec exec;
    check_product<Z>({50, 29, 23, Op::transpose, Op::conj_transpose, Layout::col_major}, Z(1, 1),
                     Z(0, -1), exec, rng);
    check_product<Z>({31, 47, 9, Op::none, Op::transpose, Layout::row_major}, Z(2, 0), Z(1), exec,
                     rng);
  }
}

TYPED_TEST(ComplexGemm, BetaZeroNeverReadsC) {
  using Z = TypeParam;
  using R = typename Z::value_type;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  for (const index_t k : {0, 40}) {
    std::vector<Z> a(40 * 40, Z(1, 0));
    std::vector<Z> b(40 * 40, Z(0, 1));
    std::vector<Z> c(40 * 40, Z(nan, nan));
    Exec exec;
    gemm<Z>(Op::none, Op::none, Z(1), col_major<const Z>(a.data(), 40, k),
            col_major<const Z>(b.data(), k, 40), Z(0), col_major(c.data(), 40, 40), exec);
    for (const Z& z : c) ASSERT_EQ(z, Z(0, static_cast<R>(k)));
  }
}

TEST(ComplexGemmArguments, BadOpsAndShapesThrowBeforeWriting) {
  using Z = std::complex<double>;
  std::vector<Z> a(16, Z(1)), b(16, Z(1)), c(16, Z(5));
  Exec exec;
  EXPECT_THROW(gemm<Z>(static_cast<Op>(7), Op::none, Z(1), col_major<const Z>(a.data(), 4, 4),
                       col_major<const Z>(b.data(), 4, 4), Z(0), col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  EXPECT_THROW(gemm<Z>(Op::none, Op::none, Z(1), col_major<const Z>(a.data(), 4, 3),
                       col_major<const Z>(b.data(), 4, 4), Z(0), col_major(c.data(), 4, 4), exec),
               InvalidArgument);
  for (const Z& z : c) EXPECT_EQ(z, Z(5));
  // The real routines take none or transpose only.
  std::vector<double> r(16, 1.0);
  EXPECT_THROW(
      gemm<double>(Op::conj_transpose, Op::none, 1.0, col_major<const double>(r.data(), 4, 4),
                   col_major<const double>(r.data(), 4, 4), 0.0, col_major(r.data(), 4, 4), exec),
      InvalidArgument);
}

using ComplexGemmOnTeam = test::TeamParamTest;

TEST_P(ComplexGemmOnTeam, LargeProductsRunWideAndMatch) {
  std::mt19937_64 rng(17);
  const Case cases[] = {
      {301, 97, 120, Op::none, Op::none, Layout::col_major},            // rows split
      {64, 300, 150, Op::conj_transpose, Op::none, Layout::col_major},  // columns split
      {150, 160, 130, Op::transpose, Op::conj_transpose, Layout::row_major},
  };
  for (const Case& t : cases) {
    SCOPED_TRACE(::testing::Message() << t.m << "x" << t.n << "x" << t.k);
    Exec exec;
    exec.team = team_.get();
    check_product<std::complex<double>>(t, {0.5, 1}, {1, -1}, exec, rng);
    EXPECT_GT(exec.stats.max_width_used, 1u);
    EXPECT_EQ(exec.stats.sections, 1u);
    check_product<std::complex<float>>(t, {0.5, 1}, {0, 0}, exec, rng);
    EXPECT_GT(exec.stats.max_width_used, 1u);
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, ComplexGemmOnTeam, ::testing::Values(2, 3));

}  // namespace
}  // namespace teamla::linalg
