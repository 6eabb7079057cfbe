// SPDX-License-Identifier: Apache-2.0
// blas_fork_test.cpp: libteamla_blas.so across fork().
//
// Contract covered: libteamla_blas.so across fork(). A child forked after the parent's pool
// ran, or while other parent threads are inside calls, can call the routines without
// deadlocking on a pool it does not own (a watchdog alarm turns a deadlock into SIGALRM);
// grandchildren too; the parent keeps working afterwards.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

#include "blas/blas_test_util.hpp"

namespace {

using namespace teamla::blas_test;

// run_in_child(): forks; the child runs `body` under a watchdog alarm (a deadlock kills it
// with SIGALRM) and exits 0 when `body` returns true. Returns the child's wait status.
template <class Body>
int run_in_child(Body body) {
  const pid_t child = fork();
  if (child == 0) {
    alarm(60);
    _exit(body() ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

void expect_clean_exit(int status) {
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                 << (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM
                                         ? " (SIGALRM: it deadlocked)"
                                         : "");
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child computed a wrong result";
}

TEST(BlasFork, ChildCallsAfterTheParentUsedThePool) {
  // 320^3 is far above any width threshold: the parent's pool threads have run.
  ASSERT_TRUE(checked_dgemm(320, 320, 320, 1));
  expect_clean_exit(
      run_in_child([] { return checked_dgemm(320, 320, 320, 2) && checked_cholesky(200, 3); }));
  EXPECT_TRUE(checked_dgemm(320, 320, 320, 4)) << "the parent after fork";
}

TEST(BlasFork, ChildForkedWhileParentThreadsAreInCalls) {
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> busy;
  for (int t = 0; t < 2; ++t) {
    busy.emplace_back([t, &stop, &wrong] {
      for (unsigned call = 0; !stop.load(); ++call) {
        if (!checked_dgemm(200, 200, 200, 100 * t + call)) wrong.fetch_add(1);
      }
    });
  }
  for (int round = 0; round < 5; ++round) {
    expect_clean_exit(run_in_child([round] {
      return checked_dgemm(256, 256, 256, 50 + round) && checked_cholesky(128, 60 + round);
    }));
  }
  stop.store(true);
  for (auto& thread : busy) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(BlasFork, GrandchildCallsToo) {
  ASSERT_TRUE(checked_dgemm(256, 256, 256, 7));
  expect_clean_exit(run_in_child([] {
    if (!checked_dgemm(256, 256, 256, 8)) return false;
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      alarm(60);
      _exit(checked_dgemm(256, 256, 256, 9) ? 0 : 1);
    }
    int status = 0;
    waitpid(grandchild, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }));
}

}  // namespace
