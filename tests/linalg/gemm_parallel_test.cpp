// SPDX-License-Identifier: Apache-2.0
// gemm_parallel_test.cpp: gemm on a team, and the width cost model.
//
// Covers: results on teams of width 2, 3 and 5 (more than the CPUs) equal the naive loop, for
// both split modes (rows, columns; each unit packing B for itself), both layouts and
// transposes, with default and tiny blocking (many B panels per unit);
// that small problems stay inline (width 1, no section), that Exec::max_width caps the width,
// and the choose_width() rule itself.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "gemm/wide_split.hpp"
#include "isa_dispatch.hpp"
#include "linalg/naive.hpp"
#include "linalg/team_param_test.hpp"
#include "plan/width_internal.hpp"
#include "team/held_worker.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

struct Problem {
  index_t m, n, k;
  Op op_a, op_b;
  Layout layout;
};

// run_on_team(): gemm of `p` on `team` against the naive loop; returns the stats.
ExecStats run_on_team(team::Team* team, const Problem& p, std::size_t max_width = 0) {
  std::mt19937_64 rng(p.m * 131 + p.n * 17 + p.k);
  const index_t ar = p.op_a == Op::none ? p.m : p.k;
  const index_t ac = p.op_a == Op::none ? p.k : p.m;
  const index_t br = p.op_b == Op::none ? p.k : p.n;
  const index_t bc = p.op_b == Op::none ? p.n : p.k;
  const auto make = [&](index_t r, index_t c, std::vector<double>& s) {
    s.resize(static_cast<std::size_t>(r * c));
    test::fill_random(s, rng);
    return p.layout == Layout::col_major ? col_major(s.data(), r, c) : row_major(s.data(), r, c);
  };
  std::vector<double> sa, sb, sc;
  const MatrixView<double> a = make(ar, ac, sa);
  const MatrixView<double> b = make(br, bc, sb);
  const MatrixView<double> c = make(p.m, p.n, sc);
  std::vector<double> sc_want = sc;
  MatrixView<double> want = c;
  want.data = sc_want.data();
  std::vector<long double> mag;
  test::naive_gemm<double>(p.op_a, p.op_b, 0.75, a, b, -0.5, want, &mag);
  Exec exec;
  exec.team = team;
  exec.max_width = max_width;
  gemm<double>(p.op_a, p.op_b, 0.75, a, b, -0.5, c, exec);
  int bad = 0;
  for (index_t j = 0; j < p.n; ++j) {
    for (index_t i = 0; i < p.m; ++i) {
      const long double err = std::fabs(static_cast<long double>(c(i, j)) - want(i, j));
      if (!(err <= test::error_bound<double>(p.k, mag[i + j * p.m])) && bad++ < 5) {
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << c(i, j) << ", want " << want(i, j);
      }
    }
  }
  return exec.stats;
}

using GemmOnTeam = test::TeamParamTest;

TEST_P(GemmOnTeam, LargeProblemsRunWideAndMatchNaive) {
  const std::size_t w = team_->width();
  const Problem problems[] = {
      {701, 157, 263, Op::none, Op::none, Layout::col_major},  // rows split
      {2048, 16, 16, Op::none, Op::none, Layout::col_major},   // rows split, in place
      {64, 64, 4096, Op::none, Op::none, Layout::col_major},   // columns split
      {200, 240, 96, Op::none, Op::none, Layout::col_major},   // columns split, in place
      {400, 300, 300, Op::none, Op::none, Layout::col_major},  // columns split, packed
      {97, 410, 129, Op::transpose, Op::transpose, Layout::row_major},
      {250, 250, 250, Op::transpose, Op::none, Layout::col_major},
      {120, 701, 77, Op::none, Op::transpose, Layout::row_major},
  };
  for (const Problem& p : problems) {
    SCOPED_TRACE(::testing::Message() << p.m << "x" << p.n << "x" << p.k << " penalty "
                                      << observed_section_penalty_ns());
    const ExecStats stats = run_on_team(team_.get(), p);
    EXPECT_GT(stats.max_width_used, 1u);
    EXPECT_LE(stats.max_width_used, w);
    EXPECT_EQ(stats.sections, 1u);
    EXPECT_EQ(stats.inline_regions, 0u);
  }
}

TEST_P(GemmOnTeam, TinyBlockingCrossesManyPanels) {
  detail::force_blocking(1, 16, 1, 0);
  for (const Problem& p : {Problem{200, 64, 64, Op::none, Op::none, Layout::col_major},
                           Problem{64, 200, 50, Op::transpose, Op::none, Layout::row_major}}) {
    const ExecStats stats = run_on_team(team_.get(), p);
    EXPECT_GT(stats.max_width_used, 1u);
  }
}

