// SPDX-License-Identifier: Apache-2.0
// level2_test.cpp: the matrix-vector routines (blas2.hpp) against a long-double oracle, in all
// four scalar types, on every ISA path this CPU can run.
//
// Covers: every op, triangle and diagonal; both layouts with padded leading dimensions (the
// padding must stay untouched); strides 1, 2, -1, -3 (the gaps must stay untouched); sizes 0 to
// 130 with m != n; alpha and beta in {0, 1, generic}; beta == 0 with NaN in y and alpha == 0
// with NaN in A and x (neither may propagate); the triangle a routine must not read holding NaN
// and the one it must not write a sentinel; hemv's unread and her's zeroed diagonal imaginary
// parts; bad shapes (thrown before any write); large calls on teams of 2 and 3, at least one run
// wide.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "linalg/level2_test_util.hpp"
#include "linalg/team_param_test.hpp"
#include "teamla/linalg/width.hpp"

namespace teamla::linalg {
namespace {

using test::cj;
using test::Padded;
using test::Strided;
using test::Wide;
using test::wide;

constexpr index_t kSizes[] = {0, 1, 2, 7, 33, 130};
constexpr std::pair<index_t, index_t> kShapes[] = {
    {0, 0}, {0, 3}, {3, 0}, {1, 1}, {2, 7}, {7, 2}, {33, 33}, {130, 33}, {33, 130}, {130, 130}};
constexpr std::pair<index_t, index_t> kIncs[] = {{1, 1}, {2, -1}, {-3, 2}, {-1, -3}};
constexpr Layout kLayouts[] = {Layout::col_major, Layout::row_major};
constexpr Uplo kUplos[] = {Uplo::lower, Uplo::upper};
constexpr Diag kDiags[] = {Diag::non_unit, Diag::unit};

template <class T>
std::vector<Op> ops() {
  return {Op::none, Op::transpose, Op::conj_transpose};
}

template <class T>
T generic_alpha() {
  return test::narrow<T>(Wide(0.75L, -0.5L));
}
template <class T>
T generic_beta() {
  return test::narrow<T>(Wide(-1.25L, 0.375L));
}

// for_each_isa(): body() under every ISA this CPU runs, the override cleared afterwards.
template <class Body>
void for_each_isa(Body&& body) {
  for (detail::Isa isa : test::supported_isas()) {
    const test::IsaScope scope(isa);
    SCOPED_TRACE(detail::isa_name(isa));
    body();
  }
}

template <class T>
Wide op_at(const MatrixView<const T>& a, Op op, index_t i, index_t j) {
  if (op == Op::none) return wide(a(i, j));
  const Wide v = wide(a(j, i));
  return op == Op::conj_transpose ? cj(v) : v;
}

// ---- gemv ------------------------------------------------------------------------------------

struct GemvCase {
  Op op;
  Layout layout;
  index_t m, n, incx, incy;
};

// check_gemv(): y = alpha op(A) x + beta y against the oracle; y's NaN when y_nan, A's and x's
// when ax_nan (alpha == 0 must not read them).
template <class T>
void check_gemv(const GemvCase& c, T alpha, T beta, Exec& exec, bool y_nan = false,
                bool ax_nan = false) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.m * 1000 + c.n));
  const index_t ar = c.op == Op::none ? c.m : c.n;
  const index_t ac = c.op == Op::none ? c.n : c.m;
  Padded<T> a = test::padded_matrix<T>(ar, ac, c.layout, [&](index_t, index_t) {
    return ax_nan ? test::nan_value<T>() : test::random_value<T>(rng);
  });
  Strided<T> x(c.n, c.incx), y(c.m, c.incy);
  x.fill_random(rng);
  if (ax_nan) x.fill(test::nan_value<T>());
  y.fill_random(rng);
  if (y_nan) y.fill(test::nan_value<T>());
  const std::vector<Wide> x0 = x.values(), y0 = y.values();
  gemv<T>(c.op, alpha, a.cview(), x.cview(), beta, y.view(), exec);
  test::Checker check;
  for (index_t i = 0; i < c.m; ++i) {
    Wide s = 0;
    long double scale = 0;
    if (alpha != T(0)) {
      for (index_t j = 0; j < c.n; ++j) {
        const Wide t = op_at(a.cview(), c.op, i, j) * x0[static_cast<std::size_t>(j)];
        s += t;
        scale += std::abs(t);
      }
    }
    const Wide old = beta == T(0) ? Wide(0) : y0[static_cast<std::size_t>(i)];
    const Wide want = wide(alpha) * s + wide(beta) * old;
    check.expect(y[i], want, c.n, std::abs(wide(alpha)) * scale + std::abs(wide(beta) * old), i);
  }
  EXPECT_TRUE(y.gaps_intact());
}

