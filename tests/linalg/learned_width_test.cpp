// SPDX-License-Identifier: Apache-2.0
// learned_width_test.cpp: the learned rates of linalg/src/width_learn.cpp on a real 2-wide team.
// The section cost it starts from is measured, so it runs alone (SERIAL): beside other tests
// on a 2-CPU machine that measurement is a loaded machine's.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "../../linalg/src/isa_dispatch.hpp"
#include "../../linalg/src/width_internal.hpp"
#include "linalg/naive.hpp"
#include "team/held_worker.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

// LearnedWidth: plan_region() on a real 2-wide team, fed region times by the test, so that the
// decision is the learner's alone (no kernel runs, nothing timed).
class LearnedWidth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (team::usable_cpu_count() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
    detail::set_section_observation(true);  // also forgets every learned rate
    // The regions here are fed faster than kWideExploreGapNs: without the gap, so that the
    // wide arm is re-run as often as its share allows (WideArmIsReRunAtMostEveryGap has it).
    detail::set_wide_explore_gap_ns(0);
    pool_ = team::Pool::builder().threads(2).build();
    team_ = std::make_unique<team::Team>(pool_->acquire(2));
    exec_.team = team_.get();
    // A region the model puts at 40 section costs: the model alone always goes wide.
    const double cost = team_->section_cost_ns(2);
    // A machine too busy for a section to complete in 200 us reports that as the cost; then
    // no region lies between the learner's floor (kLearnFloorCosts costs) and its ceiling.
    if (kLearnFloorCosts * cost >= 0.8 * kLearnCeilingNs) {
      GTEST_SKIP() << "the section cost measured here (" << cost / 1e3
                   << " us) leaves no region for the learner: the machine is too busy";
    }
    flops_ = std::min(40 * cost, 0.8 * kLearnCeilingNs) * gemm_serial_gflops(8);
  }
  void TearDown() override { detail::set_section_observation(true); }
  // feed(): `regions` plans, each reported as taking inline_ns at width 1, wide_ns wider;
  // returns how many ran wide.
  int feed(int regions, double inline_ns, double wide_ns) {
    int wide = 0;
    for (int i = 0; i < regions; ++i) {
      const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
      wide += plan.width > 1 ? 1 : 0;
      if (plan.timed) record_region(plan, plan.width > 1 ? wide_ns : inline_ns);
    }
    return wide;
  }
  // feed_switching(): feed(), but an inline region right after a wide one takes
  // inline_after_wide_ns (C's lines are in the other core's cache); returns how many ran wide.
  int feed_switching(int regions, double inline_ns, double inline_after_wide_ns, double wide_ns) {
    int wide = 0;
    std::size_t last_width = 1;
    for (int i = 0; i < regions; ++i) {
      const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
      wide += plan.width > 1 ? 1 : 0;
      const double inline_time = last_width > 1 ? inline_after_wide_ns : inline_ns;
      if (plan.timed) record_region(plan, plan.width > 1 ? wide_ns : inline_time);
      last_width = plan.width;
    }
    return wide;
  }
  std::unique_ptr<team::Pool> pool_;
  std::unique_ptr<team::Team> team_;
  Exec exec_;
  double flops_ = 0;
};

