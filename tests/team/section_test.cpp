// SPDX-License-Identifier: Apache-2.0
// section_test.cpp: sections, barriers, exceptions and narrow sections of a held team, over
// widths 1, 2, 3 and more than the CPUs, under every wait policy.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "teamla/team/team_all.hpp"

namespace teamla::team {
namespace {

std::size_t wider_than_cpus() { return affinity_cpu_count() + 2; }

using Param = std::tuple<WaitPolicy, std::size_t>;

class SectionTest : public ::testing::TestWithParam<Param> {
 protected:
  WaitPolicy policy() const { return std::get<0>(GetParam()); }
  std::size_t width() const {
    const std::size_t w = std::get<1>(GetParam());
    return w == 0 ? wider_than_cpus() : w;
  }
  std::unique_ptr<Pool> make_pool() const {
    return Pool::builder().threads(width()).policy(policy()).build();
  }
};

TEST_P(SectionTest, EveryRankRunsOnceOnItsOwnThread) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  ASSERT_EQ(team.width(), width());
  for (int round = 0; round < 20; ++round) {
    std::vector<std::atomic<int>> hits(width());
    std::vector<std::thread::id> ids(width());
    team.run(width(), [&](Section& s) {
      EXPECT_EQ(s.width(), width());
      hits[s.rank()].fetch_add(1);
      ids[s.rank()] = std::this_thread::get_id();
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
    EXPECT_EQ(ids[0], std::this_thread::get_id()) << "the leader is rank 0";
    EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), width());
  }
}

TEST_P(SectionTest, JoinPublishesEveryParticipantsWrites) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  std::vector<std::size_t> out(width(), 0);  // plain writes: the join must order them
  for (std::size_t round = 1; round <= 50; ++round) {
    team.run([&](Section& s) { out[s.rank()] = round * (s.rank() + 1); });
    for (std::size_t r = 0; r < width(); ++r) ASSERT_EQ(out[r], round * (r + 1));
  }
}

TEST_P(SectionTest, NarrowSectionsUseOnlyTheirMembers) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  for (std::size_t w = 1; w <= width(); ++w) {
    std::atomic<std::size_t> count{0};
    std::atomic<std::size_t> max_rank{0};
    team.run(w, [&](Section& s) {
      count.fetch_add(1);
      std::size_t seen = max_rank.load();
      while (s.rank() > seen && !max_rank.compare_exchange_weak(seen, s.rank())) {
      }
    });
    EXPECT_EQ(count.load(), w);
    EXPECT_EQ(max_rank.load(), w - 1);
  }
}

TEST_P(SectionTest, BarrierSeparatesPhases) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  const std::size_t w = width();
  std::vector<std::size_t> cells(w, 0);
  team.run([&](Section& s) {
    for (std::size_t phase = 1; phase <= 30; ++phase) {
      cells[s.rank()] = phase;
      s.barrier();
      for (std::size_t r = 0; r < w; ++r) EXPECT_EQ(cells[r], phase);
      s.barrier();
    }
  });
}

TEST_P(SectionTest, MemberExceptionIsRethrownByTheLeaderAndTheTeamStaysUsable) {
  if (width() < 2) GTEST_SKIP() << "needs a member";
  auto pool = make_pool();
  Team team = pool->acquire(width());
  for (int round = 0; round < 5; ++round) {
    EXPECT_THROW(team.run([&](Section& s) {
      if (s.rank() == width() - 1) throw std::runtime_error("member failed");
    }),
                 std::runtime_error);
    std::atomic<std::size_t> count{0};
    team.run([&](Section&) { count.fetch_add(1); });
    EXPECT_EQ(count.load(), width());
  }
}

TEST_P(SectionTest, LeaderExceptionWaitsForMembersThenRethrows) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  std::atomic<std::size_t> finished{0};
  try {
    team.run([&](Section& s) {
      if (s.rank() == 0) throw std::logic_error("leader failed");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      finished.fetch_add(1);
    });
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "leader failed");
  }
  EXPECT_EQ(finished.load(), width() - 1) << "join must complete before the rethrow";
}