template <class T>
class Level2 : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Level2, ScalarTypes);

TYPED_TEST(Level2, GemvEveryOpLayoutStrideAndShape) {
  using T = TypeParam;
  for_each_isa([] {
    Exec exec;
    for (const auto& [m, n] : kShapes) {
      for (Op op : ops<T>()) {
        for (Layout layout : kLayouts) {
          for (const auto& [incx, incy] : kIncs) {
            SCOPED_TRACE(::testing::Message()
                         << "m " << m << " n " << n << " op " << int(op) << " layout "
                         << int(layout) << " incs " << incx << ", " << incy);
            check_gemv<T>({op, layout, m, n, incx, incy}, generic_alpha<T>(), generic_beta<T>(),
                          exec);
          }
        }
      }
    }
  });
}

TYPED_TEST(Level2, GemvAlphaBetaEdges) {
  using T = TypeParam;
  Exec exec;
  for (T alpha : {T(0), T(1), generic_alpha<T>()}) {
    for (T beta : {T(0), T(1), generic_beta<T>()}) {
      for (Op op : ops<T>()) {
        for (Layout layout : kLayouts) {
          SCOPED_TRACE(::testing::Message() << "alpha " << test::wide(alpha) << " beta "
                                            << test::wide(beta) << " op " << int(op));
          check_gemv<T>({op, layout, 33, 7, 1, 1}, alpha, beta, exec);
          check_gemv<T>({op, layout, 7, 33, -2, 3}, alpha, beta, exec);
        }
      }
    }
  }
}

TYPED_TEST(Level2, GemvNaNsNotRead) {
  using T = TypeParam;
  Exec exec;
  for (Op op : ops<T>()) {
    for (Layout layout : kLayouts) {
      check_gemv<T>({op, layout, 33, 20, 1, 2}, generic_alpha<T>(), T(0), exec, true, false);
      check_gemv<T>({op, layout, 33, 20, -1, 1}, T(0), generic_beta<T>(), exec, false, true);
      check_gemv<T>({op, layout, 33, 20, 1, 1}, T(0), T(0), exec, true, true);
    }
  }
}

// Long enough that gemv's kernels run over several blocks of rows (of 64 KiB of the vector).
TYPED_TEST(Level2, GemvTallAndWideAcrossRowBlocks) {
  using T = TypeParam;
  Exec exec;
  for (Op op : ops<T>()) {
    for (Layout layout : kLayouts) {
      check_gemv<T>({op, layout, 20000, 5, 1, -2}, generic_alpha<T>(), generic_beta<T>(), exec);
      check_gemv<T>({op, layout, 6, 20001, 3, 1}, generic_alpha<T>(), generic_beta<T>(), exec);
    }
  }
}

// ---- symv / hemv -----------------------------------------------------------------------------

// Symmetric or Hermitian element (i, j) of the matrix stored in `uplo` of a.
template <class T>
Wide sym_at(const MatrixView<const T>& a, Uplo uplo, bool herm, index_t i, index_t j) {
  if (i == j) {
    const Wide d = wide(a(i, i));
    return herm ? Wide(d.real(), 0) : d;
  }
  if (test::in_triangle(uplo, i, j)) return wide(a(i, j));
  return herm ? cj(wide(a(j, i))) : wide(a(j, i));
}