TEST(SectionCost, AFailedMeasurementIsRetriedAndTheSmallCallPathDoesNotKeepIt) {
  // The member is held before it serves anything, so the first measurement sees no section
  // complete and reports the provisional 200 us. Once the member runs, a later region must
  // measure again: before, the small-call floor kept the provisional cost (every region under
  // 400 us inline for good), and a failure was retried only after 1 s.
  if (team::usable_cpu_count() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
  detail::set_section_observation(true);
  teamla::testing::HeldWorkerPool held(team::Pool::builder().threads(2));
  team::Team team = held.pool->acquire(2);
  Exec exec;
  exec.team = &team;
  const double flops = 100e3 * gemm_serial_gflops(8);  // ~100 us inline, by the model
  EXPECT_EQ(plan_region(RegionKind::gemm, 8, flops, exec).width, 1u);
  EXPECT_FALSE(team.section_cost_measured(2));
  EXPECT_GE(exec.stats.section_cost_ns, 200e3);
  held.release();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));  // past the first retry (10 ms)
  for (int attempt = 0; attempt < 20 && !team.section_cost_measured(2); ++attempt) {
    plan_region(RegionKind::gemm, 8, flops, exec);
    if (!team.section_cost_measured(2)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(team.section_cost_measured(2));
  EXPECT_LT(exec.stats.section_cost_ns, 200e3);
}

TEST_F(LearnedWidth, ASizeClassWhereInlineRunsFasterGoesInline) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 3 * serial);  // learn: wide takes 3x the inline time
  const int wide = feed(200, serial, 3 * serial);
  EXPECT_LE(wide, 10) << "mostly inline; the rest re-measures the wide arm";
  EXPECT_GE(wide, 1) << "the slower arm is still re-measured now and then";
  EXPECT_GT(exec_.stats.learned_regions, 0U);
}

// learned_inline() tells a caller that skips its dispatch (the BLAS ABI) what the learner chose:
// nothing before the class has an inline rate, inline once it runs faster inline, and not
// inline where wide runs faster.
TEST_F(LearnedWidth, LearnedInlineFollowsTheChoice) {
  const double serial = flops_ / gemm_serial_gflops(8);
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_)) << "nothing learned yet";
  feed(200, serial, 3 * serial);
  EXPECT_TRUE(learned_inline(RegionKind::gemm, 8, flops_));
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 4, flops_)) << "another class";
}

// A caller that skips planning while learned_inline() says so (the BLAS ABI, but for one call
// in kEnginePassEvery) skips only regions the learner would run inline: an explore run's
// regions, which wake the members and then time the wide arm, each come to the planner.
TEST_F(LearnedWidth, LearnedInlineIsFalseForAnExploreRun) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 1.5 * serial);
  int skippable = 0;
  int wide = 0;
  int woke = 0;
  for (int i = 0; i < 400; ++i) {
    const bool skippable_now = learned_inline(RegionKind::gemm, 8, flops_);
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (skippable_now) {
      ++skippable;
      EXPECT_EQ(plan.width, 1u) << "region " << i << " was wide, but the caller could skip it";
      EXPECT_FALSE(plan.woke_members) << "region " << i;
    }
    wide += plan.width > 1 ? 1 : 0;
    woke += plan.woke_members ? 1 : 0;
    if (plan.timed) record_region(plan, plan.width > 1 ? 1.5 * serial : serial);
  }
  EXPECT_GE(skippable, 300) << "most regions of an inline class can be skipped";
  EXPECT_GE(wide, 1) << "the wide arm is still re-run";
  EXPECT_GE(woke, 1);
}

// A class whose learned inline time fell below the learner's floor is the model's to decide
// again, and the model runs it inline: its regions can be skipped too (before, the ABI sent
// every such call to the engine, 0.90x its 1-thread rate for dgemm_ 16 x 16 x 256).
TEST_F(LearnedWidth, LearnedInlineHoldsWhereTheModelDecidesInline) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial / 100, 3 * serial);  // the learned time falls under kLearnFloorCosts costs
  exec_.stats = ExecStats{};
  EXPECT_EQ(plan_region(RegionKind::gemm, 8, flops_, exec_).width, 1u);
  EXPECT_EQ(exec_.stats.learned_regions, 0U) << "the model decided";
  EXPECT_TRUE(learned_inline(RegionKind::gemm, 8, flops_));
}

TEST_F(LearnedWidth, LearnedInlineIsFalseWhereWideRunsFaster) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 0.55 * serial);
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_));
}

