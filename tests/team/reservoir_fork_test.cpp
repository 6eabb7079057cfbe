// SPDX-License-Identifier: Apache-2.0
// reservoir_fork_test.cpp: the idle-pool reservoir across fork().
//
// A pool built with reuse_threads() hands its workers to the reservoir when destroyed. A child
// forked afterwards has none of those threads: a pool it builds must start its own workers,
// never take the parent's idle ones (whose section would wait forever for members that do not
// exist). A watchdog alarm turns such a hang into SIGALRM.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::team {
namespace {

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

}  // namespace
}  // namespace teamla::team