template <class T>
void call_symv(Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta,
               VectorView<T> y, Exec& exec) {
  if constexpr (is_complex_v<T>) {
    hemv<T>(uplo, alpha, a, x, beta, y, exec);
  } else {
    symv<T>(uplo, alpha, a, x, beta, y, exec);
  }
}

struct SymCase {
  Uplo uplo;
  Layout layout;
  index_t n, incx, incy;
};

// check_symv(): symv (real) or hemv (complex), the other triangle NaN (and hemv's diagonal
// imaginary parts): neither may be read.
template <class T>
void check_symv(const SymCase& c, T alpha, T beta, Exec& exec, bool y_nan = false,
                bool ax_nan = false) {
  constexpr bool herm = is_complex_v<T>;
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.n * 7 + 1));
  Padded<T> a = test::padded_matrix<T>(c.n, c.n, c.layout, [&](index_t i, index_t j) {
    if (!test::in_triangle(c.uplo, i, j) || ax_nan) return test::nan_value<T>();
    T v = test::random_value<T>(rng);
    if constexpr (herm) {
      if (i == j) v = T(v.real(), test::nan_value<real_t<T>>());
    }
    return v;
  });
  Strided<T> x(c.n, c.incx), y(c.n, c.incy);
  x.fill_random(rng);
  if (ax_nan) x.fill(test::nan_value<T>());
  y.fill_random(rng);
  if (y_nan) y.fill(test::nan_value<T>());
  const std::vector<Wide> x0 = x.values(), y0 = y.values();
  call_symv<T>(c.uplo, alpha, a.cview(), x.cview(), beta, y.view(), exec);
  test::Checker check;
  for (index_t i = 0; i < c.n; ++i) {
    Wide s = 0;
    long double scale = 0;
    if (alpha != T(0)) {
      for (index_t j = 0; j < c.n; ++j) {
        const Wide t = sym_at(a.cview(), c.uplo, herm, i, j) * x0[static_cast<std::size_t>(j)];
        s += t;
        scale += std::abs(t);
      }
    }
    const Wide old = beta == T(0) ? Wide(0) : y0[static_cast<std::size_t>(i)];
    check.expect(y[i], wide(alpha) * s + wide(beta) * old, c.n,
                 std::abs(wide(alpha)) * scale + std::abs(wide(beta) * old), i);
  }
  EXPECT_TRUE(y.gaps_intact());
}

TYPED_TEST(Level2, SymvHemvEveryTriangleLayoutStrideAndSize) {
  using T = TypeParam;
  for_each_isa([] {
    Exec exec;
    for (index_t n : kSizes) {
      for (Uplo uplo : kUplos) {
        for (Layout layout : kLayouts) {
          for (const auto& [incx, incy] : kIncs) {
            SCOPED_TRACE(::testing::Message() << "n " << n << " uplo " << int(uplo) << " layout "
                                              << int(layout) << " incs " << incx << ", " << incy);
            check_symv<T>({uplo, layout, n, incx, incy}, generic_alpha<T>(), generic_beta<T>(),
                          exec);
          }
        }
      }
    }
  });
}

TYPED_TEST(Level2, SymvHemvAlphaBetaEdgesAndNaNs) {
  using T = TypeParam;
  Exec exec;
  for (T alpha : {T(0), T(1), generic_alpha<T>()}) {
    for (T beta : {T(0), T(1), generic_beta<T>()}) {
      for (Uplo uplo : kUplos) {
        check_symv<T>({uplo, Layout::col_major, 9, 1, 1}, alpha, beta, exec);
        check_symv<T>({uplo, Layout::row_major, 9, -2, 1}, alpha, beta, exec);
      }
    }
  }
  for (Layout layout : kLayouts) {
    check_symv<T>({Uplo::lower, layout, 21, 1, 1}, generic_alpha<T>(), T(0), exec, true, false);
    check_symv<T>({Uplo::upper, layout, 21, 2, 1}, T(0), generic_beta<T>(), exec, false, true);
  }
}

// ---- ger / gerc ------------------------------------------------------------------------------

