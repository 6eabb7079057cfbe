// SPDX-License-Identifier: Apache-2.0
// thread_test.cpp: the calling thread's CPU, yield and name (team/src/platform/thread.hpp).
//
// Contract: built twice, once with the Linux implementation and once with the portable
// fallback forced (TEAMLA_PORTABLE_THREAD), so the fallback that other systems get runs here.
#include "platform/thread.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>

#if TEAMLA_THREAD_LINUX
#include <pthread.h>
#endif

namespace platform = teamla::team::platform;

TEST(Thread, CurrentCpuIsAnOnlineCpuOrUnknown) {
  const int cpu = platform::current_cpu();
#if TEAMLA_THREAD_LINUX
  EXPECT_GE(cpu, 0);
  // CPU numbers may have gaps (offline CPUs), so the bound is loose.
  EXPECT_LT(cpu, 64 * static_cast<int>(std::thread::hardware_concurrency()));
#else
  EXPECT_EQ(cpu, -1);
#endif
}

TEST(Thread, YieldReturns) {
  for (int i = 0; i < 100; ++i) platform::yield_now();
}

TEST(Thread, NameIsCutToFifteenCharacters) {
  std::string seen;
  std::thread named([&seen] {
    platform::set_thread_name("teamla-a-rather-long-name-7");
#if TEAMLA_THREAD_LINUX
    char name[32] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    seen = name;
#endif
  });
  named.join();
#if TEAMLA_THREAD_LINUX
  EXPECT_EQ(seen, "teamla-a-rather");
#else
  EXPECT_EQ(seen, "");
#endif
}
