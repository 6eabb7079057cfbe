// SPDX-License-Identifier: Apache-2.0
// learned_width_test.cpp: the calibrated width decisions of linalg/src/width_learn.cpp and
// their cache (width_cache.cpp), on a real 2-wide team.
// The section cost it starts from is measured, so it runs alone (SERIAL): beside other tests
// on a 2-CPU machine that measurement is a loaded machine's.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include <unistd.h>
#include <vector>

#include "isa_dispatch.hpp"
#include "linalg/naive.hpp"
#include "plan/width_cache.hpp"
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

// LearnedWidth: plan_region() on a real 2-wide team, fed region times by the test, so that the
// decision is the learner's alone (no kernel runs, nothing timed).
class LearnedWidth : public ::testing::Test {
 protected:
  void SetUp() override {
    if (team::usable_cpu_count() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
    use_width_cache("");
    detail::set_section_observation(true);  // also forgets every decision
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
  void TearDown() override {
    use_width_cache("");
    detail::set_section_observation(true);
  }
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
  // calibrate(): the regions of one calibration, inline ones taking inline_ns, wide ones wide_ns.
  void calibrate(double inline_ns, double wide_ns) {
    feed(static_cast<int>(kCalibrationBlock * kCalibrationBlocks), inline_ns, wide_ns);
  }
  double serial() const { return flops_ / gemm_serial_gflops(8); }
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

constexpr int kCalibration = static_cast<int>(kCalibrationBlock * kCalibrationBlocks);

TEST_F(LearnedWidth, AClassWhereInlineRunsFasterIsDecidedInline) {
  calibrate(serial(), 1.2 * serial());
  EXPECT_EQ(feed(200, serial(), 1.2 * serial()), 0) << "decided: no region runs wide";
  EXPECT_GT(exec_.stats.learned_regions, 0U);
}

TEST_F(LearnedWidth, AClassWhereWideRunsFasterIsDecidedWide) {
  calibrate(serial(), 0.6 * serial());
  EXPECT_EQ(feed(200, serial(), 0.6 * serial()), 200) << "decided: every region runs wide";
}

// The calibration's blocks alternate inline and wide, the first inline; each block's first
// region is no sample (it pays for the switch), and the last region of an inline block wakes
// the members for the wide block after it.
TEST_F(LearnedWidth, TheCalibrationAlternatesBlocksAndWakesTheMembersFirst) {
  const std::uint64_t wakes_before = pool_->counters().wakes_ahead;
  for (int region = 0; region < kCalibration; ++region) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    const int block = region / static_cast<int>(kCalibrationBlock);
    const int position = region % static_cast<int>(kCalibrationBlock);
    EXPECT_EQ(plan.width, block % 2 == 1 ? 2U : 1U) << "region " << region;
    EXPECT_EQ(plan.timed, position != 0) << "region " << region;
    const bool last_of_inline_block = block % 2 == 0 &&
                                      position + 1 == static_cast<int>(kCalibrationBlock) &&
                                      block + 1 < static_cast<int>(kCalibrationBlocks);
    EXPECT_EQ(plan.woke_members, last_of_inline_block) << "region " << region;
    EXPECT_EQ(plan.park_members_after, region + 1 == kCalibration) << "region " << region;
    if (plan.timed) record_region(plan, plan.width > 1 ? 0.6 * serial() : serial());
  }
  EXPECT_GT(pool_->counters().wakes_ahead, wakes_before) << "the pool woke a member";
}

// The medians decide: one sample the VM paused does not.
TEST_F(LearnedWidth, OneSlowSampleDoesNotDecide) {
  int inline_samples = 0;
  for (int region = 0; region < kCalibration; ++region) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (!plan.timed) continue;
    const bool slow = plan.width == 1 && inline_samples++ == 0;
    record_region(plan, plan.width > 1 ? 1.2 * serial() : (slow ? 10 : 1) * serial());
  }
  EXPECT_EQ(feed(50, serial(), 1.2 * serial()), 0) << "inline, though its first sample was slow";
}

// A decided class is checked again after kRecheckRegions regions (and kRecheckNs, here 0): the
// decision changes only when the other arm is faster by more than kRecheckMargin.
TEST_F(LearnedWidth, ADecisionChangesOnlyOnClearEvidence) {
  detail::set_recheck_ns(0);
  calibrate(serial(), 0.8 * serial());
  const int recheck = static_cast<int>(kRecheckRegions + kCalibrationBlock) + kCalibration;
  // Inline a little faster now (by less than the margin): the class stays wide.
  feed(recheck, serial(), 1.05 * serial());
  EXPECT_EQ(feed(50, serial(), 1.05 * serial()), 50) << "a small difference changed the decision";
  // Inline clearly faster: the next check decides inline.
  feed(recheck, serial(), 1.3 * serial());
  EXPECT_EQ(feed(50, serial(), 1.3 * serial()), 0) << "clear evidence did not change it";
}

// learned_inline() tells a caller that skips its dispatch (the BLAS ABI) what was decided:
// nothing before the class is decided, inline once it is decided inline, not while a check
// calibrates it again, and not where wide runs faster.
TEST_F(LearnedWidth, LearnedInlineFollowsTheDecision) {
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_)) << "nothing decided yet";
  feed(kCalibration / 2, serial(), 1.2 * serial());
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_)) << "calibrating";
  feed(kCalibration / 2, serial(), 1.2 * serial());
  EXPECT_TRUE(learned_inline(RegionKind::gemm, 8, flops_));
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 4, flops_)) << "another class";
  detail::set_recheck_ns(0);
  feed(static_cast<int>(kRecheckRegions) + 1, serial(), 1.2 * serial());
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_)) << "a check calibrates";
}