struct GerCase {
  Layout layout;
  index_t m, n, incx, incy;
};

template <class T>
void check_ger(const GerCase& c, bool conj, T alpha, Exec& exec, bool xy_nan = false) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.m * 13 + c.n));
  Padded<T> a = test::padded_matrix<T>(
      c.m, c.n, c.layout, [&](index_t, index_t) { return test::random_value<T>(rng); });
  const Padded<T> before = a;
  Strided<T> x(c.m, c.incx), y(c.n, c.incy);
  x.fill_random(rng);
  y.fill_random(rng);
  if (xy_nan) {
    x.fill(test::nan_value<T>());
    y.fill(test::nan_value<T>());
  }
  if (conj) {
    if constexpr (is_complex_v<T>) gerc<T>(alpha, x.cview(), y.cview(), a.view(), exec);
  } else {
    ger<T>(alpha, x.cview(), y.cview(), a.view(), exec);
  }
  test::Checker check;
  for (index_t j = 0; j < c.n; ++j) {
    for (index_t i = 0; i < c.m; ++i) {
      const Wide old = wide(before.at(i, j));
      const Wide t =
          alpha == T(0) ? Wide(0) : wide(alpha) * wide(x[i]) * (conj ? cj(wide(y[j])) : wide(y[j]));
      check.expect(a.at(i, j), old + t, 1, std::abs(old) + std::abs(t), i, j);
    }
  }
  EXPECT_TRUE(test::padding_intact(a));
}

TYPED_TEST(Level2, GerAndGercEveryLayoutStrideAndShape) {
  using T = TypeParam;
  for_each_isa([] {
    Exec exec;
    for (const auto& [m, n] : kShapes) {
      for (Layout layout : kLayouts) {
        for (const auto& [incx, incy] : kIncs) {
          for (bool conj : {false, is_complex_v<T>}) {
            SCOPED_TRACE(::testing::Message()
                         << "m " << m << " n " << n << " layout " << int(layout) << " incs " << incx
                         << ", " << incy << " conj " << conj);
            check_ger<T>({layout, m, n, incx, incy}, conj, generic_alpha<T>(), exec);
          }
        }
      }
    }
  });
  Exec exec;
  check_ger<T>({Layout::col_major, 9, 4, 1, 1}, false, T(1), exec);
  check_ger<T>({Layout::row_major, 9, 4, 1, 1}, false, T(0), exec, true);
}

// ---- syr / her, syr2 / her2 ------------------------------------------------------------------

struct UpdateCase {
  Uplo uplo;
  Layout layout;
  index_t n, incx, incy;
  bool rank2;
};

// check_update(): syr/syr2 (real) or her/her2 (complex) on the `uplo` triangle; the other
// triangle holds the sentinel and must keep it; her's diagonal imaginary parts become 0.
template <class T>
void check_update(const UpdateCase& c, T alpha, Exec& exec) {
  constexpr bool herm = is_complex_v<T>;
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.n * 17 + (c.rank2 ? 1 : 0)));
  Padded<T> a = test::padded_matrix<T>(c.n, c.n, c.layout, [&](index_t i, index_t j) {
    return test::in_triangle(c.uplo, i, j) ? test::random_value<T>(rng) : test::sentinel<T>();
  });
  const Padded<T> before = a;
  Strided<T> x(c.n, c.incx), y(c.n, c.incy);
  x.fill_random(rng);
  y.fill_random(rng);
  if constexpr (herm) {
    const real_t<T> ra = alpha.real();
    if (c.rank2) {
      her2<T>(c.uplo, alpha, x.cview(), y.cview(), a.view(), exec);
    } else {
      her<T>(c.uplo, ra, x.cview(), a.view(), exec);
      alpha = T(ra);
    }
  } else {
    if (c.rank2) {
      syr2<T>(c.uplo, alpha, x.cview(), y.cview(), a.view(), exec);
    } else {
      syr<T>(c.uplo, alpha, x.cview(), a.view(), exec);
    }
  }
  test::Checker check;
  for (index_t j = 0; j < c.n; ++j) {
    for (index_t i = 0; i < c.n; ++i) {
      if (!test::in_triangle(c.uplo, i, j)) {
        EXPECT_TRUE(a.at(i, j) == test::sentinel<T>()) << "(" << i << ", " << j << ") written";
        continue;
      }
      Wide old = wide(before.at(i, j));
      Wide t1 = 0, t2 = 0;  // the two terms (t2 = 0 for rank 1)
      if (alpha != T(0)) {
        const Wide xi = wide(x[i]), xj = wide(x[j]), yi = wide(y[i]), yj = wide(y[j]);
        const Wide al = wide(alpha);
        if (c.rank2) {
          t1 = al * xi * (herm ? cj(yj) : yj);
          t2 = (herm ? cj(al) : al) * yi * (herm ? cj(xj) : xj);
        } else {
          t1 = al * xi * (herm ? cj(xj) : xj);
        }
        if (herm && i == j) old = Wide(old.real(), 0);
      }
      Wide want = old + t1 + t2;
      if (herm && i == j && alpha != T(0)) want = Wide(want.real(), 0);
      check.expect(a.at(i, j), want, 2, std::abs(old) + std::abs(t1) + std::abs(t2), i, j);
      if constexpr (herm) {
        if (i == j && alpha != T(0)) {
          EXPECT_EQ(a.at(i, i).imag(), real_t<T>(0));
        }
      }
    }
  }
  EXPECT_TRUE(test::padding_intact(a));
}

