// SPDX-License-Identifier: Apache-2.0
// potrf_test.cpp: linalg::potrf and linalg::potrs against naive oracles and reference LAPACK.
//
// Covers: the residual ||A - L L^T|| / (n ||A||) over many sizes (block and leaf boundaries),
// both triangles, both layouts, padded ld, double and float, every ISA path, serial and on
// teams of 2 and 3; the other triangle and the padding untouched; info exact on matrices made
// non-SPD (or NaN) at a chosen column, and the failed state equal to reference LAPACK's
// dpotrf/spotrf; potrs for one and many right-hand sides; bad input rejected untouched.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <random>
#include <vector>

#include "level3/level3_internal.hpp"
#include "linalg/chol_test_util.hpp"

namespace teamla::test {
namespace {

using linalg::Exec;
using linalg::Uplo;

template <class T>
long double tolerance(index_t n) {
  return 8.0L * std::numeric_limits<T>::epsilon() *
         static_cast<long double>(std::max<index_t>(n, 1));
}

// The factor F (lower: L; upper: U^T) read from the chosen triangle.
template <class T>
long double factor_at(const Padded<T>& f, Uplo uplo, index_t i, index_t j) {
  if (i < j) return 0;
  return uplo == Uplo::lower ? f.at(i, j) : f.at(j, i);
}

// residual(): max |A - F F^T| / (n max|A|), exact (naive O(n^3)) for small n; for large n
// the same quantity probed with 6 random vectors (||A x - F (F^T x)|| / (n ||A|| ||x||)).
template <class T>
long double residual(const Padded<T>& a, const Padded<T>& f, Uplo uplo) {
  const index_t n = a.rows;
  long double amax = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs((long double)a.at(i, j)));
  if (n == 0 || amax == 0) return 0;
  long double worst = 0;
  if (n <= 160) {
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = j; i < n; ++i) {
        long double s = 0;
        for (index_t p = 0; p <= j; ++p) s += factor_at(f, uplo, i, p) * factor_at(f, uplo, j, p);
        worst = std::max(worst, std::fabs(s - (long double)a.at(i, j)));
      }
    }
    return worst / (n * amax);
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<long double> x(n), y(n), z(n);
  for (int probe = 0; probe < 6; ++probe) {
    long double xn = 0;
    for (auto& v : x) {
      v = dist(rng);
      xn = std::max(xn, std::fabs(v));
    }
    for (index_t i = 0; i < n; ++i) {  // y = F^T x
      long double s = 0;
      for (index_t p = i; p < n; ++p) s += factor_at(f, uplo, p, i) * x[p];
      y[i] = s;
    }
    for (index_t i = 0; i < n; ++i) {  // z = F y - A x
      long double s = 0;
      for (index_t p = 0; p <= i; ++p) s += factor_at(f, uplo, i, p) * y[p];
      for (index_t p = 0; p < n; ++p) s -= (long double)a.at(i, p) * x[p];
      z[i] = s;
    }
    for (auto v : z) worst = std::max(worst, std::fabs(v) / (n * amax * xn));
  }
  return worst;
}

// check_factor(): factors a random SPD matrix and checks info, the residual and that only
// the chosen triangle changed.
template <class T>
void check_factor(index_t n, Uplo uplo, Layout layout, index_t pad, Exec& exec,
                  std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message()
               << "n=" << n << " uplo=" << (uplo == Uplo::lower ? "L" : "U")
               << " layout=" << layout_name(layout) << " pad=" << pad << " bytes=" << sizeof(T));
  std::mt19937_64 rng(seed);
  Padded<T> a(n, n, layout, pad, T(-777));
  random_spd(a, rng);
  Padded<T> f = a;
  ASSERT_EQ(linalg::potrf<T>(uplo, f.view(), exec), 0);
  for (std::size_t e = 0; e < a.storage.size(); ++e) {  // padding and other triangle: bitwise
    const index_t outer = static_cast<index_t>(e) / a.ld;
    const index_t inner = static_cast<index_t>(e) % a.ld;
    const index_t i = layout == Layout::col_major ? inner : outer;
    const index_t j = layout == Layout::col_major ? outer : inner;
    const bool in_triangle = i < n && j < n && (uplo == Uplo::lower ? i >= j : i <= j);
    if (!in_triangle) {
      ASSERT_EQ(f.storage[e], a.storage[e]) << "element " << i << "," << j;
    }
  }
  EXPECT_LE(residual(a, f, uplo), tolerance<T>(n));
}

const index_t kSizes[] = {0,  1,   2,   3,   7,   31,  32,  33,  63, 64,
                          65, 100, 127, 128, 129, 255, 256, 257, 300};

