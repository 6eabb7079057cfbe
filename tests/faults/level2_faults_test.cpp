// SPDX-License-Identifier: Apache-2.0
// level2_faults_test.cpp: the level-2 routines (blas2.hpp) compute the right result when the
// system refuses them memory (fault_injection.hpp): every routine, both layouts, contiguous and
// strided (negative included) vectors, every op, triangle and diagonal, in all four scalar
// types, serially and (symv/hemv, whose team needs partial vectors) on a team of 2.
//
// A driver's only memory is its thread's scratch (level2_scratch.cpp), which only grows, so
// each refused call runs on a fresh thread, whose scratch is empty, with every allocation
// refused. It must not throw, must count exactly one memory shortfall, and must leave the same
// storage (the gaps, padding and unwritten triangle included) as the call with nothing refused,
// up to rounding: its reference loops sum in another order than the kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "faults/fault_injection.hpp"
#include "linalg/level2_test_util.hpp"
#include "plan/width_internal.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

using faults::Armed;
using test::Padded;
using test::Strided;
using test::Wide;

constexpr Layout kLayouts[] = {Layout::col_major, Layout::row_major};
constexpr Uplo kUplos[] = {Uplo::lower, Uplo::upper};
constexpr Op kOps[] = {Op::none, Op::transpose, Op::conj_transpose};
// Contiguous, and strided both ways (the scratch copies exist for these).
constexpr index_t kIncs[][2] = {{1, 1}, {2, -3}, {-1, 2}};

template <class T>
T generic_alpha() {
  return test::narrow<T>(Wide(0.75L, -0.5L));
}
template <class T>
T generic_beta() {
  return test::narrow<T>(Wide(-1.25L, 0.375L));
}

// Operands: the storage a call reads and writes (a routine may leave one unused).
template <class T>
struct Operands {
  Padded<T> a;
  Strided<T> x, y;
};

// Outcome: what one call under the fault did.
struct Outcome {
  bool threw = false;
  std::uint64_t shortfalls = 0;  // memory shortfalls it noted
  std::uint64_t refusals = 0;    // allocations the fault refused it
};

// run_refused(): call(exec) on a fresh thread with every allocation refused; on a team of
// `width` (built before the fault) when width > 1. Nothing inside the fault may allocate, so
// the outcome is only recorded there, and checked after.
template <class Call>
Outcome run_refused(std::size_t width, Call&& call) {
  Outcome out;
  const std::uint64_t shortfalls = team::shortfalls(team::Shortfall::memory);
  const std::uint64_t refusals = faults::allocations_refused();
  std::thread thread([&] {
    std::unique_ptr<team::Pool> pool;
    std::optional<team::Team> team;
    Exec exec;
    if (width > 1) {
      pool = team::Pool::builder().threads(width).build();
      team.emplace(pool->acquire(width));
      exec.team = &*team;
      exec.width_rule = WidthRule::model;  // the cost model alone: large calls plan wide
    }
    Armed refused([] { faults::refuse_allocations_from(1); });
    try {
      call(exec);
    } catch (...) {
      out.threw = true;
    }
  });
  thread.join();
  out.shortfalls = team::shortfalls(team::Shortfall::memory) - shortfalls;
  out.refusals = faults::allocations_refused() - refusals;
  return out;
}

// expect_close(): got's storage equals want's, elements up to the rounding of sums of `terms`
// products; the sentinels in gaps, padding and the unwritten triangle exactly.
template <class T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, index_t terms,
                  const char* what) {
  using R = real_t<T>;
  ASSERT_EQ(got.size(), want.size());
  R largest = 0;
  for (const T& w : want) {
    if (!(w == test::sentinel<T>())) largest = std::max<R>(largest, std::abs(w));
  }
  const R tol =
      R(8) * static_cast<R>(terms + 2) * std::numeric_limits<R>::epsilon() * (R(1) + largest);
  int failures = 0;
  for (std::size_t p = 0; p < want.size(); ++p) {
    // Bitwise equal also passes the NaNs of an unread triangle, which must stay as they were.
    const bool same = std::memcmp(&got[p], &want[p], sizeof(T)) == 0;
    if (same || std::abs(got[p] - want[p]) <= tol) continue;
    if (++failures <= 5) {
      ADD_FAILURE() << what << "[" << p << "]: got " << test::wide(got[p]) << " want "
                    << test::wide(want[p]) << " (tolerance " << tol << ")";
    }
  }
}