TYPED_TEST(Level2, SyrHerSyr2Her2EveryTriangleLayoutStrideAndSize) {
  using T = TypeParam;
  for_each_isa([] {
    Exec exec;
    for (index_t n : kSizes) {
      for (Uplo uplo : kUplos) {
        for (Layout layout : kLayouts) {
          for (const auto& [incx, incy] : kIncs) {
            for (bool rank2 : {false, true}) {
              SCOPED_TRACE(::testing::Message()
                           << "n " << n << " uplo " << int(uplo) << " layout " << int(layout)
                           << " incs " << incx << ", " << incy << " rank2 " << rank2);
              check_update<T>({uplo, layout, n, incx, incy, rank2}, generic_alpha<T>(), exec);
            }
          }
        }
      }
    }
  });
  Exec exec;
  for (bool rank2 : {false, true}) {
    check_update<T>({Uplo::lower, Layout::col_major, 9, 1, 1, rank2}, T(0), exec);
    check_update<T>({Uplo::upper, Layout::row_major, 9, 1, 1, rank2}, T(1), exec);
  }
}

// ---- trmv / trsv -----------------------------------------------------------------------------

struct TriCase {
  Uplo uplo;
  Op op;
  Diag diag;
  Layout layout;
  index_t n, inc;
};

// The triangle's element (i, j) of op(A), the diagonal 1 when unit.
template <class T>
Wide tri_op_at(const MatrixView<const T>& a, const TriCase& c, index_t i, index_t j) {
  const index_t r = c.op == Op::none ? i : j;
  const index_t s = c.op == Op::none ? j : i;
  if (r == s && c.diag == Diag::unit) return 1;
  if (!test::in_triangle(c.uplo, r, s)) return 0;
  const Wide v = wide(a(r, s));
  return c.op == Op::conj_transpose ? cj(v) : v;
}

// triangle(): A with the other triangle NaN (and the diagonal when unit): neither may be read.
// trsv's off-diagonal entries are scaled by 1/n and its diagonal kept near 2: well conditioned.
template <class T>
Padded<T> triangle(const TriCase& c, bool solve, std::mt19937_64& rng) {
  const real_t<T> off = solve ? real_t<T>(1) / static_cast<real_t<T>>(c.n) : real_t<T>(1);
  return test::padded_matrix<T>(c.n, c.n, c.layout, [&](index_t i, index_t j) {
    if (!test::in_triangle(c.uplo, i, j)) return test::nan_value<T>();
    if (i == j) {
      if (c.diag == Diag::unit) return test::nan_value<T>();
      return solve ? T(2) + test::random_value<T>(rng) / T(4) : test::random_value<T>(rng);
    }
    return test::random_value<T>(rng) * off;
  });
}