TEST_F(LearnedWidth, AColdFirstRegionDoesNotDecideTheClass) {
  // The first region of a class pays for first touches (a 2048 x 16 x 16 dgemm: 1 ms, then
  // 23 us). Learned, it made inline look 40x slower than it is, and the class went wide.
  const double serial = flops_ / gemm_serial_gflops(8);
  const RegionPlan first = plan_region(RegionKind::gemm, 8, flops_, exec_);
  ASSERT_EQ(first.width, 1u) << "a close call runs inline until the inline rate is known";
  record_region(first, 50 * serial);
  feed(200, serial, 3 * serial);
  EXPECT_LE(feed(200, serial, 3 * serial), 10);
}

TEST_F(LearnedWidth, ASizeClassWhereWideRunsFasterGoesWide) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 0.55 * serial);
  EXPECT_GE(feed(200, serial, 0.55 * serial), 180);
}

TEST_F(LearnedWidth, TheDecisionFollowsAChange) {
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 0.55 * serial);
  feed(2000, serial, 3 * serial);  // the machine got busy: wide regions now lose
  EXPECT_LE(feed(200, serial, 3 * serial), 10);
}

TEST_F(LearnedWidth, TheRegionAfterASwitchDoesNotTeachTheRate) {
  // dgemm 64 x 64 x 64 at 2 threads: inline 4.9 us in a row but 7.0 us right after a wide
  // region, wide 5.5 us. Learned from the regions right after a switch, inline looked slower
  // than wide and the class ran wide, at 0.91x the 1-thread process.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(200, serial, 0.55 * serial);  // wide first: the inline arm is then only explored
  feed_switching(2000, serial, 1.45 * serial, 1.12 * serial);
  EXPECT_LE(feed_switching(400, serial, 1.45 * serial, 1.12 * serial), 40)
      << "inline in a row is the faster arm";
}

TEST_F(LearnedWidth, ExploringTheSlowerArmCostsAtMostItsShare) {
  // Re-running the slower arm of a close call every 16th region, with the switch back, cost
  // dgemm 64 x 64 x 64 ~4 % at 2 threads; the period now keeps it under kExploreShare.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed_switching(400, serial, 1.45 * serial, 1.12 * serial);
  const int regions = 4000;
  const int wide = feed_switching(regions, serial, 1.45 * serial, 1.12 * serial);
  // In regions: the explored wide ones, and the switch back after each run of two.
  const double cost = wide * 0.12 + wide / 2.0 * 0.45;
  EXPECT_LE(cost, 1.5 * kExploreShare * regions);
  EXPECT_GE(wide, 10) << "the slower arm is still re-measured";
}

TEST_F(LearnedWidth, WideArmIsReRunAtMostEveryGap) {
  // Each re-run of the wide arm wakes the members, who then spin through their budget: re-run
  // every ~50 regions of 2.5 us, dgemm 48 x 48 x 48 at 2 threads kept a member spinning
  // without pause while every other region ran inline.
  detail::set_wide_explore_gap_ns(kWideExploreGapNs);
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 3 * serial);  // learn: inline is the faster arm
  std::this_thread::sleep_for(std::chrono::nanoseconds(kWideExploreGapNs));
  const auto start = std::chrono::steady_clock::now();
  const int wide = feed(4000, serial, 3 * serial);
  const auto took = std::chrono::steady_clock::now() - start;
  if (took >= std::chrono::nanoseconds(kWideExploreGapNs)) {
    GTEST_SKIP() << "4000 regions took longer than the gap here";
  }
  EXPECT_EQ(wide, static_cast<int>(kExploreRun)) << "one run of the wide arm within the gap";
  std::this_thread::sleep_for(std::chrono::nanoseconds(kWideExploreGapNs));
  EXPECT_GE(feed(400, serial, 3 * serial), 1) << "and again once the gap has passed";
}

