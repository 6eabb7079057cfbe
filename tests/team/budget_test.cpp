// SPDX-License-Identifier: Apache-2.0
// budget_test.cpp: the process CPU budget (teamla/team/cpu_budget.hpp). A call's slot counts
// once however deeply calls nest; a claimed section led inside a call is granted members only
// from the CPUs free (none: it runs inline on its leader); a member leaves a section that a
// caller arriving later over-commits; concurrent callers keep the participants running at
// about the usable CPUs where teams of their own would stack two per CPU, and none starves.
// Outside a call a team is not budgeted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "budget.hpp"
#include "teamla/team/team_all.hpp"

namespace teamla::team {
namespace {

std::size_t usable() { return budget_use().capacity; }

// OtherCallers: `count` threads that each hold a CallerSlot until release() (or destruction).
class OtherCallers {
 public:
  explicit OtherCallers(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      std::promise<void> entered;
      std::future<void> in = entered.get_future();
      threads_.emplace_back([this, entered = std::move(entered)]() mutable {
        const CallerSlot slot;
        entered.set_value();
        released_.wait();
      });
      in.wait();
    }
  }
  OtherCallers(const OtherCallers&) = delete;
  OtherCallers& operator=(const OtherCallers&) = delete;
  ~OtherCallers() { release(); }
  void release() {
    if (!done_) release_.set_value();
    done_ = true;
    for (std::thread& thread : threads_) thread.join();
    threads_.clear();
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_{release_.get_future().share()};
  bool done_ = false;
  std::vector<std::thread> threads_;
};

// rendezvous_units(): runs `units` units of width `width` in which each unit waits (at most
// 50 ms) until two units have been claimed, so that a granted member takes part; returns how
// many units ran on threads other than the leader.
std::size_t units_off_leader(Team& team, std::size_t width, std::size_t units) {
  const std::thread::id leader = std::this_thread::get_id();
  std::atomic<std::size_t> claimed{0};
  std::atomic<std::size_t> elsewhere{0};
  team.run_claimed(width, units, [&](Section&, std::size_t) {
    claimed.fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    while (claimed.load() < 2 && std::chrono::steady_clock::now() < until) cpu_relax();
    if (std::this_thread::get_id() != leader) elsewhere.fetch_add(1);
  });
  return elsewhere.load();
}

TEST(CpuBudget, ACallerSlotCountsOnceHoweverDeeplyCallsNest) {
  const std::size_t before = budget_use().running;
  {
    const CallerSlot outer;
    EXPECT_EQ(budget_use().running, before + 1);
    {
      const CallerSlot inner;
      EXPECT_EQ(budget_use().running, before + 1) << "a nested call is the same caller";
    }
    EXPECT_EQ(budget_use().running, before + 1);
  }
  EXPECT_EQ(budget_use().running, before);
}

TEST(CpuBudget, ASectionRunsInlineWhileOtherCallersHoldEveryCpu) {
  if (usable() < 2) GTEST_SKIP() << "one usable CPU: every section in a call runs inline";
  auto pool = Pool::builder().threads(2).build();
  Team team = pool->acquire(2);
  const CallerSlot slot;
  {
    OtherCallers others(usable() - 1);
    budget::set_linger_ns(budget::default_linger_ns());
    EXPECT_EQ(free_cpus(), 0U);
    const std::uint64_t narrowed = pool->counters().budget_narrowed;
    EXPECT_EQ(units_off_leader(team, 2, 8), 0U) << "no CPU was free for a member";
    EXPECT_EQ(pool->counters().budget_narrowed, narrowed + 1);
  }
  budget::set_linger_ns(0);  // no linger: the callers' CPUs are free at once
  EXPECT_EQ(free_cpus(), usable() - 1);
  EXPECT_GT(units_off_leader(team, 2, 8), 0U) << "the CPU freed went to a member";
  EXPECT_EQ(budget_use().running, 1U) << "the member's slot came back";
  budget::set_linger_ns(budget::default_linger_ns());
}

// A caller's CPU counts as taken for a while after its call (an OpenMP thread spinning in its
// barrier, a loop about to call again); the same thread's next call is not held back by it.
TEST(CpuBudget, ACallerThatJustLeftStillCountsButNotAgainstItself) {
  if (usable() < 2) GTEST_SKIP() << "needs a second CPU";
  budget::set_linger_ns(60'000'000'000);  // far longer than the test: no timing involved
  auto pool = Pool::builder().threads(2).build();
  Team team = pool->acquire(2);
  { OtherCallers others(usable() - 1); }  // they left: their CPUs linger
  {
    const CallerSlot slot;
    EXPECT_EQ(free_cpus(), 0U) << "the callers that just left still count";
    EXPECT_EQ(units_off_leader(team, 2, 8), 0U);
  }
  {
    const CallerSlot again;  // this thread's own linger is not counted against it
    EXPECT_EQ(free_cpus(), 0U) << "the others' still is";
  }
  budget::set_linger_ns(0);
  {
    const CallerSlot slot;
    EXPECT_EQ(free_cpus(), usable() - 1) << "expired";
    EXPECT_GT(units_off_leader(team, 2, 8), 0U);
  }
  budget::set_linger_ns(budget::default_linger_ns());
}

TEST(CpuBudget, ATeamOutsideAnyCallIsNotBudgeted) {
  if (usable() < 2) GTEST_SKIP() << "needs a second CPU";
  auto pool = Pool::builder().threads(2).build();
  Team team = pool->acquire(2);
  OtherCallers others(usable());
  EXPECT_GT(units_off_leader(team, 2, 8), 0U) << "the application sizes its own teams";
}

TEST(CpuBudget, AMemberLeavesWhenACallerArrivesAfterTheGrant) {
  if (usable() != 2) GTEST_SKIP() << "the scenario fills exactly two CPUs";
  budget::set_linger_ns(0);  // no earlier caller's linger holds the member back
  auto pool = Pool::builder().threads(2).build();
  Team team = pool->acquire(2);
  const CallerSlot slot;
  constexpr std::size_t kUnits = 2000;
  std::vector<std::atomic<int>> runs(kUnits);
  std::atomic<bool> member_ran{false};
  std::atomic<bool> caller_entered{false};
  std::atomic<bool> section_over{false};
  std::atomic<std::size_t> member_units_after{0};
  std::promise<void> release_caller;
  std::shared_future<void> caller_released = release_caller.get_future().share();
  std::thread caller([&] {
    while (!member_ran.load() && !section_over.load()) std::this_thread::yield();
    const CallerSlot late;
    caller_entered.store(true);
    caller_released.wait();
  });
  const std::thread::id leader = std::this_thread::get_id();
  team.run_claimed(2, kUnits, [&](Section&, std::size_t unit) {
    const bool member = std::this_thread::get_id() != leader;
    if (member && caller_entered.load()) member_units_after.fetch_add(1);
    runs[unit].fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < until) cpu_relax();
    if (member) member_ran.store(true);
  });
  section_over.store(true);
  release_caller.set_value();
  caller.join();
  for (const auto& r : runs) ASSERT_EQ(r.load(), 1);
  if (!member_ran.load()) GTEST_SKIP() << "the member never took part (a loaded machine)";
  EXPECT_LE(member_units_after.load(), 1U) << "the member went on past the over-commit";
  EXPECT_EQ(pool->counters().budget_leaves, 1U);
  EXPECT_EQ(budget_use().running, 1U) << "every slot came back";
  budget::set_linger_ns(budget::default_linger_ns());
}

// Each of `callers` threads makes `calls` calls of 64 units on a team of its own as wide as
// the usable CPUs. Returns the share of the calls made while every caller was busy in which a
// member ran a unit. Without the budget nearly every call gets its members, and k callers
// stack k teams on the CPUs; with it, a call gets a member only in the moment another caller
// is between two calls.
double calls_with_members_while_all_busy(std::size_t callers, int calls) {
  const std::size_t width = usable();
  std::atomic<std::size_t> started{0};
  std::atomic<bool> one_finished{false};
  std::atomic<std::uint64_t> counted{0};
  std::atomic<std::uint64_t> with_members{0};
  std::vector<std::future<void>> done;
  for (std::size_t c = 0; c < callers; ++c) {
    done.push_back(std::async(std::launch::async, [&] {
      auto pool = Pool::builder().threads(width).build();
      Team team = pool->acquire(width);
      started.fetch_add(1);
      while (started.load() < callers) std::this_thread::yield();  // start together
      for (int call = 0; call < calls; ++call) {
        const CallerSlot slot;
        const std::thread::id leader = std::this_thread::get_id();
        std::atomic<bool> member_ran{false};
        team.run_claimed(width, 64, [&](Section&, std::size_t) {
          if (std::this_thread::get_id() != leader) member_ran.store(true);
          const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(5);
          while (std::chrono::steady_clock::now() < until) cpu_relax();
        });
        if (!one_finished.load()) {
          counted.fetch_add(1);
          if (member_ran.load()) with_members.fetch_add(1);
        }
      }
      one_finished.store(true);  // the others' later calls no longer count
    }));
  }
  for (auto& f : done) {
    EXPECT_EQ(f.wait_for(std::chrono::seconds(120)), std::future_status::ready)
        << "a caller starved";
  }
  return static_cast<double>(with_members.load()) /
         static_cast<double>(std::max<std::uint64_t>(1, counted.load()));
}

TEST(CpuBudget, ConcurrentCallersShareTheCpusAndNoneStarves) {
  if (usable() < 2) GTEST_SKIP() << "needs two CPUs";
  const double share = calls_with_members_while_all_busy(usable(), 100);
  EXPECT_LT(share, 0.2) << "callers stacked their teams on the CPUs";
  EXPECT_EQ(budget_use().running, 0U) << "every slot came back";
}

}  // namespace
}  // namespace teamla::team