template <class T>
void check_trmv(const TriCase& c, Exec& exec) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.n * 19 + 3));
  Padded<T> a = triangle<T>(c, false, rng);
  Strided<T> x(c.n, c.inc);
  x.fill_random(rng);
  const std::vector<Wide> x0 = x.values();
  trmv<T>(c.uplo, c.op, c.diag, a.cview(), x.view(), exec);
  test::Checker check;
  for (index_t i = 0; i < c.n; ++i) {
    Wide s = 0;
    long double scale = 0;
    for (index_t j = 0; j < c.n; ++j) {
      const Wide t = tri_op_at(a.cview(), c, i, j) * x0[static_cast<std::size_t>(j)];
      s += t;
      scale += std::abs(t);
    }
    check.expect(x[i], s, c.n, scale, i);
  }
  EXPECT_TRUE(x.gaps_intact());
}

// check_trsv(): the solution multiplied back (op(A) x against the right-hand side).
template <class T>
void check_trsv(const TriCase& c, Exec& exec) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.n * 23 + 5));
  Padded<T> a = triangle<T>(c, true, rng);
  Strided<T> x(c.n, c.inc);
  x.fill_random(rng);
  const std::vector<Wide> b = x.values();
  trsv<T>(c.uplo, c.op, c.diag, a.cview(), x.view(), exec);
  test::Checker check;
  for (index_t i = 0; i < c.n; ++i) {
    Wide s = 0;
    long double scale = std::abs(b[static_cast<std::size_t>(i)]);
    for (index_t j = 0; j < c.n; ++j) {
      const Wide t = tri_op_at(a.cview(), c, i, j) * wide(x[j]);
      s += t;
      scale += std::abs(t);
    }
    // The residual's element i, as a T so that Checker compares it to 0.
    check.expect(test::narrow<T>(s - b[static_cast<std::size_t>(i)]), 0, c.n, scale, i);
  }
  EXPECT_TRUE(x.gaps_intact());
}

TYPED_TEST(Level2, TrmvTrsvEveryCase) {
  using T = TypeParam;
  for_each_isa([] {
    Exec exec;
    for (index_t n : kSizes) {
      for (Uplo uplo : kUplos) {
        for (Op op : ops<T>()) {
          for (Diag diag : kDiags) {
            for (Layout layout : kLayouts) {
              for (index_t inc : {1, 2, -1, -3}) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << n << " uplo " << int(uplo) << " op " << int(op) << " diag "
                             << int(diag) << " layout " << int(layout) << " inc " << inc);
                check_trmv<T>({uplo, op, diag, layout, n, inc}, exec);
                check_trsv<T>({uplo, op, diag, layout, n, inc}, exec);
              }
            }
          }
        }
      }
    }
  });
}

// ---- bad arguments ---------------------------------------------------------------------------