TEST_P(GemmOnTeam, SmallProblemsStayInline) {
  const ExecStats stats =
      run_on_team(team_.get(), {8, 8, 8, Op::none, Op::none, Layout::col_major});
  EXPECT_EQ(stats.max_width_used, 1u);
  EXPECT_EQ(stats.sections, 0u);
  EXPECT_EQ(stats.inline_regions, 1u);
}

TEST_P(GemmOnTeam, MaxWidthCapsTheWidth) {
  const ExecStats one =
      run_on_team(team_.get(), {300, 300, 300, Op::none, Op::none, Layout::col_major}, 1);
  EXPECT_EQ(one.max_width_used, 1u);
  const ExecStats two =
      run_on_team(team_.get(), {300, 300, 300, Op::none, Op::none, Layout::col_major}, 2);
  EXPECT_EQ(two.max_width_used, 2u);
}

INSTANTIATE_TEST_SUITE_P(Widths, GemmOnTeam, ::testing::Values(2, 3, 5));

// A member that has not started (held before it serves anything): the leader takes its own
// run of units and then the member's (run_home_units()), and C is still right, on the in-place
// row split and on the column split.
TEST(GemmHeldMember, TheLeaderTakesTheAbsentMembersUnits) {
  if (team::usable_cpu_count() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
  detail::set_section_observation(false);
  {
    teamla::testing::HeldWorkerPool held(team::Pool::builder().threads(2));
    team::Team team = held.pool->acquire(2);
    for (const Problem& p : {Problem{2048, 16, 16, Op::none, Op::none, Layout::col_major},
                             Problem{64, 64, 4096, Op::none, Op::none, Layout::col_major}}) {
      SCOPED_TRACE(::testing::Message() << p.m << "x" << p.n << "x" << p.k);
      EXPECT_EQ(run_on_team(&team, p).max_width_used, 2U) << "planned wide";
    }
  }
  detail::set_section_observation(true);
}

// Tile counts of AVX-512 double (24 x 8 tiles) at width 2.
TEST(WideSplit, ColumnsUnlessATallerThanTwiceBsWidth) {
  // 256 x 256: 11 row tiles (6 and 5) against 32 column tiles, within the margin.
  EXPECT_FALSE(detail::splits_rows(11, 32, 2, 256, 256));
  EXPECT_FALSE(detail::splits_rows(22, 32, 2, 512, 256)) << "m = 2 n: columns";
  EXPECT_TRUE(detail::splits_rows(25, 32, 2, 600, 256)) << "m > 2 n: rows";
  EXPECT_TRUE(detail::splits_rows(86, 2, 2, 2048, 16)) << "tall: rows";
  // Rows balance better by more than the margin (48 x 56: 2 row tiles, 7 column tiles).
  EXPECT_TRUE(detail::splits_rows(2, 7, 2, 48, 56));
  // Columns balance better by more than the margin (72 x 32: 3 row tiles, 4 column tiles).
  EXPECT_FALSE(detail::splits_rows(3, 4, 2, 72, 32));
  EXPECT_DOUBLE_EQ(detail::split_imbalance(11, 2), 12.0 / 11.0);
}

TEST(ChooseWidth, FollowsTheThreeTimesDispatchRule) {
  const double cost2 = dispatch_cost_ns(2);
  EXPECT_EQ(dispatch_cost_ns(1), 0.0);
  EXPECT_GT(cost2, 0.0);
  EXPECT_GE(dispatch_cost_ns(2, DispatchKind::parked), dispatch_cost_ns(2, DispatchKind::hot));
  EXPECT_EQ(choose_width(1e9, 1, 1), 1u);                // no team width: inline
  EXPECT_EQ(choose_width(2.9 * cost2, 1, 2), 1u);        // below 3 x dispatch: inline
  EXPECT_EQ(choose_width(3.0 * cost2 * 10, 10, 2), 2u);  // exactly 3 x sections x cost
  EXPECT_EQ(choose_width(3.0 * cost2 * 10, 11, 2), 1u);  // one more section: inline
  EXPECT_EQ(choose_width(1e9, 1, 16), 16u);              // big work: the widest gains most
  // A width is never chosen if a narrower one is within the tie tolerance.
  const std::size_t w = choose_width(40 * cost2, 1, 16);
  EXPECT_GE(w, 2u);
  EXPECT_GE(40 * cost2, 3.0 * dispatch_cost_ns(w));
  EXPECT_EQ(choose_width(1e9, 1, 2, DispatchKind::parked), 2u);
  EXPECT_EQ(choose_width(100e3, 1, 2, DispatchKind::parked), 1u);  // 100 us < 3 x 66 us
}

TEST(ChooseWidth, ObservedPenaltyRaisesTheBarAndDecays) {
  detail::set_section_observation(true);
  const double cost2 = dispatch_cost_ns(2);
  const double work = 10 * cost2;  // pays at the table's cost
  EXPECT_EQ(choose_width_observed(work, 1, 2), 2u);
  // A section that took 5 ms more than expected, all of it waiting for a preempted member.
  for (int i = 0; i < 4; ++i) {
    record_section(5e6 + work / 2, work / 2, 5e6);
  }
  EXPECT_GT(observed_section_penalty_ns(), 1e6);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 1u);
  EXPECT_EQ(choose_width(work, 1, 2), 2u);           // the pure rule is unaffected
  EXPECT_EQ(choose_width_observed(1e12, 1, 2), 2u);  // big work still goes wide
  // One mild loss (1.5x the inline time, waiting for a member) alone is not a pattern; two of
  // four are.
  detail::set_section_observation(true);
  record_section(1.5 * (work / 2), work / 2, work / 4);
  EXPECT_EQ(observed_section_penalty_ns(), 0.0);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 2u);
  record_section(1.5 * (work / 2), work / 2, work / 4);
  EXPECT_GT(observed_section_penalty_ns(), 0.0);
  // A stall (a member descheduled with a unit in hand: 3x the inline time or more, a
  // scheduler slice of it spent waiting) within kStallRecurSections of the last is evidence on
  // its own, and moves the penalty half way to its excess. The process's first stall alone is
  // one loss (a quiet VM's own services preempt a member now and then).
  detail::set_section_observation(true);
  record_section(5e6 + work / 2, work / 2, 5e6);
  EXPECT_EQ(observed_section_penalty_ns(), 0.0) << "the first stall alone";
  record_section(work / 2, work / 2, 0);
  record_section(5e6 + work / 2, work / 2, 5e6);
  EXPECT_GT(observed_section_penalty_ns(), 2e6);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 1u);
  // A stall after hundreds of quiet sections (a periodic kernel thread's preemption) is one
  // loss: alone, it is not charged.
  detail::set_section_observation(true);
  record_section(5e6 + work / 2, work / 2, 5e6);
  for (int i = 0; i < 250; ++i) record_section(work / 2, work / 2, 0);
  EXPECT_LT(observed_section_penalty_ns(), cost2);
  record_section(5e6 + work / 2, work / 2, 5e6);
  EXPECT_EQ(observed_section_penalty_ns(), 0.0);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 2u);
  // One soon after it is evidence again.
  record_section(work / 2, work / 2, 0);
  record_section(5e6 + work / 2, work / 2, 5e6);
  EXPECT_GT(observed_section_penalty_ns(), 2e6);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 1u);
  // Quiet sections bring it back down.
  for (int i = 0; i < 80; ++i) {
    record_section(work / 2, work / 2, 0);
  }
  EXPECT_LT(observed_section_penalty_ns(), cost2);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 2u);
  detail::set_section_observation(false);
  EXPECT_EQ(observed_section_penalty_ns(), 0.0);
  detail::set_section_observation(true);
}

