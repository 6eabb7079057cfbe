// SPDX-License-Identifier: Apache-2.0
// claimed_test.cpp: claimed sections over widths 1, 2, 3 and more than the CPUs, under every
// wait policy: each unit runs once, dependencies between units hold, and (staged, passive) the
// leader never waits for a member that has not started: a member held back before it serves
// anything finds no unit left and touches nothing. Legacy waits for it (the 0.1.3 arm).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "held_worker.hpp"
#include "teamla/team/team_all.hpp"

namespace teamla::team {
namespace {

using Param = std::tuple<WaitPolicy, std::size_t>;

class ClaimedTest : public ::testing::TestWithParam<Param> {
 protected:
  WaitPolicy policy() const { return std::get<0>(GetParam()); }
  std::size_t width() const {
    const std::size_t w = std::get<1>(GetParam());
    return w == 0 ? affinity_cpu_count() + 2 : w;
  }
  // A pool whose worker 0 (rank 1 of a full team) waits in its on-start hook, before it
  // serves anything, until `released` is ready.
  std::unique_ptr<Pool> pool_holding_worker0(const std::shared_future<void>& released) const {
    PoolBuilder builder = Pool::builder();
    return teamla::testing::hold_worker0(builder.threads(width()).policy(policy()), released)
        .build();
  }
};

TEST_P(ClaimedTest, EveryUnitRunsExactlyOnce) {
  auto pool = Pool::builder().threads(width()).policy(policy()).build();
  Team team = pool->acquire(width());
  for (std::size_t units : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100}}) {
    std::vector<std::atomic<int>> runs(units);
    team.run_claimed(width(), units, [&](Section& s, std::size_t unit) {
      EXPECT_LT(s.rank(), width());
      runs[unit].fetch_add(1);
    });
    for (auto& r : runs) EXPECT_EQ(r.load(), 1);
  }
}

TEST_P(ClaimedTest, LaterUnitsWaitForEarlierOnes) {
  // Units 0..7 each produce a value; units 8..39 wait for all eight and read them (plain
  // reads: wait_for must order them).
  auto pool = Pool::builder().threads(width()).policy(policy()).build();
  Team team = pool->acquire(width());
  for (int round = 0; round < 20; ++round) {
    std::vector<long> produced(8, 0);
    std::atomic<int> ready{0};
    std::vector<long> consumed(32, 0);
    team.run_claimed(width(), 40, [&](Section& s, std::size_t unit) {
      if (unit < 8) {
        produced[unit] = static_cast<long>(unit + 1) * (round + 1);
        ready.fetch_add(1, std::memory_order_acq_rel);
        return;
      }
      s.wait_for([&] { return ready.load(std::memory_order_acquire) == 8; });
      long sum = 0;
      for (long v : produced) sum += v;
      consumed[unit - 8] = sum;
    });
    for (long v : consumed) ASSERT_EQ(v, 36L * (round + 1));
  }
}

TEST_P(ClaimedTest, AMemberThatHasNotStartedIsNotWaitedFor) {
  if (width() < 2) GTEST_SKIP() << "no member at width 1";
  // Worker 0 (rank 1) is held in its on-start hook until the section is over. Were the join
  // to wait for it, run_claimed would never return: under staged and passive it must.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto pool = pool_holding_worker0(released);
  Team team = pool->acquire(width());
  std::vector<int> out(64, 0);  // plain writes: the join must order them
  std::atomic<int> by_held_member{0};
  const auto body = [&](Section& s, std::size_t unit) {
    if (s.rank() == 1) by_held_member.fetch_add(1);
    out[unit] = static_cast<int>(unit) * 3;
  };
  if (policy() == WaitPolicy::legacy) {
    // 0.1.3's static split waits for every participant: the member must be let go first.
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      release.set_value();
    });
    team.run_claimed(width(), out.size(), body);
    releaser.join();
    EXPECT_GT(by_held_member.load(), 0) << "the static split gives rank 1 its share";
  } else {
    team.run_claimed(width(), out.size(), body);
    EXPECT_EQ(by_held_member.load(), 0) << "the held member cannot have run a unit";
    // A second section while it is still held: it is left out, not waited for.
    team.run_claimed(width(), out.size(), body);
    EXPECT_GE(pool->counters().members_left_out, 1U);
    release.set_value();
    // It now takes its stale job, finds the section over, and leaves without a unit.
    for (int i = 0; i < 2000 && pool->counters().idle_arrivals == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_GE(pool->counters().idle_arrivals, 1U);
    EXPECT_EQ(by_held_member.load(), 0);
    // And serves the next sections as usual.
    team.run_claimed(width(), out.size(), body);
  }
  for (std::size_t u = 0; u < out.size(); ++u) EXPECT_EQ(out[u], static_cast<int>(u) * 3);
}