TEST(Potrf, ResidualSmallAndMediumEveryIsa) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (index_t n : kSizes) {
      for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
        for (Layout layout : {Layout::col_major, Layout::row_major}) {
          Exec exec;
          check_factor<double>(n, uplo, layout, n % 3, exec, 100 + n);
          check_factor<float>(n, uplo, layout, 2, exec, 200 + n);
        }
      }
    }
  }
}

TEST(Potrf, ResidualLarge) {
  for (index_t n : {511, 512, 513, 777, 1024, 1500}) {
    Exec exec;
    check_factor<double>(n, n % 2 ? Uplo::lower : Uplo::upper, Layout::col_major, 5, exec, n);
    check_factor<float>(n, n % 2 ? Uplo::upper : Uplo::lower, Layout::col_major, 0, exec, n);
  }
}

TEST(Potrf, ResidualOnTeams) {
  for (std::size_t width : {2u, 3u}) {
    TeamHolder holder(width);
    Exec exec;
    exec.team = holder.team.get();
    for (index_t n : {5, 300, 513, 1100}) {
      for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
        check_factor<double>(n, uplo, Layout::col_major, 3, exec, 31 * n);
        check_factor<float>(n, uplo, Layout::row_major, 1, exec, 37 * n);
      }
    }
    check_factor<double>(1100, Uplo::lower, Layout::col_major, 0, exec, 5);
    EXPECT_GE(exec.stats.sections, 1u) << "a 1100 factorization on a team runs some section";
    EXPECT_GE(exec.stats.max_width_used, 2u);
    check_factor<double>(20, Uplo::lower, Layout::col_major, 0, exec, 5);
    EXPECT_EQ(exec.stats.sections, 0u) << "a 20 x 20 factorization is not worth a section";
  }
}

// A team whose member is held before it serves anything (its on-start hook waits for the
// test): every claimed section (the width model's own measurement, and the steps it runs wide)
// goes on without it, and the factorization is right. Before claimed sections the first join
// hung. Whether a step runs wide is the model's choice (the member's absence makes sections
// look dear), so the test asserts the sections that left the member out.
TEST(Potrf, OnATeamWhoseMemberNeverStarted) {
  HeldMemberTeam held;
  Exec exec;
  exec.team = held.team.get();
  check_factor<float>(700, Uplo::upper, Layout::row_major, 0, exec, 11);
  check_factor<double>(1500, Uplo::lower, Layout::col_major, 1, exec, 7);
  EXPECT_GE(held.pool->counters().members_left_out, 1U) << "the held member was left out";
}

// ---- failures -------------------------------------------------------------------------

// reference LAPACK (Debian's liblapack3), loaded privately so it cannot clash with anything
// linked into this binary.
template <class T>
using PotrfFn = void (*)(const char*, const int*, T*, const int*, int*, std::size_t);

template <class T>
PotrfFn<T> reference_potrf() {
  static void* lib =
      dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return nullptr;
  return reinterpret_cast<PotrfFn<T>>(dlsym(lib, sizeof(T) == 8 ? "dpotrf_" : "spotrf_"));
}

// break_at(): makes the first non-positive pivot of `a` be at column c (0-based), or a NaN.
template <class T>
void break_at(Padded<T>& a, index_t c, bool nan) {
  if (nan) {
    a.at(c, c) = std::numeric_limits<T>::quiet_NaN();
    return;
  }
  const long double pivot = pivot_at(a, c);
  a.at(c, c) = static_cast<T>(a.at(c, c) - pivot - 1.0L);  // the pivot becomes about -1
}

template <class T>
void check_failure(index_t n, index_t c, bool nan, Uplo uplo, Layout layout, Exec& exec) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " fail col=" << c + 1 << " nan=" << nan
                                    << " uplo=" << (uplo == Uplo::lower ? "L" : "U")
                                    << " layout=" << layout_name(layout) << " bytes=" << sizeof(T));
  std::mt19937_64 rng(n * 1000 + c);
  Padded<T> a(n, n, layout, 1, T(-5));
  random_spd(a, rng);
  break_at(a, c, nan);
  Padded<T> f = a;
  ASSERT_EQ(linalg::potrf<T>(uplo, f.view(), exec), c + 1);
  // Reference LAPACK on a column-major copy of the same matrix.
  PotrfFn<T> ref = reference_potrf<T>();
  if (ref == nullptr) GTEST_SKIP() << "reference LAPACK not found";
  Padded<T> r(n, n, Layout::col_major, 0);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) r.at(i, j) = a.at(i, j);
  const int nn = static_cast<int>(n);
  int info = -1;
  const char u = uplo == Uplo::lower ? 'L' : 'U';
  ref(&u, &nn, r.storage.data(), &nn, &info, 1);
  ASSERT_EQ(info, c + 1);
  const long double tol = 64 * std::numeric_limits<T>::epsilon() * static_cast<long double>(n);
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < n; ++i) {
      const T mine = f.at(i, j);
      const T theirs = r.at(i, j);
      if (std::isnan(theirs)) {
        ASSERT_TRUE(std::isnan(mine)) << i << "," << j;
        continue;
      }
      ASSERT_LE(std::fabs((long double)mine - theirs),
                tol * std::max(1.0L, std::fabs((long double)theirs)))
          << "element " << i << "," << j << " mine " << mine << " lapack " << theirs;
    }
  }
}