TEST_F(LearnedWidth, LearnedInlineIsFalseWhereWideRunsFaster) {
  calibrate(serial(), 0.55 * serial());
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_));
}

// A wide region whose section found a member not running measured the member's wake, not the
// width: it is no sample.
TEST_F(LearnedWidth, AWideRegionThatWokeASleepingMemberIsNoSample) {
  int wide_samples = 0;
  for (int region = 0; region < kCalibration; ++region) {
    RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (!plan.timed) continue;
    if (plan.width > 1) {
      plan.not_running_at_plan = team::members_not_running() + 1;  // as if one was found asleep
      ++wide_samples;
    }
    record_region(plan, plan.width > 1 ? 3 * serial() : serial());
  }
  ASSERT_GT(wide_samples, 0);
  // No wide sample counted: the calibration had nothing to decide on and starts again.
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_));
  EXPECT_EQ(plan_region(RegionKind::gemm, 8, flops_, exec_).width, 1U) << "a new calibration";
}

// A wide region whose post woke a sleeping member charges no loss to the observed penalty:
// charged, the penalty would run the next regions inline until the members slept again, and
// the next wide region would wake them again. The same stalls with every member running are
// charged.
TEST_F(LearnedWidth, ASectionThatWokeAMemberChargesNoLoss) {
  calibrate(serial(), 0.6 * serial());
  // stalled_regions(): 8 regions; each that runs wide takes 1 ms longer than inline, all of it
  // spent by the leader waiting. Returns how many ran wide.
  const auto stalled_regions = [&](bool woke) {
    int wide = 0;
    for (int i = 0; i < 8; ++i) {
      RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
      if (plan.width <= 1) continue;
      ++wide;
      if (woke) plan.woken_at_plan = team::members_woken() + 1;  // as if its post woke one
      plan.leader_wait_at_plan_ns = team::leader_wait_ns() - 1'000'000;
      record_region(plan, plan.must_beat_ns + 1e6);
    }
    return wide;
  };
  EXPECT_EQ(stalled_regions(true), 8) << "decided wide, and no wake turns it inline";
  EXPECT_EQ(observed_section_penalty_ns(), 0.0) << "a member's wake is no foreign load";
  EXPECT_LT(stalled_regions(false), 8) << "stalls with the members running are";
  EXPECT_GT(observed_section_penalty_ns(), 0.0);
}

// ---- The width cache ------------------------------------------------------------------

class WidthCache : public LearnedWidth {
 protected:
  void SetUp() override {
    LearnedWidth::SetUp();
    if (IsSkipped()) return;
    directory_ = (std::filesystem::temp_directory_path() /
                  ("teamla-width-cache-test-" + std::to_string(::getpid())))
                     .string();
    std::filesystem::remove_all(directory_);
  }
  void TearDown() override {
    LearnedWidth::TearDown();
    std::filesystem::remove_all(directory_);
  }
  // new_process(): what a process that starts now finds: no decision but the cache's.
  void new_process() { detail::reset_learned_rates(); }
  std::string directory_;
};

TEST_F(WidthCache, ADecisionIsKeptAndTheNextProcessRunsItFromItsFirstRegion) {
  use_width_cache(directory_);
  calibrate(serial(), 0.6 * serial());
  EXPECT_EQ(width_cache_status().stored, 1U);
  ASSERT_TRUE(std::filesystem::exists(detail::cache_file(directory_)));
  new_process();
  EXPECT_EQ(feed(10, serial(), 0.6 * serial()), 10) << "wide from the first region";
  EXPECT_GE(width_cache_status().loaded, 1U);
}

