// SPDX-License-Identifier: Apache-2.0
// pressure_test.cpp: warm-up preemption detection and the pool-wide throttle it drives.
#include <gtest/gtest.h>

#include <chrono>

#include "teamla/team/team_all.hpp"
#include "wait/pressure.hpp"

namespace teamla::team {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

WaitTuning defaults() { return WaitTuning{}; }

TEST(PressureMonitor, FourPreemptionsWithinTheWindowThrottleForTheHold) {
  PressureMonitor monitor;
  monitor.start(defaults(), 0);
  EXPECT_TRUE(monitor.watching());
  EXPECT_EQ(monitor.preempt_gap_ns(), 200'000U);
  EXPECT_FALSE(monitor.observe_preemption(10 * kMs));
  EXPECT_FALSE(monitor.observe_preemption(20 * kMs));
  EXPECT_FALSE(monitor.observe_preemption(30 * kMs));
  EXPECT_FALSE(monitor.throttled_at(30 * kMs));
  EXPECT_TRUE(monitor.observe_preemption(40 * kMs));  // 4 within 100 ms
  EXPECT_TRUE(monitor.throttled_at(41 * kMs));
  EXPECT_TRUE(monitor.throttled_at(139 * kMs));
  EXPECT_FALSE(monitor.throttled_at(141 * kMs)) << "held for 100 ms";
}

TEST(PressureMonitor, SparsePreemptionsNeverThrottle) {
  PressureMonitor monitor;
  monitor.start(defaults(), 0);
  for (std::uint64_t t = 0; t < 200 * kMs; t += 40 * kMs) {
    EXPECT_FALSE(monitor.observe_preemption(t)) << "3 per 100 ms window at most";
  }
  EXPECT_FALSE(monitor.throttled_at(190 * kMs));
}

TEST(PressureMonitor, DetectionEndsAfterTheWarmUpAndAnyHold) {
  PressureMonitor monitor;
  monitor.start(defaults(), 0);
  EXPECT_TRUE(monitor.still_watching(199 * kMs));
  for (std::uint64_t t = 190; t < 194; ++t) monitor.observe_preemption(t * kMs);
  EXPECT_TRUE(monitor.still_watching(250 * kMs)) << "past the warm-up but inside the hold";
  EXPECT_FALSE(monitor.still_watching(300 * kMs));
  EXPECT_FALSE(monitor.watching()) << "off for good";
}

TEST(PressureMonitor, ZeroWarmUpNeverWatches) {
  WaitTuning tuning;
  tuning.warm_up = std::chrono::milliseconds(0);
  PressureMonitor monitor;
  monitor.start(tuning, 0);
  EXPECT_FALSE(monitor.watching());
  auto pool = Pool::builder().threads(1).tuning(tuning).build();
  EXPECT_FALSE(pool->throttled());
}

}  // namespace
}  // namespace teamla::team