TEST(ChooseWidth, OnlyTheWaitForMembersIsCharged) {
  detail::set_section_observation(true);
  const double cost2 = dispatch_cost_ns(2);
  const double work = 10 * cost2;
  // The whole machine paused: 5 ms slower than inline, but the leader never waited for a
  // member, so running inline would have been as slow. Nothing is charged.
  for (int i = 0; i < 4; ++i) {
    record_section(5e6 + work / 2, work / 2, 0);
  }
  EXPECT_EQ(observed_section_penalty_ns(), 0.0);
  EXPECT_EQ(choose_width_observed(work, 1, 2), 2u);
  // A wait shorter than the loss caps the charge: 5 ms lost, 2 us of it waiting.
  for (int i = 0; i < 4; ++i) {
    record_section(5e6 + work / 2, work / 2, 2e3);
  }
  EXPECT_GT(observed_section_penalty_ns(), 0.0);
  EXPECT_LE(observed_section_penalty_ns(), 2e3);
  // A short region that waited 3x its inline time, but less than a scheduler slice (a member's
  // CPU paused for 0.2 ms): a loss, not a stall, so once alone it is not charged.
  detail::set_section_observation(true);
  const double small = 30e3;
  record_section(small + 200e3, small, 200e3);
  EXPECT_EQ(observed_section_penalty_ns(), 0.0);
  // The same wait past a slice is a stall, evidence on its own once stalls recur.
  detail::set_section_observation(true);
  record_section(small + 600e3, small, 600e3);
  record_section(small + 600e3, small, 600e3);
  EXPECT_GT(observed_section_penalty_ns(), 250e3);
  detail::set_section_observation(true);
}

TEST(ChooseWidth, SerialEstimate) {
  EXPECT_DOUBLE_EQ(serial_estimate_ns(2e9, 100.0), 2e7);
  EXPECT_GT(gemm_serial_gflops(8), 0.0);
  EXPECT_GT(gemm_serial_gflops(4), 0.0);
}

}  // namespace
}  // namespace teamla::linalg
