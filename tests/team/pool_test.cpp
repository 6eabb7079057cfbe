// SPDX-License-Identifier: Apache-2.0
// pool_test.cpp: the pool's contract: builder, thread names and hook, acquisition modes,
// wake order, counters, policies, env overrides, teardown without leaks.
#include <dirent.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "platform/futex.hpp"
#include "teamla/team/team_all.hpp"

namespace teamla::team {
namespace {

// named_threads() counts this process's threads whose name starts with `prefix`. Counting by
// name, not all threads, keeps runtime helpers (tsan's background thread starts at an
// unpredictable moment) out of the count.
std::size_t named_threads(const std::string& prefix) {
  std::size_t count = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::ifstream comm(std::string("/proc/self/task/") + entry->d_name + "/comm");
      std::string name;
      std::getline(comm, name);
      count += name.rfind(prefix, 0) == 0;
    }
    closedir(dir);
  }
  return count;
}

// A worker names itself as it starts, so wait (bounded) for the names to appear.
std::size_t named_threads_when(const std::string& prefix, std::size_t expected) {
  for (int attempt = 0; attempt < 2000 && named_threads(prefix) != expected; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return named_threads(prefix);
}

TEST(PoolBuilder, DefaultsToTheAffinitySetAndRejectsZero) {
  EXPECT_EQ(Pool::builder().thread_count(), affinity_cpu_count());
  EXPECT_THROW((void)Pool::builder().threads(0).build(), std::invalid_argument);
  auto pool = Pool::builder().build();
  EXPECT_EQ(pool->threads(), affinity_cpu_count());
  EXPECT_EQ(pool->policy(), WaitPolicy::staged);
  EXPECT_EQ(pool->tuning().spin_polls, WaitTuning::kSpinPollsFromTime);
  EXPECT_EQ(pool->tuning().spin_time, std::chrono::milliseconds(20));
  // The time in polls of this CPU: 20 ms over the measured cost of one poll.
  const double expected = 20e6 / spin_poll_ns();
  EXPECT_NEAR(static_cast<double>(pool->spin_polls()), expected, expected * 0.01 + 1);
  EXPECT_EQ(pool->tuning().throttled_polls, 100U);
  EXPECT_EQ(pool->tuning().yield_polls, 0U) << "chosen by the yield study, docs/team.md";
}

TEST(PoolBuilder, NamesWorkersAndRunsTheHookFirst) {
  std::mutex mutex;
  std::set<std::size_t> started;
  std::set<std::string> names;
  auto pool = Pool::builder()
                  .threads(4)
                  .thread_name("a-very-long-prefix")
                  .on_start([&](std::size_t index) {
                    char name[16] = {};
                    pthread_getname_np(pthread_self(), name, sizeof(name));
                    std::lock_guard lock(mutex);
                    started.insert(index);
                    names.insert(name);
                  })
                  .build();
  Team team = pool->acquire(4);
  team.run([](Section&) {});  // every worker has served a job, so its hook has run
  std::lock_guard lock(mutex);
  EXPECT_EQ(started, (std::set<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(names.count("a-very-long-pre")) << "prefix-index truncated to 15 bytes";
  EXPECT_EQ(names.size(), 1U) << "'a-very-long-prefix-N' is cut before the index";
  auto short_pool = Pool::builder().threads(2).thread_name("tl").build();
  std::string member_name;
  Team pair = short_pool->acquire(2);
  pair.run([&](Section& s) {
    if (s.rank() == 1) {
      char name[16] = {};
      pthread_getname_np(pthread_self(), name, sizeof(name));
      member_name = name;
    }
  });
  EXPECT_EQ(member_name, "tl-0");
}

TEST(Pool, DestructionJoinsEveryWorker) {
  for (std::size_t n : {1, 2, 3, 9}) {
    {
      auto pool = Pool::builder().threads(n).thread_name("joincheck").build();
      EXPECT_EQ(named_threads_when("joincheck", n - 1), n - 1) << "a pool of " << n;
      Team team = pool->acquire(n);
      team.run([](Section&) {});
    }
    // pthread_join returns when the kernel clears the thread's id, a moment before the task
    // leaves /proc/self/task: a joined worker can still be listed there briefly under load.
    EXPECT_EQ(named_threads_when("joincheck", 0), 0U)
        << "the pool of " << n << " left threads behind";
  }
}

TEST(Pool, AcquireNeverBlocksAndNarrowsWhenWorkersAreHeld) {
  auto pool = Pool::builder().threads(4).build();
  EXPECT_THROW((void)pool->acquire(0), std::invalid_argument);
  EXPECT_THROW((void)pool->acquire(5), std::invalid_argument);
  Team first = pool->acquire(3);
  EXPECT_EQ(first.width(), 3U);
  Team second = pool->acquire(4);
  EXPECT_EQ(second.width(), 2U) << "only one worker was left";
  Team third = pool->acquire(2);
  EXPECT_EQ(third.width(), 1U);
  std::atomic<int> ran{0};
  third.run([&](Section&) { ran.fetch_add(1); });  // width 1 runs inline
  second.run([&](Section&) { ran.fetch_add(1); });
  EXPECT_EQ(ran.load(), 3);
  { Team moved = std::move(first); }  // releasing through a moved-to team
  EXPECT_EQ(pool->acquire(4).width(), 3U);
}

TEST(Pool, PerCallAcquisitionAndPerCallPoolsBothWork) {
  auto pool = Pool::builder().threads(3).build();
  for (int call = 0; call < 50; ++call) {
    Team team = pool->acquire(3);
    std::atomic<int> ran{0};
    team.run([&](Section&) { ran.fetch_add(1); });
    ASSERT_EQ(ran.load(), 3);
  }
  for (int call = 0; call < 10; ++call) {
    auto fresh = Pool::builder().threads(3).build();
    Team team = fresh->acquire(3);
    std::atomic<int> ran{0};
    team.run([&](Section&) { ran.fetch_add(1); });
    ASSERT_EQ(ran.load(), 3);
  }
}

TEST(Pool, NarrowSectionsReuseTheMembersThatRanLast) {
  auto pool = Pool::builder().threads(4).build();
  std::thread::id first_member;
  {
    Team team = pool->acquire(4);
    for (int round = 0; round < 5; ++round) {
      team.run(2, [&](Section& s) {
        if (s.rank() != 1) return;
        if (round == 0) first_member = std::this_thread::get_id();
        EXPECT_EQ(std::this_thread::get_id(), first_member);
      });
    }
  }
  // Released and reacquired: the member that ran last is handed out first again.
  Team again = pool->acquire(2);
  again.run([&](Section& s) {
    if (s.rank() == 1) {
      EXPECT_EQ(std::this_thread::get_id(), first_member);
    }
  });
}

TEST(Pool, UnusedMembersStayParked) {
  WaitTuning tuning;
  tuning.spin_polls = 0;
  tuning.yield_polls = 0;
  auto pool = Pool::builder().threads(4).tuning(tuning).build();
  Team team = pool->acquire(4);
  team.run([](Section&) {});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // all three park
  const WaitCounters before = pool->counters();
  for (int round = 0; round < 20; ++round) team.run(2, [](Section&) {});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const WaitCounters delta = pool->counters() - before;
  EXPECT_EQ(delta.sections, 20U);
  // Only rank 1's worker is woken: one park per section at most, none from ranks 2 and 3.
  EXPECT_LE(delta.member_parks, 20U);
  EXPECT_GE(delta.member_parks, 1U);
}

TEST(Pool, PassiveWaitsCountTheirSleeps) {
  auto pool = Pool::builder().threads(2).policy(WaitPolicy::passive).build();
  Team team = pool->acquire(2);
  const WaitCounters before = pool->counters();
  team.run([](Section& s) {
    if (s.rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s.barrier();  // rank 0 sleeps here
    if (s.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s.barrier();  // rank 1 sleeps here
    if (s.rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  });                                                          // rank 0 sleeps in join
  std::this_thread::sleep_for(std::chrono::milliseconds(10));  // rank 1 parks
  const WaitCounters delta = pool->counters() - before;
  EXPECT_EQ(delta.sections, 1U);
  EXPECT_GE(delta.barrier_sleeps, 2U);
  EXPECT_GE(delta.join_sleeps, 1U);
  EXPECT_GE(delta.member_parks, 1U);
}

TEST(Pool, MoreThreadsThanCpusMeansTheThrottledBudget) {
  auto wide = Pool::builder().threads(affinity_cpu_count() + 1).build();
  EXPECT_TRUE(wide->throttled());
  WaitTuning tuning;
  tuning.warm_up = std::chrono::milliseconds(0);
  auto fitting = Pool::builder().threads(1).tuning(tuning).build();
  EXPECT_FALSE(fitting->throttled());
}

TEST(WaitPolicyNames, RoundTripAndRejectUnknown) {
  for (WaitPolicy p : {WaitPolicy::staged, WaitPolicy::legacy, WaitPolicy::passive}) {
    EXPECT_EQ(parse_wait_policy(to_string(p)), p);
  }
  try {
    (void)parse_wait_policy("spinny");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("spinny"), std::string::npos);
  }
  WaitCounters a{5, 4, 3, 2, 1, 9};
  const WaitCounters d = a - WaitCounters{1, 1, 1, 1, 1, 1};
  EXPECT_EQ(d.join_sleeps, 4U);
  EXPECT_EQ(d.sections, 8U);
  WaitCounters sum = d;
  sum += WaitCounters{1, 1, 1, 1, 1, 1, 7};
  EXPECT_EQ(sum.join_sleeps, 5U);
  EXPECT_EQ(sum.sections, 9U);
  EXPECT_EQ(sum.stacked_waits, 7U);
  EXPECT_EQ((sum - d).stacked_waits, 7U);
}

class EnvTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const char* name :
         {"TEAMLA_NUM_THREADS", "TEAMLA_WAIT_POLICY", "TEAMLA_SPIN_POLLS", "TEAMLA_WARM_UP_MS"}) {
      unsetenv(name);
    }
  }
  static std::string error_of(const char* name, const char* value) {
    setenv(name, value, 1);
    try {
      (void)Pool::builder().apply_env();
    } catch (const std::invalid_argument& e) {
      unsetenv(name);
      return e.what();
    }
    unsetenv(name);
    return "";
  }
};

TEST_F(EnvTest, OverridesApply) {
  setenv("TEAMLA_NUM_THREADS", "3", 1);
  setenv("TEAMLA_WAIT_POLICY", "legacy", 1);
  setenv("TEAMLA_SPIN_POLLS", "1234", 1);
  setenv("TEAMLA_WARM_UP_MS", "0", 1);
  PoolBuilder builder = Pool::builder().apply_env();
  EXPECT_EQ(builder.thread_count(), 3U);
  EXPECT_EQ(builder.wait_policy(), WaitPolicy::legacy);
  EXPECT_EQ(builder.wait_tuning().spin_polls, 1234U);
  EXPECT_EQ(builder.wait_tuning().warm_up.count(), 0);
  EXPECT_EQ(builder.build()->threads(), 3U);
}

TEST_F(EnvTest, InvalidValuesNameTheVariableAndTheValue) {
  for (auto [name, value] : {std::pair{"TEAMLA_NUM_THREADS", "0"},
                             {"TEAMLA_NUM_THREADS", "two"},
                             {"TEAMLA_NUM_THREADS", "-1"},
                             {"TEAMLA_WAIT_POLICY", "active"},
                             {"TEAMLA_SPIN_POLLS", "1e5"},
                             {"TEAMLA_SPIN_POLLS", "99999999999"},
                             {"TEAMLA_WARM_UP_MS", ""},
                             {"TEAMLA_WARM_UP_MS", "10ms"}}) {
    const std::string message = error_of(name, value);
    EXPECT_NE(message.find(name), std::string::npos) << name << "=" << value;
    EXPECT_NE(message.find(std::string("'") + value + "'"), std::string::npos) << message;
  }
}

TEST(WaitBackend, IsTheOneThisBinaryWasBuiltFor) {
#if defined(TEAMLA_PORTABLE_WAIT)
  EXPECT_STREQ(platform::wait_backend(), "portable");
#else
  EXPECT_STREQ(platform::wait_backend(), "futex");
#endif
}

}  // namespace
}  // namespace teamla::team