TEST_F(LearnedWidth, OneSlowInlineRegionDoesNotSendTheClassWide) {
  // An inline region that the VM paused: learned at once, it raised the inline rate by 25 %,
  // past the wide one, and dgemm 48 x 48 x 48 at 2 threads ran wide for hundreds of regions.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 1.15 * serial);  // learn: inline is the faster arm, wide close behind
  ASSERT_LE(feed(100, serial, 1.15 * serial), 10);
  // One timed inline region at 3x its time, then the class as before.
  int wide_after = 0;
  bool slowed = false;
  for (int i = 0; i < 200; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (slowed) wide_after += plan.width > 1 ? 1 : 0;
    if (!plan.timed) continue;
    const bool slow = !slowed && plan.width == 1 && !plan.switched;
    slowed = slowed || slow;
    record_region(plan, plan.width > 1 ? 1.15 * serial : (slow ? 3 : 1) * serial);
  }
  ASSERT_TRUE(slowed);
  EXPECT_LE(wide_after, 10) << "the outlier went unlearned";
  // Slow inline regions in a row are a change, and are learned.
  feed(400, 3 * serial, 1.15 * serial);
  EXPECT_GE(feed(200, 3 * serial, 1.15 * serial), 180);
}

TEST_F(LearnedWidth, MembersParkAfterTheLastReRunOfTheWideArm) {
  // Each re-run of the wide arm of a class that runs inline used to leave the members
  // spinning through their budget beside the inline regions that follow.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 3 * serial);  // learn: inline is the faster arm
  int wide = 0;
  int parked = 0;
  std::size_t last_width = 1;
  for (int i = 0; i < 4000; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    wide += plan.width > 1 ? 1 : 0;
    if (plan.park_members_after) {
      ++parked;
      EXPECT_GT(plan.width, 1U);
      EXPECT_EQ(last_width, plan.width) << "the last of a run of kExploreRun wide regions";
    }
    if (plan.timed) record_region(plan, plan.width > 1 ? 3 * serial : serial);
    last_width = plan.width;
  }
  ASSERT_GE(wide, 4);
  EXPECT_EQ(parked * static_cast<int>(kExploreRun), wide) << "one park per run";
  // A class that runs wide keeps its members spinning.
  detail::reset_learned_rates();
  feed(400, serial, 0.55 * serial);
  for (int i = 0; i < 400; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    EXPECT_FALSE(plan.width > 1 && plan.park_members_after);
    if (plan.timed) record_region(plan, plan.width > 1 ? 0.55 * serial : serial);
  }
}

TEST_F(LearnedWidth, AReRunOfTheWideArmWakesTheMembersFirst) {
  // A member parked since the last re-run was still waking when the run's wide regions came:
  // the leader ran them alone, the wide arm looked slower than it is, and dgemm 128 x 128 x
  // 128 at 2 threads stayed inline where wide ran 1.3x faster.
  const std::uint64_t wakes_before = pool_->counters().wakes_ahead;
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 3 * serial);  // learn: inline is the faster arm
  int runs = 0;
  int wakes = 0;
  bool woken = false;  // a region woke the members, and no wide region has run since
  std::size_t last_width = 1;
  for (int i = 0; i < 4000; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (plan.woke_members) {
      ++wakes;
      EXPECT_EQ(plan.width, 1U) << "the region that wakes the members runs inline";
      woken = true;
    }
    if (plan.width > 1 && last_width == 1) {
      ++runs;
      EXPECT_TRUE(woken) << "run " << runs << " of the wide arm began with no wake";
      woken = false;
    }
    if (plan.timed) record_region(plan, plan.width > 1 ? 3 * serial : serial);
    last_width = plan.width;
  }
  ASSERT_GE(runs, 4);
  EXPECT_EQ(wakes, runs);
  EXPECT_GT(pool_->counters().wakes_ahead, wakes_before) << "the pool woke a member";
}

