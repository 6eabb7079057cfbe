// SPDX-License-Identifier: Apache-2.0
// blas_fork_test.cpp: libteamla_blas.so across fork().
//
// Contract covered: libteamla_blas.so across fork(). A child forked after the parent's pool
// ran, or while other parent threads are inside calls, can call the routines without
// deadlocking on a pool it does not own (a watchdog alarm turns a deadlock into SIGALRM);
// grandchildren too; the parent keeps working afterwards. A child forked at the very start
// of a process, while other threads make the first calls (creating the engine, choosing the
// ISA, measuring the clock), can call too.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <string>
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
  busy.reserve(2);
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

// The scenario of the next test, in a fresh process (kStartupScenario set): two threads make
// the process's first calls while the main thread forks at once, and the child calls too. The
// child must not find anything a parent thread held at the fork: a function-local static's
// guard or the engine's creation mutex copied taken made it wait for good (1 in ~15 fresh
// soak processes hung so).
constexpr const char* kStartupScenario = "TEAMLA_TEST_FORK_AT_STARTUP";

TEST(BlasForkAtStartup, Scenario) {
  if (std::getenv(kStartupScenario) == nullptr) GTEST_SKIP() << "run by the next test";
  std::vector<std::thread> first_calls;
  first_calls.reserve(2);
  std::atomic<int> wrong{0};
  for (int t = 0; t < 2; ++t) {
    first_calls.emplace_back([t, &wrong] {
      const bool right = t == 0 ? checked_dgemm(96, 80, 72, 3) : checked_cholesky(64, 4);
      if (!right) wrong.fetch_add(1);
    });
  }
  const int status =
      run_in_child([] { return checked_dgemm(40, 33, 47, 5) && checked_cholesky(48, 6); });
  for (auto& thread : first_calls) thread.join();
  expect_clean_exit(status);
  EXPECT_EQ(wrong.load(), 0);
}

TEST(BlasForkAtStartup, ChildrenForkedWhileTheFirstCallsRunFinish) {
  if (std::getenv(kStartupScenario) != nullptr) GTEST_SKIP() << "this is the scenario's process";
  std::vector<std::string> env_text{std::string(kStartupScenario) + "=1"};
  for (char** entry = environ; *entry != nullptr; ++entry) env_text.emplace_back(*entry);
  std::vector<char*> env;
  env.reserve(env_text.size() + 1);
  for (auto& text : env_text) env.push_back(text.data());
  env.push_back(nullptr);
  std::string exe = "/proc/self/exe", filter = "--gtest_filter=BlasForkAtStartup.Scenario",
              brief = "--gtest_brief=1";
  char* argv[] = {exe.data(), filter.data(), brief.data(), nullptr};
  constexpr int kProcesses = 100;  // the worst moment is rare (~1 % of starts hung): try many
  for (int run = 0; run < kProcesses; ++run) {
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, env.data()), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "fresh process " << run << ": status " << status
        << " (a child that waited for good dies of SIGALRM and fails its parent)";
  }
}

}  // namespace