TEST_P(SectionTest, BarrierUnderCancellationWakesEveryWaiter) {
  if (width() < 2) GTEST_SKIP() << "needs a member";
  auto pool = make_pool();
  Team team = pool->acquire(width());
  std::atomic<std::size_t> cancelled{0};
  try {
    team.run([&](Section& s) {
      if (s.rank() == 1) {
        // Let the others reach the barrier (and, under staged/passive, fall asleep in it).
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        throw std::runtime_error("rank 1 failed");
      }
      try {
        s.barrier();
      } catch (const SectionCancelled&) {
        cancelled.fetch_add(1);
        throw;
      }
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "rank 1 failed") << "the first exception wins, not SectionCancelled";
  }
  EXPECT_EQ(cancelled.load(), width() - 1);
  std::atomic<std::size_t> count{0};
  team.run([&](Section& s) {
    s.barrier();
    count.fetch_add(1);
  });
  EXPECT_EQ(count.load(), width());
}

TEST_P(SectionTest, LeaderWaitCountsOnlyTheWaitForMembers) {
  // leader_wait_ns() feeds the width model's charge against a wide region: it must grow by the
  // time the leader waited for a member, and not by the leader's own work.
  using std::chrono::milliseconds;
  auto pool = make_pool();
  Team team = pool->acquire(width());
  const auto waited_over = [&](std::size_t slow_rank) {
    const std::uint64_t before = leader_wait_ns();
    team.run(width(), [&](Section& s) {
      if (s.rank() == slow_rank) std::this_thread::sleep_for(milliseconds(40));
    });
    return leader_wait_ns() - before;
  };
  if (width() >= 2) {
    EXPECT_GE(waited_over(width() - 1), 30'000'000u);  // the leader waited for a slow member
    EXPECT_LT(waited_over(0), 30'000'000u);            // its own 40 ms is not a wait
  }
  // A section of width 1 runs inline and waits for nothing.
  const std::uint64_t before = leader_wait_ns();
  team.run(1, [](Section&) { std::this_thread::sleep_for(milliseconds(5)); });
  EXPECT_EQ(leader_wait_ns(), before);
}

TEST_P(SectionTest, InvalidWidthsThrowAndCorruptNothing) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  EXPECT_THROW(team.run(0, [](Section&) {}), std::invalid_argument);
  EXPECT_THROW(team.run(width() + 1, [](Section&) {}), std::invalid_argument);
  EXPECT_THROW(team.fork({width(), 1}, [](std::size_t, Team&) {}), std::invalid_argument);
  EXPECT_THROW(team.fork({0}, [](std::size_t, Team&) {}), std::invalid_argument);
  EXPECT_THROW(team.fork(std::span<const std::size_t>(), [](std::size_t, Team&) {}),
               std::invalid_argument);
  std::atomic<std::size_t> count{0};
  team.run([&](Section&) { count.fetch_add(1); });
  EXPECT_EQ(count.load(), width());
}

TEST_P(SectionTest, ForkRunsChildTeamsConcurrently) {
  auto pool = make_pool();
  Team team = pool->acquire(width());
  // Split into children of widths 1, 2, 1, 2, ... that fill the team.
  std::vector<std::size_t> widths;
  for (std::size_t used = 0; used < width();) {
    const std::size_t w = std::min<std::size_t>(widths.size() % 2 == 0 ? 1 : 2, width() - used);
    widths.push_back(w);
    used += w;
  }
  for (int round = 0; round < 10; ++round) {
    std::vector<std::atomic<std::size_t>> ran(widths.size());
    std::vector<std::thread::id> leaders(widths.size());
    team.fork(widths, [&](std::size_t child, Team& sub) {
      EXPECT_EQ(sub.width(), widths[child]);
      leaders[child] = std::this_thread::get_id();
      for (int inner = 0; inner < 3; ++inner) {
        sub.run([&](Section& s) {
          s.barrier();
          ran[child].fetch_add(1);
        });
      }
    });
    for (std::size_t c = 0; c < widths.size(); ++c) EXPECT_EQ(ran[c].load(), 3 * widths[c]);
    EXPECT_EQ(leaders[0], std::this_thread::get_id()) << "child 0 is led by the leader";
    EXPECT_EQ(std::set<std::thread::id>(leaders.begin(), leaders.end()).size(), widths.size());
  }
}

TEST_P(SectionTest, NestedForkAndExceptionInAChild) {
  if (width() < 3) GTEST_SKIP() << "needs two levels";
  auto pool = make_pool();
  Team team = pool->acquire(width());
  std::atomic<std::size_t> leaves{0};
  team.fork({1, width() - 1}, [&](std::size_t child, Team& sub) {
    if (child == 0) return;
    sub.fork({1, sub.width() - 1},
             [&](std::size_t, Team& leaf) { leaf.run([&](Section&) { leaves.fetch_add(1); }); });
  });
  EXPECT_EQ(leaves.load(), width() - 1);
  EXPECT_THROW(team.fork({1, width() - 1},
                         [&](std::size_t child, Team& sub) {
                           if (child == 1)
                             sub.run([](Section& s) {
                               if (s.rank() == 1) throw std::out_of_range("deep");
                             });
                         }),
               std::out_of_range);
  std::atomic<std::size_t> count{0};
  team.run([&](Section&) { count.fetch_add(1); });
  EXPECT_EQ(count.load(), width());
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const std::size_t w = std::get<1>(info.param);
  return std::string(to_string(std::get<0>(info.param))) + "_w" +
         (w == 0 ? std::string("overCpus") : std::to_string(w));
}

INSTANTIATE_TEST_SUITE_P(Widths, SectionTest,
                         ::testing::Combine(::testing::Values(WaitPolicy::staged,
                                                              WaitPolicy::legacy,
                                                              WaitPolicy::passive),
                                            ::testing::Values(std::size_t{1}, std::size_t{2},
                                                              std::size_t{3}, std::size_t{0})),
                         param_name);

}  // namespace
}  // namespace teamla::team