TEST_F(LearnedWidth, AWideRegionThatWokeASleepingMemberIsNotLearned) {
  // After a pause the members sleep, and the first wide region waits for a member's wake.
  // Learned, such regions held dgemm 96 x 96 x 96 at 2 threads inline in some processes.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 0.55 * serial);  // learn: wide is the faster arm
  int woken_regions = 0;
  for (int i = 0; i < 40 && woken_regions < 6; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (plan.width == 1) {
      if (plan.timed) record_region(plan, serial);
      continue;
    }
    // The members park after a section, and have fallen asleep 10 ms later.
    team_->run_claimed(
        2, 2, [](team::Section&, std::size_t) {}, team::Team::Linger::park);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::uint64_t before = team::members_not_running();
    team_->run_claimed(2, 2, [](team::Section&, std::size_t) {});  // the region's section
    // A member that was not asleep yet was not woken: that region says nothing here.
    if (team::members_not_running() == before) continue;
    ++woken_regions;
    record_region(plan, 4 * serial);  // the wake made it slow
  }
  if (woken_regions < 6) GTEST_SKIP() << "the member was seldom asleep after 10 ms here";
  int wide = 0;
  for (int i = 0; i < 20; ++i) {
    wide += plan_region(RegionKind::gemm, 8, flops_, exec_).width > 1 ? 1 : 0;
  }
  EXPECT_GE(wide, 15) << "the slow regions that woke a member were learned";
}

TEST_F(LearnedWidth, AChangedChoiceReRunsTheArmLeftSoon) {
  // A choice made on rates from a slow patch of the machine must be checked again soon: the
  // period of the ratio (~200 regions here) kept dgemm 48 x 48 x 48 wide for hundreds of
  // regions at 0.85x inline.
  const double serial = flops_ / gemm_serial_gflops(8);
  feed(400, serial, 2.5 * serial);  // inline is the faster arm; the wide rate is known
  // Inline regions now take 5x: once the inline rate has risen past the wide one, the class
  // goes wide (a run of more than kExploreRun wide regions), and re-runs inline within
  // kExplorePeriod regions.
  int wide_in_a_row = 0;
  int since_flip = -1;
  for (int i = 0; i < 4000; ++i) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (plan.timed) record_region(plan, plan.width > 1 ? 2.5 * serial : 5 * serial);
    if (since_flip >= 0) {
      ++since_flip;
      if (plan.width == 1) break;
      continue;
    }
    wide_in_a_row = plan.width > 1 ? wide_in_a_row + 1 : 0;
    if (wide_in_a_row > static_cast<int>(kExploreRun)) since_flip = 0;
  }
  ASSERT_GE(since_flip, 0) << "the class never went wide";
  EXPECT_LE(since_flip, static_cast<int>(kExplorePeriod)) << "regions until inline ran again";
}

TEST_F(LearnedWidth, TinyRegionsAreNeitherLearnedNorTimed) {
  exec_.stats = {};
  const RegionPlan plan = plan_region(RegionKind::gemm, 8, 100, exec_);
  EXPECT_EQ(plan.width, 1U);
  EXPECT_FALSE(plan.timed);
  EXPECT_EQ(exec_.stats.learned_regions, 0U);
}

// The floor below which no section pays is published for callers that skip their own dispatch
// (the BLAS ABI): kLearnFloorCosts section costs of serial time, once the cost is measured.
TEST_F(LearnedWidth, ThePlannedFloorIsPublished) {
  const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
  if (!team_->section_cost_measured(2)) GTEST_SKIP() << "no member came to the measurement";
  EXPECT_GT(plan.flops, 0.0);
  EXPECT_DOUBLE_EQ(inline_floor_flops(8),
                   kLearnFloorCosts * team_->section_cost_ns(2) * gemm_serial_gflops(8));
  plan_region(RegionKind::gemm, 4, flops_, exec_);
  EXPECT_DOUBLE_EQ(inline_floor_flops(4),
                   kLearnFloorCosts * team_->section_cost_ns(2) * gemm_serial_gflops(4));
}

TEST_F(LearnedWidth, WithObservationOffTheModelDecides) {
  detail::set_section_observation(false);
  // With observation off the model prices a section at the fallback, not at the cost SetUp
  // measured (a fast machine measured ~0.2 us, where 40 costs are too small to go wide).
  flops_ = 40 * detail::kFallbackSectionNs * gemm_serial_gflops(8);
  const double serial = flops_ / gemm_serial_gflops(8);
  EXPECT_EQ(feed(100, serial, 3 * serial), 100) << "the model's width, whatever was reported";
}

}  // namespace
}  // namespace teamla::linalg