// The team step packs and solves the panel with the active kernel's MR and NR (AVX-512
// 24/8 and 48/8, AVX2 8/6 and 16/6, reference 4/4); every ISA, both storage orders of the
// factor, block sizes that leave partial register tiles and partial solve blocks.
// The Cholesky leaf works on a scratch tile whose strict upper triangle it may read and write
// (the register kernels for 32 and 64 columns carry whole aligned vectors): with NaN there,
// the factor must still be exact, and info exact on a pivot broken at column c.
template <class T>
void check_leaf(index_t n, index_t broken, std::mt19937_64& rng) {
  Padded<T> a(n, n, Layout::col_major, 3);
  random_spd(a, rng);
  if (broken >= 0) a.at(broken, broken) = T(-1);
  Padded<T> f = a;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < j; ++i) f.at(i, j) = std::numeric_limits<T>::quiet_NaN();
  }
  const index_t info =
      linalg::level3_detail::leaf_kernels<T>().potf2_lower(f.storage.data(), n, f.ld);
  if (broken >= 0) {
    EXPECT_EQ(info, broken + 1) << "n = " << n;
    return;
  }
  ASSERT_EQ(info, 0) << "n = " << n;
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = j; i < n; ++i) ASSERT_FALSE(std::isnan(f.at(i, j))) << i << "," << j;
  }
  EXPECT_LE(residual(a, f, Uplo::lower), tolerance<T>(n)) << "n = " << n;
}

TEST(Potrf, LeafIgnoresScratchAboveTheDiagonalEveryIsa) {
  std::mt19937_64 rng(11);
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (index_t n : {1, 7, 31, 32, 33, 40, 64}) {
      check_leaf<double>(n, -1, rng);
      check_leaf<float>(n, -1, rng);
    }
    for (index_t c : {0, 5, 17, 31, 63}) {
      check_leaf<double>(64, c, rng);
      check_leaf<float>(c < 32 ? 32 : 64, c, rng);
    }
  }
}

// solve_panel_tile(): X D^T = B for the register tiles of every kernel (24 x 8, 48 x 8, 8 x 6,
// 16 x 6, 4 x 4) and a shape with no register path, on every ISA, against a naive solve.
template <class T>
void check_panel_tile(index_t mr, index_t w, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  const index_t d_step = w + 2;  // as packed: D(c2, c) at d[c * d_step + c2]
  std::vector<T> d(static_cast<std::size_t>(w * d_step), T(0));
  std::vector<T> rdiag(static_cast<std::size_t>(w));
  for (index_t c = 0; c < w; ++c) {
    const T diag = static_cast<T>(2.0 + dist(rng) * 0.5);
    rdiag[c] = T(1) / diag;
    for (index_t c2 = c + 1; c2 < w; ++c2) d[c * d_step + c2] = static_cast<T>(dist(rng) * 0.5);
  }
  std::vector<T> b(static_cast<std::size_t>(mr * w));
  for (T& v : b) v = static_cast<T>(dist(rng));
  std::vector<T> x = b;
  linalg::level3_detail::leaf_kernels<T>().solve_panel_tile(x.data(), mr, w, d.data(), d_step,
                                                            rdiag.data());
  for (index_t i = 0; i < mr; ++i) {
    std::vector<long double> sol(static_cast<std::size_t>(w));
    for (index_t c = 0; c < w; ++c) {
      long double v = b[c * mr + i];
      for (index_t p = 0; p < c; ++p) v -= (long double)d[p * d_step + c] * sol[p];
      sol[c] = v * (long double)rdiag[c];
      EXPECT_NEAR((long double)x[c * mr + i], sol[c], 64 * std::numeric_limits<T>::epsilon())
          << "mr " << mr << " w " << w << " at " << i << "," << c;
    }
  }
}