TYPED_TEST(Level2, BadShapesThrowBeforeWriting) {
  using T = TypeParam;
  Exec exec;
  std::vector<T> a(64, T(1)), x(8, T(2)), y(8, T(3));
  const std::vector<T> a0 = a, x0 = x, y0 = y;
  const auto cx = [&](index_t n) { return contiguous<const T>(x.data(), n); };
  const auto vy = [&](index_t n) { return contiguous(y.data(), n); };
  const MatrixView<T> a43 = col_major(a.data(), 4, 3);
  const MatrixView<T> a44 = col_major(a.data(), 4, 4);
  EXPECT_THROW(gemv<T>(Op::none, T(1), a43, cx(4), T(1), vy(4), exec), InvalidArgument);
  EXPECT_THROW(gemv<T>(Op::transpose, T(1), a43, cx(3), T(1), vy(4), exec), InvalidArgument);
  EXPECT_THROW(gemv<T>(Op::none, T(1), a43, cx(3), T(1), VectorView<T>{y.data(), 4, 0}, exec),
               InvalidArgument);
  EXPECT_THROW(
      gemv<T>(Op::none, T(1), col_major<const T>(a.data(), 4, 3, 2), cx(3), T(1), vy(4), exec),
      InvalidArgument);
  EXPECT_THROW(ger<T>(T(1), cx(3), cx(3), a43, exec), InvalidArgument);
  EXPECT_THROW(trmv<T>(Uplo::lower, Op::none, Diag::unit, a43, vy(4), exec), InvalidArgument);
  EXPECT_THROW(trsv<T>(Uplo::lower, Op::none, Diag::unit, a44, vy(3), exec), InvalidArgument);
  if constexpr (is_complex_v<T>) {
    EXPECT_THROW(hemv<T>(Uplo::lower, T(1), a43, cx(3), T(1), vy(3), exec), InvalidArgument);
    EXPECT_THROW(hemv<T>(Uplo::lower, T(1), a44, cx(4), T(1), vy(3), exec), InvalidArgument);
    EXPECT_THROW(her<T>(Uplo::upper, 1, cx(3), a44, exec), InvalidArgument);
    EXPECT_THROW(her2<T>(Uplo::upper, T(1), cx(4), cx(3), a44, exec), InvalidArgument);
    EXPECT_THROW(gerc<T>(T(1), cx(4), cx(4), a43, exec), InvalidArgument);
  } else {
    EXPECT_THROW(symv<T>(Uplo::lower, T(1), a44, cx(3), T(1), vy(4), exec), InvalidArgument);
    EXPECT_THROW(syr<T>(static_cast<Uplo>(7), T(1), cx(4), a44, exec), InvalidArgument);
    EXPECT_THROW(syr2<T>(Uplo::lower, T(1), cx(4), cx(5), a44, exec), InvalidArgument);
    EXPECT_THROW(gemv<T>(static_cast<Op>(9), T(1), a43, cx(3), T(1), vy(4), exec), InvalidArgument);
  }
  EXPECT_EQ(a, a0);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(y, y0);
}

// ---- alignment -------------------------------------------------------------------------------

// check_aligned_at(): gemv T and symv (lower and upper) on an n x n A (ld n + pad) whose first
// column starts `offset` elements past a 64-byte boundary, against a long-double loop. The real
// kernels peel rows up to their vector boundary and take their widest vectors only on aligned
// columns (kernels/level2_lanes.hpp), so every offset takes another path.
template <class T>
void check_aligned_at(index_t n, index_t pad, index_t offset, Exec& exec) {
  const index_t ld = n + pad;
  std::vector<T> store(static_cast<std::size_t>(ld * n + 64));
  auto address = reinterpret_cast<std::uintptr_t>(store.data());
  T* base = store.data() + (64 - address % 64) % 64 / sizeof(T);
  T* a = base + offset;
  std::mt19937_64 rng(static_cast<std::uint64_t>(n * 100 + pad * 10 + offset));
  for (index_t i = 0; i < ld * n; ++i) a[i] = test::random_value<T>(rng);
  std::vector<T> x(static_cast<std::size_t>(n)), y(x.size());
  for (T& v : x) v = test::random_value<T>(rng);
  const MatrixView<const T> av(a, n, n, ld, Layout::col_major);
  const auto at = [&](index_t i, index_t j) { return wide(a[i + j * ld]); };
  for (int routine = 0; routine < 3; ++routine) {
    std::fill(y.begin(), y.end(), T(0));
    const auto xv = strided(static_cast<const T*>(x.data()), n, index_t{1});
    const auto yv = strided(y.data(), n, index_t{1});
    if (routine == 0) gemv<T>(Op::transpose, T(1), av, xv, T(0), yv, exec);
    if (routine == 1) symv<T>(Uplo::lower, T(1), av, xv, T(0), yv, exec);
    if (routine == 2) symv<T>(Uplo::upper, T(1), av, xv, T(0), yv, exec);
    test::Checker check;
    for (index_t i = 0; i < n; ++i) {
      Wide s = 0;
      long double scale = 0;
      for (index_t j = 0; j < n; ++j) {
        const bool lower_half = i >= j;
        const Wide aij = routine == 0                   ? at(j, i)
                         : (routine == 1) == lower_half ? at(i, j)
                                                        : at(j, i);
        const Wide t = aij * wide(x[static_cast<std::size_t>(j)]);
        s += t;
        scale += std::abs(t);
      }
      check.expect(y[static_cast<std::size_t>(i)], s, n, scale, i);
    }
  }
}

