// SPDX-License-Identifier: Apache-2.0
// home_units_test.cpp: teamla/team/home_units.hpp, the units of a batch section handed out home
// first: each rank takes its own run in order, then what is left of the others'; every claim
// finds a unit and no unit is handed out twice, also when claims race (run under tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "teamla/team/home_units.hpp"

namespace teamla::team {
namespace {

TEST(HomeUnits, EachRankTakesItsOwnRunInOrderFirst) {
  HomeUnits units(16, 2);
  EXPECT_EQ(units.take(1), 8u);  // rank 1's run is the second half
  for (std::size_t u = 0; u < 8; ++u) EXPECT_EQ(units.take(0), u);
  EXPECT_EQ(units.take(1), 9u);
}

TEST(HomeUnits, ARankThatNeverComesHasItsRunTakenByTheOthers) {
  // A member late or preempted: the leader takes its own run, then the member's.
  HomeUnits units(12, 3);
  std::vector<std::size_t> taken(12);
  for (std::size_t& unit : taken) unit = units.take(0);
  const std::vector<std::size_t> in_order = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(taken, in_order);
}

TEST(HomeUnits, FewerUnitsThanRanksAndRanksBeyondTheRunsShareRuns) {
  HomeUnits few(3, 8);  // five empty runs
  std::vector<int> seen(3, 0);
  for (std::size_t rank : {7u, 6u, 0u}) ++seen[few.take(rank)];
  EXPECT_EQ(seen, std::vector<int>(3, 1));

  const std::size_t width = 40;  // more ranks than HomeUnits::kMaxRuns
  HomeUnits wide(100, width);
  std::vector<int> count(100, 0);
  for (std::size_t claim = 0; claim < 100; ++claim) ++count[wide.take(claim % width)];
  EXPECT_EQ(count, std::vector<int>(100, 1));
}

// Claims race as a section's do: a shared ticket counter stands in for the claim board, and
// each ticket takes one unit; every unit is taken exactly once.
TEST(HomeUnits, RacingClaimsTakeEveryUnitOnce) {
  constexpr std::size_t kUnits = 4000;
  constexpr std::size_t kWidth = 4;
  for (int round = 0; round < 20; ++round) {
    HomeUnits units(kUnits, kWidth);
    std::atomic<std::size_t> tickets{0};
    std::vector<std::atomic<int>> taken(kUnits);
    std::vector<std::thread> ranks;
    for (std::size_t rank = 0; rank < kWidth; ++rank) {
      ranks.emplace_back([&, rank] {
        while (tickets.fetch_add(1, std::memory_order_relaxed) < kUnits) {
          taken[units.take(rank)].fetch_add(1, std::memory_order_relaxed);
        }
      });
    }
    for (std::thread& t : ranks) t.join();
    for (std::size_t u = 0; u < kUnits; ++u) ASSERT_EQ(taken[u].load(), 1) << "unit " << u;
  }
}

}  // namespace
}  // namespace teamla::team