TEST(Potrf, PanelTileSolveEveryShapeEveryIsa) {
  std::mt19937_64 rng(13);
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (auto [mr, w] : std::vector<std::pair<index_t, index_t>>{
             {24, 8}, {48, 8}, {8, 6}, {16, 6}, {4, 4}, {24, 5}, {7, 3}}) {
      check_panel_tile<double>(mr, w, rng);
      check_panel_tile<float>(mr, w, rng);
    }
  }
}

TEST(Potrf, OnTeamEveryIsa) {
  TeamHolder holder(2);
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(linalg::detail::isa_name(isa));
    for (index_t nb : {64, 192}) {
      linalg::level3_detail::set_potrf_block_override(nb);
      Exec exec;
      exec.team = holder.team.get();
      for (index_t n : {203, 461}) {
        check_factor<double>(n, Uplo::lower, Layout::col_major, 1, exec, 41 * n + nb);
        check_factor<float>(n, Uplo::lower, Layout::row_major, 2, exec, 43 * n + nb);
        check_factor<double>(n, Uplo::upper, Layout::row_major, 0, exec, 47 * n + nb);
      }
      EXPECT_GE(exec.stats.sections, 1u);
      check_failure<double>(461, nb + 7, false, Uplo::lower, Layout::col_major, exec);
    }
  }
  linalg::level3_detail::set_potrf_block_override(0);
}

TEST(Potrf, InfoExactAndStateMatchesLapack) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    for (auto [n, c] : std::vector<std::pair<index_t, index_t>>{{1, 0},
                                                                {2, 1},
                                                                {40, 0},
                                                                {40, 17},
                                                                {64, 63},
                                                                {65, 64},
                                                                {130, 70},
                                                                {300, 0},
                                                                {300, 63},
                                                                {300, 64},
                                                                {300, 200},
                                                                {300, 256},
                                                                {600, 299},
                                                                {600, 599}}) {
      Exec exec;
      check_failure<double>(n, c, false, Uplo::lower, Layout::col_major, exec);
      check_failure<double>(n, c, true, Uplo::upper, Layout::col_major, exec);
      check_failure<float>(n, c, false, Uplo::upper, Layout::row_major, exec);
      check_failure<float>(n, c, false, Uplo::lower, Layout::col_major, exec);
    }
  }
}

TEST(Potrf, InfoExactOnTeam) {
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  for (index_t c : {0, 255, 256, 700, 1199}) {
    check_failure<double>(1200, c, false, Uplo::lower, Layout::col_major, exec);
  }
  check_failure<double>(1200, 900, true, Uplo::upper, Layout::col_major, exec);
}

// Small blocks give many steps (and many lookahead hand-overs) on modest matrices; both
// schedules must give the same answers and the same failure state.
TEST(Potrf, BlockSizesLookaheadAndForkJoin) {
  for (index_t nb : {64, 128, 256}) {
    linalg::level3_detail::set_potrf_block_override(nb);
    for (int lookahead : {0, 1}) {
      linalg::level3_detail::set_potrf_lookahead_override(lookahead);
      SCOPED_TRACE(::testing::Message() << "nb=" << nb << " lookahead=" << lookahead);
      for (std::size_t width : {2u, 3u}) {
        TeamHolder holder(width);
        Exec exec;
        exec.team = holder.team.get();
        for (index_t n : {65, 200, 700}) {
          check_factor<double>(n, Uplo::lower, Layout::col_major, 1, exec, n + nb);
          check_factor<float>(n, Uplo::upper, Layout::col_major, 0, exec, n + nb);
        }
        EXPECT_GE(exec.stats.sections, 1u);
        check_failure<double>(700, 64 * 3 + 5, false, Uplo::lower, Layout::col_major, exec);
        check_failure<double>(700, nb, false, Uplo::upper, Layout::col_major, exec);
        check_failure<double>(700, 699, false, Uplo::lower, Layout::col_major, exec);
      }
      Exec narrow;
      TeamHolder holder(3);
      narrow.team = holder.team.get();
      narrow.max_width = 1;
      check_factor<double>(700, Uplo::lower, Layout::col_major, 0, narrow, 3);
      EXPECT_EQ(narrow.stats.sections, 0u) << "max_width = 1 runs inline";
    }
  }
  linalg::level3_detail::set_potrf_block_override(0);
  linalg::level3_detail::set_potrf_lookahead_override(-1);
}

// ---- potrs ----------------------------------------------------------------------------