TEST_P(ClaimedTest, AMemberLeftOutJoinsTheSectionLate) {
  if (width() < 2 || policy() == WaitPolicy::legacy) {
    GTEST_SKIP() << "no member at width 1; the static legacy arm posts to every member";
  }
  // Worker 0 (rank 1) is held before it serves anything, so it has not taken its job of the
  // first section when the second opens: it is left out of the second. Once let go (by the
  // second section's first unit), it must still join that section and take units, rather
  // than sit out a long section because it was late for the one before.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto pool = pool_holding_worker0(released);
  Team team = pool->acquire(width());
  team.run_claimed(width(), 4, [](Section&, std::size_t) {});
  constexpr std::size_t kUnits = 400;  // 1 ms each: the held member has time to arrive
  std::vector<std::atomic<int>> runs(kUnits);
  std::atomic<int> by_late_member{0};
  team.run_claimed(width(), kUnits, [&](Section& s, std::size_t unit) {
    if (unit == 0) release.set_value();
    if (s.rank() == 1) by_late_member.fetch_add(1);
    runs[unit].fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_GE(pool->counters().members_left_out, 1U);
  EXPECT_GT(by_late_member.load(), 0) << "the member left out never joined the section";
  // The member counts its late join once it finds no unit left, which may be after the join.
  for (int i = 0; i < 2000 && pool->counters().late_joins == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_GE(pool->counters().late_joins, 1U);
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

TEST_P(ClaimedTest, WakingTheMembersAheadPostsToEachIdleMember) {
  // Team::wake_members(w): each member of a width-w section that has taken all its jobs is
  // posted a wake (counted); nothing at width 1 or under the legacy policy. Sections after it
  // run as before.
  auto pool = Pool::builder().threads(width()).policy(policy()).build();
  Team team = pool->acquire(width());
  team.run(width(), [](Section&) {});  // joined: every member has taken its job
  team.wake_members(width());
  const std::uint64_t expected = policy() == WaitPolicy::legacy ? 0 : width() - 1;
  EXPECT_EQ(pool->counters().wakes_ahead, expected);
  team.wake_members(1);
  EXPECT_EQ(pool->counters().wakes_ahead, expected) << "width 1 has no member to wake";
  std::vector<std::atomic<int>> runs(50);
  team.run_claimed(width(), runs.size(), [&](Section&, std::size_t unit) { runs[unit]++; });
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

TEST_P(ClaimedTest, AUnitExceptionIsRethrownAndWaitersAreCancelled) {
  auto pool = Pool::builder().threads(width()).policy(policy()).build();
  Team team = pool->acquire(width());
  std::atomic<int> ready{0};
  // Unit 0 throws before it makes ready true; units after it wait for ready and must be
  // released (SectionCancelled) rather than wait for ever. Inline (width 1) their wait_for
  // is a logic error, which is also an exception the leader sees.
  EXPECT_ANY_THROW(team.run_claimed(width(), 6, [&](Section& s, std::size_t unit) {
    if (unit == 0) throw std::runtime_error("unit 0 failed");
    s.wait_for([&] { return ready.load() == 1; });
  }));
  // The team is usable afterwards.
  std::atomic<int> runs{0};
  team.run_claimed(width(), 10, [&](Section&, std::size_t) { runs.fetch_add(1); });
  EXPECT_EQ(runs.load(), 10);
}

TEST_P(ClaimedTest, BarrierIsRefusedInAClaimedSection) {
  if (width() < 2 || policy() == WaitPolicy::legacy) {
    GTEST_SKIP() << "inline and the static legacy arm have a barrier every participant reaches";
  }
  auto pool = Pool::builder().threads(width()).policy(policy()).build();
  Team team = pool->acquire(width());
  EXPECT_THROW(team.run_claimed(width(), 4, [](Section& s, std::size_t) { s.barrier(); }),
               std::logic_error);
}

std::string name_of(const ::testing::TestParamInfo<Param>& info) {
  const std::size_t w = std::get<1>(info.param);
  return std::string(to_string(std::get<0>(info.param))) + "_w" +
         (w == 0 ? std::string("cpus_plus_2") : std::to_string(w));
}

INSTANTIATE_TEST_SUITE_P(Widths, ClaimedTest,
                         ::testing::Combine(::testing::Values(WaitPolicy::staged,
                                                              WaitPolicy::legacy,
                                                              WaitPolicy::passive),
                                            ::testing::Values(1, 2, 3, 0)),
                         name_of);

// Linger::park: after a section the leader marks so, the members spin briefly and sleep,
// where they would spin through their budget (linalg's width learner marks the last re-run of
// the wide arm of a class that runs inline). The budget here is far longer than the test, so a
// member that spins does not park within it unless the system preempts it.
std::unique_ptr<Pool> pool_spinning_a_minute() {
  WaitTuning tuning;
  tuning.spin_time = std::chrono::seconds(60);
  tuning.warm_up = std::chrono::milliseconds(0);
  return Pool::builder().threads(2).tuning(tuning).build();
}

// parks_soon(): whether the pool counts more member parks than `before` within 5 s. The pools
// here spin for a minute, so a member that parks within 5 s parked because it was told to; the
// margin is for a member descheduled under tsan and foreign load.
bool parks_soon(Pool& pool, std::uint64_t before) {
  for (int wait = 0; wait < 1000; ++wait) {
    if (pool.counters().member_parks > before) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

TEST(ClaimedLinger, ParkSendsTheMembersToSleepAfterTheSection) {
  auto pool = pool_spinning_a_minute();
  Team team = pool->acquire(2);
  std::atomic<int> ran{0};
  const auto body = [&](Section&, std::size_t) { ran.fetch_add(1, std::memory_order_relaxed); };
  team.run_claimed(2, 8, body);  // the member now spins through its budget
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::uint64_t parks = pool->counters().member_parks;
  team.run_claimed(2, 8, body, Team::Linger::park);
  EXPECT_TRUE(parks_soon(*pool, parks))
      << "the member kept spinning after a section marked Linger::park";
  EXPECT_EQ(ran.load(), 16);
  // It wakes for the next section as from any park.
  team.run_claimed(2, 8, body);
  EXPECT_EQ(ran.load(), 24);
}

// The leader of a short section often posts the next while its member still wakes for the
// last one: the member gets the next as a late invitation, and the park must come with it.
TEST(ClaimedLinger, ParkHoldsForASectionJoinedLate) {
  auto pool = pool_spinning_a_minute();
  Team team = pool->acquire(2);
  const auto body = [](Section&, std::size_t) {};
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::uint64_t parks = pool->counters().member_parks;
    team.run_claimed(2, 2, body, Team::Linger::park);
    ASSERT_TRUE(parks_soon(*pool, parks));  // the member sleeps now
    const WaitCounters before = pool->counters();
    team.run_claimed(2, 2, body);                      // wakes it; the leader runs both units
    team.run_claimed(2, 2, body, Team::Linger::park);  // posted while it still wakes
    if ((pool->counters() - before).members_left_out == 0) continue;  // it was in time
    EXPECT_TRUE(parks_soon(*pool, before.member_parks))
        << "a member invited late kept spinning after a section marked Linger::park";
    return;
  }
  GTEST_SKIP() << "the member always took its job before the next section was posted";
}

}  // namespace
}  // namespace teamla::team