// check_refused(): call(operands, exec) with nothing refused (on this thread, serially) and
// under the fault (run_refused()) on copies of `start`; the two must agree.
template <class T, class Call>
void check_refused(const Operands<T>& start, index_t terms, Call&& call, std::size_t width = 1) {
  Operands<T> want = start;
  Operands<T> got = start;
  Exec serial;
  call(want, serial);
  const Outcome out = run_refused(width, [&](Exec& exec) { call(got, exec); });
  EXPECT_FALSE(out.threw) << "a refused allocation escaped the call";
  EXPECT_GT(out.refusals, 0U) << "the fault met no allocation: nothing was tested";
  EXPECT_EQ(out.shortfalls, 1U) << "a fallback notes exactly one memory shortfall";
  expect_close(got.a.storage, want.a.storage, terms, "A");
  expect_close(got.x.storage, want.x.storage, terms, "x");
  expect_close(got.y.storage, want.y.storage, terms, "y");
}

// random_operands(): A rows x cols, its elements `value(i, j, rng)` (the sentinel elsewhere),
// x and y random, y NaN where `y_nan` (a beta == 0 must not read it).
template <class T, class Value>
Operands<T> random_operands(index_t rows, index_t cols, Layout layout, index_t nx, index_t incx,
                            index_t ny, index_t incy, Value&& value, bool y_nan = false) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(rows * 131 + cols * 7 + nx));
  Operands<T> o{test::padded_matrix<T>(rows, cols, layout,
                                       [&](index_t i, index_t j) { return value(i, j, rng); }),
                Strided<T>(nx, incx), Strided<T>(ny, incy)};
  o.x.fill_random(rng);
  o.y.fill_random(rng);
  if (y_nan) o.y.fill(test::nan_value<T>());
  return o;
}

template <class T>
T random_entry(index_t, index_t, std::mt19937_64& rng) {
  return test::random_value<T>(rng);
}

// stored_only(): the `uplo` triangle random, the other NaN (it must not be read), as must
// neither a unit diagonal nor a Hermitian diagonal's imaginary parts. `solvable`: the diagonal
// near 2 and the rest scaled by 1/n, for trsv.
template <class T>
auto stored_only(Uplo uplo, bool herm, bool unit, bool solvable, index_t n) {
  return [=](index_t i, index_t j, std::mt19937_64& rng) {
    if (!test::in_triangle(uplo, i, j) || (unit && i == j)) return test::nan_value<T>();
    T v = test::random_value<T>(rng);
    if (solvable) v = i == j ? T(2) + v / T(4) : v / T(static_cast<real_t<T>>(n));
    if constexpr (is_complex_v<T>) {
      if (herm && i == j) v = T(v.real(), test::nan_value<real_t<T>>());
    }
    return v;
  };
}

template <class T>
class Level2Refused : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Level2Refused, ScalarTypes);

TYPED_TEST(Level2Refused, Gemv) {
  using T = TypeParam;
  const index_t m = 23, n = 17;
  for (Op op : kOps) {
    for (Layout layout : kLayouts) {
      for (const auto& inc : kIncs) {
        for (T beta : {generic_beta<T>(), T(0)}) {
          SCOPED_TRACE(::testing::Message()
                       << "op " << int(op) << " layout " << int(layout) << " incs " << inc[0]
                       << ", " << inc[1] << " beta " << test::wide(beta));
          const bool none = op == Op::none;
          const auto start = random_operands<T>(none ? m : n, none ? n : m, layout, n, inc[0], m,
                                                inc[1], random_entry<T>, beta == T(0));
          check_refused(start, n, [&](Operands<T>& o, Exec& exec) {
            gemv<T>(op, generic_alpha<T>(), o.a.cview(), o.x.cview(), beta, o.y.view(), exec);
          });
        }
      }
    }
  }
}

// symv (real) or hemv (complex).
template <class T>
void symmetric_product(Uplo uplo, T beta, Operands<T>& o, Exec& exec) {
  if constexpr (is_complex_v<T>) {
    hemv<T>(uplo, generic_alpha<T>(), o.a.cview(), o.x.cview(), beta, o.y.view(), exec);
  } else {
    symv<T>(uplo, generic_alpha<T>(), o.a.cview(), o.x.cview(), beta, o.y.view(), exec);
  }
}

// check_symv(): symv/hemv of order n refused, serially or on a team of `width`.
template <class T>
void check_symv(Uplo uplo, Layout layout, index_t n, const index_t (&inc)[2], T beta,
                std::size_t width) {
  SCOPED_TRACE(::testing::Message()
               << "n " << n << " uplo " << int(uplo) << " layout " << int(layout) << " incs "
               << inc[0] << ", " << inc[1] << " beta " << test::wide(beta) << " width " << width);
  const auto start =
      random_operands<T>(n, n, layout, n, inc[0], n, inc[1],
                         stored_only<T>(uplo, is_complex_v<T>, false, false, n), beta == T(0));
  check_refused(
      start, n, [&](Operands<T>& o, Exec& exec) { symmetric_product<T>(uplo, beta, o, exec); },
      width);
}

