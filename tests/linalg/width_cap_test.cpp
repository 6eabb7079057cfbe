// SPDX-License-Identifier: Apache-2.0
// width_cap_test.cpp: sections are never wider than the CPUs the process may use: the cgroup
// quota reader on fake cgroup trees (v1, v2, hybrid, a tighter parent), a gemm on a 2-thread
// team whose leader is confined to one CPU (taskset -c 0), and a real cgroup with a 1-CPU quota
// where the test can create one (skipped with a message where it cannot).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "platform/cgroup.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

class FakeCgroups : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("teamla-cgroup-" + std::to_string(getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(FakeCgroups, V2QuotaRoundsUpAndMaxMeansNone) {
  write(root_ / "app/cpu.max", "150000 100000\n");
  EXPECT_EQ(team::platform::cgroup_cpu_limit("0::/app\n", root_.string()), 2U);
  write(root_ / "app/cpu.max", "max 100000\n");
  EXPECT_EQ(team::platform::cgroup_cpu_limit("0::/app\n", root_.string()), 0U);
}

TEST_F(FakeCgroups, ATighterParentBoundsTheChild) {
  write(root_ / "job/cpu.max", "100000 100000\n");
  write(root_ / "job/step/cpu.max", "400000 100000\n");
  EXPECT_EQ(team::platform::cgroup_cpu_limit("0::/job/step\n", root_.string()), 1U);
}

TEST_F(FakeCgroups, V1CfsQuotaAndTheHybridLayout) {
  write(root_ / "cpu,cpuacct/batch/cpu.cfs_quota_us", "250000\n");
  write(root_ / "cpu,cpuacct/batch/cpu.cfs_period_us", "100000\n");
  const std::string v1 = "2:cpu,cpuacct:/batch\n1:memory:/batch\n0::/\n";
  EXPECT_EQ(team::platform::cgroup_cpu_limit(v1, root_.string()), 3U);
  write(root_ / "cpu,cpuacct/batch/cpu.cfs_quota_us", "-1\n");
  EXPECT_EQ(team::platform::cgroup_cpu_limit(v1, root_.string()), 0U) << "-1: no quota";
  write(root_ / "unified/batch/cpu.max", "100000 100000\n");
  EXPECT_EQ(team::platform::cgroup_cpu_limit("0::/batch\n", root_.string()), 1U);
}

TEST_F(FakeCgroups, NoQuotaAnywhereIsZero) {
  EXPECT_EQ(team::platform::cgroup_cpu_limit("0::/none\n", root_.string()), 0U);
  EXPECT_EQ(team::platform::cgroup_cpu_limit("", root_.string()), 0U);
}

// gemm_width(): the width a 300 x 300 x 300 gemm (well past every learning band) runs at on
// `team`.
std::size_t gemm_width(team::Team& team, Exec& exec) {
  std::vector<double> a(300 * 300, 0.5);
  std::vector<double> c(a.size());
  exec.team = &team;
  gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), 300, 300),
               col_major<const double>(a.data(), 300, 300), 0.0, col_major(c.data(), 300, 300),
               exec);
  EXPECT_DOUBLE_EQ(c[0], 300 * 0.25);
  return exec.stats.max_width_used;
}

// Waits past the usable CPU count's refresh interval, so that it sees a change.
void await_refresh() {
  std::this_thread::sleep_for(std::chrono::nanoseconds(team::kUsableCpusRefreshNs) +
                              std::chrono::milliseconds(20));
  (void)team::usable_cpu_count();
}

TEST(WidthCap, OneAllowedCpuRunsInlineAndTheWidthFollowsTheAffinitySet) {
  if (team::affinity_cpu_count() < 2) GTEST_SKIP() << "needs 2 CPUs in the affinity set";
  auto pool = team::Pool::builder().threads(2).build();
  team::Team team = pool->acquire(2);
  Exec exec;
  EXPECT_EQ(gemm_width(team, exec), 2U);
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &all)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);  // this thread: `taskset -c <first>`
  await_refresh();
  EXPECT_EQ(gemm_width(team, exec), 1U) << "a second participant could only preempt the first";
  EXPECT_EQ(exec.stats.width_cap, 1U);
  EXPECT_EQ(exec.stats.sections, 0U);
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  await_refresh();
  EXPECT_EQ(gemm_width(team, exec), 2U) << "the width follows the set back up";
}

// RanksProbe runs only in a process of its own that the next test starts with the launcher's
// variable set (local_ranks() reads it once per process).
TEST(RanksProbe, TwoUnboundRanksGetHalfTheCpusEach) {
  if (std::getenv("TEAMLA_TEST_RANKS_PROBE") == nullptr) GTEST_SKIP() << "run by the next test";
  const unsigned cpus = team::affinity_cpu_count();
  const unsigned expected = cpus == team::online_cpu_count() ? std::max(1U, cpus / 2) : cpus;
  const unsigned quota = team::cpu_quota_limit();
  EXPECT_EQ(team::local_ranks(), 2U);
  EXPECT_EQ(team::usable_cpu_count(), quota != 0 ? std::min(expected, quota) : expected);
}

TEST(WidthCap, UnboundRanksOfAnMpiJobShareTheNodesCpus) {
  const pid_t child = fork();
  if (child == 0) {
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
    setenv("TEAMLA_TEST_RANKS_PROBE", "1", 1);
    execl("/proc/self/exe", "width_cap_test", "--gtest_filter=RanksProbe.*", nullptr);
    _exit(127);
  }
  ASSERT_GT(child, 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "two unbound ranks did not get half the CPUs each";
}

TEST(WidthCap, ACgroupQuotaOfOneCpuRunsInlineAndLiftingItWidensAgain) {
  if (team::affinity_cpu_count() < 2) GTEST_SKIP() << "needs 2 CPUs in the affinity set";
  // cgroup v1's cpu controller (this machine kind mounts it at /sys/fs/cgroup/cpu), as root.
  const fs::path group =
      fs::path("/sys/fs/cgroup/cpu") / ("teamla-test-" + std::to_string(getpid()));
  if (mkdir(group.c_str(), 0755) != 0) {
    GTEST_SKIP() << "cannot create a cgroup here (" << group
                 << "): not root or no v1 cpu controller";
  }
  std::ofstream(group / "cpu.cfs_period_us") << 100000;
  std::ofstream(group / "cpu.cfs_quota_us") << 100000;
  const pid_t child = fork();
  if (child == 0) {
    // In the child only: join the cgroup, then check the quota and the width.
    std::ofstream(group / "cgroup.procs") << getpid() << std::flush;
    await_refresh();  // the count cached before the move is kept for up to its refresh interval
    int failures = 0;
    if (team::cpu_quota_limit() != 1) ++failures;
    if (team::usable_cpu_count() != 1) ++failures;
    auto pool = team::Pool::builder().threads(2).build();
    team::Team team = pool->acquire(2);
    Exec exec;
    if (gemm_width(team, exec) != 1) ++failures;
    // The quota lifted mid-run: the width follows it back up within the refresh interval.
    std::ofstream(group / "cpu.cfs_quota_us") << -1 << std::flush;
    await_refresh();
    if (team::usable_cpu_count() < 2) failures += 10;
    if (gemm_width(team, exec) != 2) failures += 10;
    std::fflush(nullptr);
    _exit(failures);
  }
  ASSERT_GT(child, 0);
  int status = 0;
  waitpid(child, &status, 0);
  rmdir(group.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "under the quota (units) or after it was lifted (tens), the usable CPUs or the gemm "
         "width were wrong";
}

}  // namespace
}  // namespace teamla::linalg