template <class T>
void check_solve(index_t n, index_t nrhs, Uplo uplo, Layout layout, Exec& exec) {
  SCOPED_TRACE(::testing::Message()
               << "n=" << n << " nrhs=" << nrhs << " uplo=" << (uplo == Uplo::lower ? "L" : "U")
               << " layout=" << layout_name(layout) << " bytes=" << sizeof(T));
  std::mt19937_64 rng(n + nrhs);
  Padded<T> a(n, n, Layout::col_major, 2);
  random_spd(a, rng);
  Padded<T> f = a;
  ASSERT_EQ(linalg::potrf<T>(uplo, f.view(), exec), 0);
  Padded<T> b(n, nrhs, layout, 3, T(9));
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t j = 0; j < nrhs; ++j)
    for (index_t i = 0; i < n; ++i) b.at(i, j) = static_cast<T>(dist(rng));
  Padded<T> x = b;
  linalg::potrs<T>(uplo, f.cview(), x.view(), exec);
  long double worst = 0;
  for (index_t j = 0; j < nrhs; ++j) {
    for (index_t i = 0; i < n; ++i) {
      long double s = 0;
      for (index_t p = 0; p < n; ++p) s += (long double)a.at(i, p) * x.at(p, j);
      worst = std::max(worst, std::fabs(s - b.at(i, j)));
    }
  }
  EXPECT_LE(worst, 16 * std::numeric_limits<T>::epsilon() * n) << "max |A x - b|";
}

TEST(Potrs, SolvesOneAndManyRightHandSides) {
  for (auto isa : supported_isas()) {
    IsaScope scope(isa);
    for (index_t n : {0, 1, 7, 64, 130, 300}) {
      for (index_t nrhs : {1, 5, 40}) {
        for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
          Exec exec;
          check_solve<double>(n, nrhs, uplo, Layout::col_major, exec);
          check_solve<float>(n, nrhs, uplo, Layout::row_major, exec);
        }
      }
    }
  }
  TeamHolder holder(2);
  Exec exec;
  exec.team = holder.team.get();
  check_solve<double>(500, 600, Uplo::lower, Layout::col_major, exec);
  check_solve<double>(500, 1, Uplo::upper, Layout::row_major, exec);
}

// ---- bad input ------------------------------------------------------------------------

TEST(Potrf, BadInputThrowsAndLeavesMatrixUntouched) {
  std::vector<double> storage(16, 3.0);
  const std::vector<double> before = storage;
  Exec exec;
  auto expect_bad = [&](MatrixView<double> v, Uplo uplo, const char* what) {
    EXPECT_THROW((void)linalg::potrf<double>(uplo, v, exec), linalg::InvalidArgument) << what;
    EXPECT_EQ(storage, before) << what;
  };
  expect_bad({storage.data(), -1, -1, 4, Layout::col_major}, Uplo::lower, "negative n");
  expect_bad({storage.data(), 4, 4, 3, Layout::col_major}, Uplo::lower, "lda < n");
  expect_bad({storage.data(), 4, 4, 3, Layout::row_major}, Uplo::upper, "lda < n, row-major");
  expect_bad({nullptr, 4, 4, 4, Layout::col_major}, Uplo::lower, "null with n > 0");
  expect_bad({storage.data(), 4, 4, 4, Layout::col_major}, static_cast<Uplo>(7), "uplo");
  expect_bad({storage.data(), 4, 3, 4, Layout::col_major}, Uplo::lower, "not square");
  try {
    (void)linalg::potrf<double>(Uplo::lower, {storage.data(), 4, 4, 3, Layout::col_major}, exec);
  } catch (const linalg::InvalidArgument& e) {
    EXPECT_EQ(e.routine(), "potrf");
    EXPECT_NE(std::string(e.what()).find("lda = 3"), std::string::npos) << e.what();
  }
  std::vector<double> b(8, 1.0);
  const std::vector<double> b_before = b;
  EXPECT_THROW(linalg::potrs<double>(Uplo::lower, {storage.data(), 4, 4, 4, Layout::col_major},
                                     {b.data(), 3, 2, 4, Layout::col_major}, exec),
               linalg::InvalidArgument);
  EXPECT_THROW(
      linalg::potrs<double>(static_cast<Uplo>(9), {storage.data(), 4, 4, 4, Layout::col_major},
                            {b.data(), 4, 2, 4, Layout::col_major}, exec),
      linalg::InvalidArgument);
  EXPECT_EQ(b, b_before);
  EXPECT_EQ(linalg::potrf<double>(Uplo::lower, {nullptr, 0, 0, 1, Layout::col_major}, exec), 0);
}

}  // namespace
}  // namespace teamla::test