TEST(Level2Alignment, GemvTransposeAndSymvAtEveryOffset) {
  for_each_isa([] {
    Exec exec;
    for (index_t n : {40, 64, 100}) {
      for (index_t pad : {0, 3}) {
        for (index_t offset = 0; offset < 8; ++offset) {
          SCOPED_TRACE(::testing::Message() << "n " << n << " pad " << pad << " offset " << offset);
          check_aligned_at<double>(n, pad, offset, exec);
          check_aligned_at<float>(n, pad, offset, exec);
        }
      }
    }
  });
}

TEST(Level2Plan, RunsInlineFollowsTheFloor) {
  const bool measured = inline_floor_flops(8) > 0;
  EXPECT_EQ(level2_runs_inline<double>(0), measured);
  EXPECT_FALSE(level2_runs_inline<double>(index_t{1} << 40));
  EXPECT_FALSE(level2_runs_inline<std::complex<float>>(index_t{1} << 40));
}

// ---- on teams --------------------------------------------------------------------------------

using Level2OnTeam = test::TeamParamTest;

// large_calls(): one large call of each routine in T on `exec`, checked; returns the widest
// width a call ran at.
template <class T>
std::size_t large_calls(Exec& exec) {
  std::size_t widest = 0;
  const auto note = [&] { widest = std::max(widest, exec.stats.max_width_used); };
  const T alpha = generic_alpha<T>(), beta = generic_beta<T>();
  check_gemv<T>({Op::none, Layout::col_major, 900, 700, 1, 1}, alpha, beta, exec);
  note();
  check_gemv<T>({Op::conj_transpose, Layout::row_major, 700, 900, 2, -1}, alpha, beta, exec);
  note();
  check_gemv<T>({Op::transpose, Layout::col_major, 1000, 600, 1, 1}, alpha, beta, exec);
  note();
  for (Uplo uplo : kUplos) {
    check_symv<T>({uplo, Layout::col_major, 800, 1, -2}, alpha, beta, exec);
    note();
    check_update<T>({uplo, Layout::row_major, 700, 1, 1, false}, alpha, exec);
    note();
    check_update<T>({uplo, Layout::col_major, 700, -1, 2, true}, alpha, exec);
    note();
    for (Op op : {Op::none, Op::conj_transpose}) {
      check_trmv<T>({uplo, op, Diag::non_unit, Layout::col_major, 900, 1}, exec);
      note();
    }
    check_trsv<T>({uplo, Op::transpose, Diag::non_unit, Layout::row_major, 600, 1}, exec);
  }
  check_symv<T>({Uplo::lower, Layout::row_major, 600, 1, 1}, alpha, beta, exec);
  note();
  check_ger<T>({Layout::row_major, 900, 700, 1, -1}, is_complex_v<T>, alpha, exec);
  note();
  check_ger<T>({Layout::col_major, 700, 900, 1, 1}, false, alpha, exec);
  note();
  return widest;
}

TEST_P(Level2OnTeam, LargeCallsMatchAndRunWide) {
  Exec exec;
  exec.team = team_.get();
  exec.width_rule = WidthRule::model;
  {
    SCOPED_TRACE("double");
    EXPECT_GT(large_calls<double>(exec), 1U);
  }
  {
    SCOPED_TRACE("complex<float>");
    EXPECT_GT(large_calls<std::complex<float>>(exec), 1U);
  }
  {
    SCOPED_TRACE("float");
    large_calls<float>(exec);
  }
  {
    SCOPED_TRACE("complex<double>");
    large_calls<std::complex<double>>(exec);
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, Level2OnTeam, ::testing::Values(2, 3));

}  // namespace
}  // namespace teamla::linalg