TYPED_TEST(Level2Refused, SymvHemv) {
  using T = TypeParam;
  for (Uplo uplo : kUplos) {
    for (Layout layout : kLayouts) {
      for (const auto& inc : kIncs) {
        for (T beta : {generic_beta<T>(), T(0)}) check_symv<T>(uplo, layout, 19, inc, beta, 1);
      }
    }
  }
}

// On a team a wide symv/hemv also takes a partial y per participant from the scratch.
TYPED_TEST(Level2Refused, SymvHemvOnATeam) {
  using T = TypeParam;
  detail::set_section_observation(false);  // as TeamParamTest: the model alone plans
  for (Uplo uplo : kUplos) {
    check_symv<T>(uplo, Layout::col_major, 700, kIncs[0], generic_beta<T>(), 2);
    check_symv<T>(uplo, Layout::row_major, 700, kIncs[1], generic_beta<T>(), 2);
  }
  detail::set_section_observation(true);
}

TYPED_TEST(Level2Refused, GerGerc) {
  using T = TypeParam;
  const index_t m = 21, n = 13;
  for (bool conj : {false, is_complex_v<T>}) {
    for (Layout layout : kLayouts) {
      for (const auto& inc : kIncs) {
        SCOPED_TRACE(::testing::Message() << "conj " << conj << " layout " << int(layout)
                                          << " incs " << inc[0] << ", " << inc[1]);
        const auto start = random_operands<T>(m, n, layout, m, inc[0], n, inc[1], random_entry<T>);
        check_refused(start, 1, [&](Operands<T>& o, Exec& exec) {
          if constexpr (is_complex_v<T>) {
            if (conj) {
              gerc<T>(generic_alpha<T>(), o.x.cview(), o.y.cview(), o.a.view(), exec);
              return;
            }
          }
          ger<T>(generic_alpha<T>(), o.x.cview(), o.y.cview(), o.a.view(), exec);
        });
      }
    }
  }
}

// syr/her (rank 1) or syr2/her2 (rank 2) on the `uplo` triangle; the other holds the sentinel.
template <class T>
void rank_update(Uplo uplo, bool rank2, Operands<T>& o, Exec& exec) {
  const T alpha = generic_alpha<T>();
  if constexpr (is_complex_v<T>) {
    if (rank2) {
      her2<T>(uplo, alpha, o.x.cview(), o.y.cview(), o.a.view(), exec);
    } else {
      her<T>(uplo, alpha.real(), o.x.cview(), o.a.view(), exec);
    }
  } else {
    if (rank2) {
      syr2<T>(uplo, alpha, o.x.cview(), o.y.cview(), o.a.view(), exec);
    } else {
      syr<T>(uplo, alpha, o.x.cview(), o.a.view(), exec);
    }
  }
}

TYPED_TEST(Level2Refused, SyrHerSyr2Her2) {
  using T = TypeParam;
  const index_t n = 19;
  for (bool rank2 : {false, true}) {
    for (Uplo uplo : kUplos) {
      for (Layout layout : kLayouts) {
        for (const auto& inc : kIncs) {
          SCOPED_TRACE(::testing::Message()
                       << "rank2 " << rank2 << " uplo " << int(uplo) << " layout " << int(layout)
                       << " incs " << inc[0] << ", " << inc[1]);
          const auto start = random_operands<T>(
              n, n, layout, n, inc[0], n, inc[1], [&](index_t i, index_t j, std::mt19937_64& rng) {
                return test::in_triangle(uplo, i, j) ? test::random_value<T>(rng)
                                                     : test::sentinel<T>();
              });
          check_refused(start, 2,
                        [&](Operands<T>& o, Exec& exec) { rank_update<T>(uplo, rank2, o, exec); });
        }
      }
    }
  }
}

TYPED_TEST(Level2Refused, TrmvTrsv) {
  using T = TypeParam;
  const index_t n = 19;
  for (bool solve : {false, true}) {
    for (Uplo uplo : kUplos) {
      for (Op op : kOps) {
        for (Diag diag : {Diag::non_unit, Diag::unit}) {
          for (Layout layout : kLayouts) {
            for (const auto& inc : kIncs) {
              SCOPED_TRACE(::testing::Message() << "solve " << solve << " uplo " << int(uplo)
                                                << " op " << int(op) << " diag " << int(diag)
                                                << " layout " << int(layout) << " inc " << inc[0]);
              const auto start =
                  random_operands<T>(n, n, layout, n, inc[0], 0, 1,
                                     stored_only<T>(uplo, false, diag == Diag::unit, solve, n));
              check_refused(start, n, [&](Operands<T>& o, Exec& exec) {
                if (solve) {
                  trsv<T>(uplo, op, diag, o.a.cview(), o.x.view(), exec);
                } else {
                  trmv<T>(uplo, op, diag, o.a.cview(), o.x.view(), exec);
                }
              });
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace teamla::linalg