// A calibration on a busy machine (the wide arm's samples spread: the member had its CPU in
// some regions and not in others) decides the process's width but is not handed to later ones.
TEST_F(WidthCache, ABusyMachinesCalibrationIsNotKept) {
  use_width_cache(directory_);
  int wide_samples = 0;
  for (int region = 0; region < kCalibration; ++region) {
    const RegionPlan plan = plan_region(RegionKind::gemm, 8, flops_, exec_);
    if (!plan.timed) continue;
    const double wide_ns = (wide_samples++ % 3 == 2 ? 1.5 : 0.4) * serial();
    record_region(plan, plan.width > 1 ? wide_ns : serial());
  }
  EXPECT_GT(feed(10, serial(), serial()), 0)
      << "decided for the process (wide: a third of its samples 1.5, the rest 0.4)";
  EXPECT_EQ(width_cache_status().stored, 0U);
  EXPECT_FALSE(std::filesystem::exists(detail::cache_file(directory_)));
}

TEST_F(WidthCache, ACorruptFileIsRejectedAndTheClassCalibratedAgain) {
  std::filesystem::create_directories(directory_);
  std::ofstream(detail::cache_file(directory_)) << "teamla width cache 1\nkey x\n3 2 1 nan\n";
  use_width_cache(directory_);
  const RegionPlan first = plan_region(RegionKind::gemm, 8, flops_, exec_);
  EXPECT_EQ(first.width, 1U) << "calibrating: the first block runs inline";
  EXPECT_EQ(width_cache_status().rejected, 1U);
  EXPECT_EQ(width_cache_status().loaded, 0U);
  record_region(first, serial());
  calibrate(serial(), 0.6 * serial());
  std::vector<detail::CachedDecision> decisions;
  EXPECT_EQ(detail::read_width_cache(directory_, 1000, decisions), detail::CacheRead::loaded)
      << "rewritten whole";
  EXPECT_FALSE(decisions.empty());
}

TEST_F(WidthCache, AnotherMachinesFileIsRejected) {
  use_width_cache(directory_);
  calibrate(serial(), 0.6 * serial());
  // The same name, another key: a file copied from another machine (or a hash collision).
  std::string text;
  {
    std::ifstream in(detail::cache_file(directory_));
    std::string line;
    std::getline(in, line);
    text = line + "\nkey another machine\n";
    while (std::getline(in, line)) {
      if (line.rfind("key ", 0) != 0) text += line + "\n";
    }
  }
  std::ofstream(detail::cache_file(directory_)) << text;
  new_process();
  EXPECT_EQ(plan_region(RegionKind::gemm, 8, flops_, exec_).width, 1U) << "calibrating again";
  EXPECT_EQ(width_cache_status().rejected, 1U);
}

TEST_F(WidthCache, AnUnwritableDirectoryIsCountedAndNothingFails) {
  use_width_cache("/proc/teamla-width-cache");  // cannot be created, even by root
  calibrate(serial(), 0.6 * serial());
  EXPECT_EQ(feed(20, serial(), 0.6 * serial()), 20) << "decided in the process all the same";
  EXPECT_EQ(width_cache_status().stored, 0U);
  EXPECT_GE(width_cache_status().write_failures, 1U);
}

TEST_F(WidthCache, OffKeepsNothing) {
  calibrate(serial(), 0.6 * serial());
  EXPECT_TRUE(width_cache_status().directory.empty());
  EXPECT_FALSE(std::filesystem::exists(directory_));
  new_process();
  EXPECT_EQ(plan_region(RegionKind::gemm, 8, flops_, exec_).width, 1U) << "calibrating again";
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

// WidthRule::model (the benches' reproduction of threadteam 0.1.3) plans by the model alone:
// a class whose wide regions are reported slower is still run wide, none is calibrated, and
// none is published as inline for callers that skip planning.
TEST_F(LearnedWidth, UnderTheModelRuleNothingIsCalibrated) {
  exec_.width_rule = WidthRule::model;
  EXPECT_EQ(feed(200, serial(), 3 * serial()), 200) << "the model's width, whatever was reported";
  EXPECT_EQ(exec_.stats.learned_regions, 0U);
  EXPECT_FALSE(learned_inline(RegionKind::gemm, 8, flops_));
  exec_.width_rule = WidthRule::observed;
  calibrate(serial(), 3 * serial());
  EXPECT_EQ(feed(100, serial(), 3 * serial()), 0) << "the observed rule decides inline";
}

}  // namespace
}  // namespace teamla::linalg
