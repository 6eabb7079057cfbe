// SPDX-License-Identifier: Apache-2.0
// machine_change_test.cpp: widths follow the CPUs a process may use when they change under
// it, as `taskset -a -p` changes them (every thread of the process), within
// team::kUsableCpusRefreshNs, and calls stay right while the set changes during them.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "faults/workload.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::faults {
namespace {

using engine::CpuEngine;
using engine::EngineConfig;
using engine::Mode;

// set_process_affinity(): `set` on every thread of this process (taskset -a -p).
void set_process_affinity(const cpu_set_t& set) {
  DIR* tasks = opendir("/proc/self/task");
  ASSERT_NE(tasks, nullptr);
  while (const dirent* entry = readdir(tasks)) {
    const int tid = std::atoi(entry->d_name);
    if (tid > 0) sched_setaffinity(tid, sizeof set, &set);  // a thread may have just exited
  }
  closedir(tasks);
}

cpu_set_t first_cpu_of(const cpu_set_t& all) {
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &all)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  return one;
}

// after_refresh(): waits out the usable-CPU cache, the bound within which widths follow.
void after_refresh() {
  std::this_thread::sleep_for(std::chrono::nanoseconds(team::kUsableCpusRefreshNs) +
                              std::chrono::milliseconds(20));
}

std::size_t gemm_width(CpuEngine& engine, TestMatrix<double>& a, TestMatrix<double>& c) {
  engine.gemm(linalg::Op::none, linalg::Op::none, 1.0, a.cview(), a.cview(), 0.0, c.view());
  return engine.last_call().exec.max_width_used;
}

class MachineChange : public ::testing::Test {
 protected:
  void SetUp() override {
    if (team::affinity_cpu_count() < 2) GTEST_SKIP() << "needs 2 CPUs in the affinity set";
    ASSERT_EQ(sched_getaffinity(0, sizeof all_, &all_), 0);
  }
  void TearDown() override { set_process_affinity(all_); }
  cpu_set_t all_{};
};

TEST_F(MachineChange, TheWidthFollowsTheAffinityOfEveryThreadDownAndBackUp) {
  EngineConfig config;
  config.mode = Mode::held;
  config.threads = 2;
  CpuEngine engine(config);
  TestMatrix<double> a(300, 300), c(300, 300);
  engine::testing::fill_random(a, 3);
  ASSERT_EQ(gemm_width(engine, a, c), 2u);

  set_process_affinity(first_cpu_of(all_));  // the engine's worker included
  after_refresh();
  EXPECT_EQ(gemm_width(engine, a, c), 1u) << "one CPU left: a second participant only preempts";
  EXPECT_EQ(engine.last_call().exec.width_cap, 1u);

  set_process_affinity(all_);
  after_refresh();
  EXPECT_EQ(gemm_width(engine, a, c), 2u) << "the width follows the set back up";
}

TEST_F(MachineChange, CallsStayRightWhileTheSetChangesUnderThem) {
  // A thread flips the whole process between all CPUs and one every few milliseconds while
  // the workload runs on a held and a per-call engine: every result stays right, no call
  // waits for a member whose CPU vanished (the test would time out).
  constexpr index_t n = 200;
  Workload work(n, 5);
  Outputs want;
  {
    CpuEngine serial(EngineConfig{.threads = 1, .mode = Mode::serial});
    want = work.run(serial);
  }
  std::atomic<bool> done{false};
  std::thread flipper([&] {
    const cpu_set_t one = first_cpu_of(all_);
    for (int flip = 0; !done.load(); ++flip) {
      set_process_affinity(flip % 2 == 0 ? one : all_);
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
  });
  for (const Mode mode : {Mode::held, Mode::per_call}) {
    CpuEngine engine(EngineConfig{.threads = 2, .mode = mode});
    for (int round = 0; round < 20; ++round) {
      EXPECT_EQ(disagreement(work.run(engine), want, n), "")
          << engine::to_string(mode) << " round " << round;
    }
  }
  done.store(true);
  flipper.join();
}

}  // namespace
}  // namespace teamla::faults
