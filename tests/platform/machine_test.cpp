// SPDX-License-Identifier: Apache-2.0
// machine_test.cpp: the CPU, cache, count and clock facts of machine.hpp.
//
// Contract: the platform facts teamla decides with are true of this machine.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "teamla/team/machine.hpp"

using namespace teamla::team;

namespace {
// The kernel's own view of the CPU flags, to cross-check cpuid.
bool proc_cpuinfo_has(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0)
      return line.find(" " + flag + " ") != std::string::npos || line.ends_with(" " + flag);
  }
  return false;
}
}  // namespace

TEST(Machine, AffinityCountMatchesSchedGetaffinity) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(affinity_cpu_count(), static_cast<unsigned>(CPU_COUNT(&set)));
  EXPECT_GE(affinity_cpu_count(), 1U);
  EXPECT_LE(affinity_cpu_count(), online_cpu_count());
}

TEST(Machine, AffinityCountMatchesEnvironment) {
  // Under `taskset -c 0` ctest sets TEAMLA_EXPECT_AFFINITY_CPUS=1.
  const char* expected = std::getenv("TEAMLA_EXPECT_AFFINITY_CPUS");
  if (expected == nullptr) GTEST_SKIP() << "run by ctest under taskset";
  EXPECT_EQ(affinity_cpu_count(), static_cast<unsigned>(std::atoi(expected)));
}

TEST(Machine, AffinityCountFollowsAMaskChange) {
  cpu_set_t old_set;
  ASSERT_EQ(sched_getaffinity(0, sizeof(old_set), &old_set), 0);
  int first = -1;
  for (int i = 0; i < CPU_SETSIZE; ++i) {
    if (CPU_ISSET(i, &old_set)) {
      first = i;
      break;
    }
  }
  ASSERT_GE(first, 0);
  unsigned seen = 0;
  std::thread pinned([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
    seen = affinity_cpu_count();
  });
  pinned.join();
  EXPECT_EQ(seen, 1U);
}

TEST(Machine, FeaturesAgreeWithTheKernel) {
  const CpuFeatures& f = cpu_info().features;
  EXPECT_EQ(f.avx2, proc_cpuinfo_has("avx2"));
  EXPECT_EQ(f.fma, proc_cpuinfo_has("fma"));
  EXPECT_EQ(f.avx512f, proc_cpuinfo_has("avx512f"));
  EXPECT_EQ(f.avx512dq, proc_cpuinfo_has("avx512dq"));
  EXPECT_EQ(f.avx512bw, proc_cpuinfo_has("avx512bw"));
  EXPECT_EQ(f.avx512vl, proc_cpuinfo_has("avx512vl"));
  // AVX-512 implies AVX2 on every CPU that has shipped it.
  if (f.has_avx512()) {
    EXPECT_TRUE(f.has_avx2_fma());
  }
}

TEST(Machine, CachesAgreeWithSysconf) {
  const CacheSizes& c = cpu_info().caches;
  EXPECT_GE(c.l1d, 16U * 1024);
  EXPECT_LE(c.l1d, 256U * 1024);
  EXPECT_GE(c.l2, c.l1d);
  EXPECT_EQ(c.line, 64U);
  const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  if (l1 > 0) {
    EXPECT_EQ(c.l1d, static_cast<std::size_t>(l1));
  }
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) {
    EXPECT_EQ(c.l2, static_cast<std::size_t>(l2));
  }
}

TEST(Machine, IdentityIsReported) {
  EXPECT_FALSE(cpu_info().vendor.empty());
  EXPECT_GT(cpu_info().family, 0U);
}

TEST(Machine, MonotonicClockAdvancesWithSleep) {
  const std::uint64_t t0 = monotonic_ns();
  usleep(2000);
  const std::uint64_t t1 = monotonic_ns();
  EXPECT_GE(t1 - t0, 2'000'000U);
  EXPECT_LT(t1 - t0, 2'000'000'000U);
}

TEST(Machine, TscAdvancesMonotonically) {
  const std::uint64_t a = read_tsc();
  usleep(1000);
  const std::uint64_t b = read_tsc();
#if defined(__x86_64__)
  EXPECT_GT(b, a);
#else
  EXPECT_EQ(a, 0U);
  EXPECT_EQ(b, 0U);
#endif
}
