// SPDX-License-Identifier: Apache-2.0
// fork_test.cpp: team/ across fork(): the idle-pool reservoir and process-wide values.
//
// A pool built with reuse_threads() hands its workers to the reservoir when destroyed. A child
// forked afterwards has none of those threads: a pool it builds must start its own workers,
// never take the parent's idle ones (whose section would wait forever for members that do not
// exist). A process-wide value whose first computation a fork() interrupts is computed again
// in the child, never waited for. A watchdog alarm turns a hang into SIGALRM.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

#include "teamla/team/pool.hpp"
#include "teamla/team/process.hpp"
#include "teamla/team/team.hpp"

namespace teamla::team {
namespace {

// exit_status(): waits for `child`; its exit code, or 128 + the signal that killed it.
int exit_status(pid_t child) {
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// run_section(): one section of 2 participants; true when both ran.
bool run_section(Pool& pool) {
  Team team = pool.acquire(2);
  std::atomic<std::size_t> ran{0};
  team.run([&](Section&) { ran.fetch_add(1); });
  return team.width() == 2 && ran.load() == 2;
}

TEST(ReservoirFork, AChildStartsItsOwnWorkersInsteadOfTheParentsIdleOnes) {
  const PoolBuilder builder = Pool::builder().threads(2).reuse_threads();
  {
    auto pool = builder.build();
    ASSERT_TRUE(run_section(*pool));
  }  // its workers are now idle in the reservoir
  {
    auto again = builder.build();
    ASSERT_TRUE(again->reused()) << "the parent reuses its own idle workers";
    ASSERT_TRUE(run_section(*again));
  }
  const pid_t child = fork();
  if (child == 0) {
    alarm(20);
    auto pool = builder.build();
    const bool fresh = !pool->reused();
    _exit(fresh && run_section(*pool) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                 << " (SIGALRM: it waited for the parent's workers)";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child took the parent's idle workers";
  auto after = builder.build();
  EXPECT_TRUE(after->reused()) << "the parent's reservoir is untouched by the fork";
  EXPECT_TRUE(run_section(*after));
}

// fork_during_first_computation(): forks while another thread computes `value`'s first value;
// the child asks for it and exits 0 when it got its own (2). Returns the child's status. A
// function-local static in place of `value` fails: its guard is copied taken, and the child's
// first use waits for a thread that does not exist in it (SIGALRM).
template <class Value>
int fork_during_first_computation(Value& value) {
  std::atomic<int> stage{0};  // 1: the first computation has begun; 2: it may finish
  std::thread first([&] {
    (void)value.get([&] {
      stage.store(1);
      while (stage.load() != 2) std::this_thread::yield();
      return 1;
    });
  });
  while (stage.load() != 1) std::this_thread::yield();
  const pid_t child = fork();
  if (child == 0) {
    alarm(20);
    _exit(value.get([] { return 2; }) == 2 ? 0 : 1);
  }
  const int status = exit_status(child);
  stage.store(2);
  first.join();
  return status;
}

const char* why(int status) {
  return status == 128 + SIGALRM ? "the child waited for the parent's thread"
                                 : "the child saw no value of its own";
}

TEST(ProcessValueFork, AChildForkedDuringTheFirstComputationComputesItsOwn) {
  static constinit ProcessValue<int> value;
  const int status = fork_during_first_computation(value);
  EXPECT_EQ(status, 0) << why(status);
  EXPECT_EQ(value.get([] { return 3; }), 1) << "the parent keeps its first value";
}

TEST(ProcessValueFork, ANumberToo) {
  static constinit ProcessNumber<int> number;
  const int status = fork_during_first_computation(number);
  EXPECT_EQ(status, 0) << why(status);
  EXPECT_EQ(number.get([] { return 3; }), 1) << "the parent keeps its first value";
}

TEST(ProcessValue, RacingFirstUsesAllSeeTheOneValuePublished) {
  static constinit ProcessValue<int> value;
  std::atomic<int> computed{0};
  std::vector<const int*> seen(4, nullptr);
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back(
        [&, t] { seen[t] = &value.get([&] { return computed.fetch_add(1) + 10; }); });
  }
  for (auto& thread : threads) thread.join();
  for (const int* address : seen) EXPECT_EQ(address, seen[0]);
  EXPECT_GE(*seen[0], 10);
  EXPECT_LT(*seen[0], 10 + computed.load());
}

TEST(ProcessValue, ANumberIsComputedUntilOneIsPublished) {
  static constinit ProcessNumber<int> number;
  EXPECT_EQ(number.get([] { return 7; }), 7);
  EXPECT_EQ(number.get([] { return 8; }), 7) << "published once, never computed again";
}

}  // namespace
}  // namespace teamla::team
