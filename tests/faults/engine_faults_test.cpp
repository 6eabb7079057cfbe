// SPDX-License-Identifier: Apache-2.0
// engine_faults_test.cpp: CpuEngine computes every routine correctly, and says so once, when
// the system refuses it threads or memory (fault_injection.hpp), in every mode.
#include <gtest/gtest.h>

#include <new>
#include <optional>
#include <string>
#include <thread>
#include <tuple>

#include "faults/fault_injection.hpp"
#include "faults/workload.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::faults {
namespace {

using engine::CpuEngine;
using engine::EngineConfig;
using engine::Mode;

constexpr unsigned kSeed = 11;

EngineConfig config_for(Mode mode, std::size_t threads) {
  EngineConfig config;
  config.mode = mode;
  config.threads = threads;
  return config;
}

// reference(): the workload on a serial engine built and run with nothing refused, on a
// thread of its own, so that the buffers it grows (thread-local ones included) are not the
// ones the faulted runs on this thread must grow.
Outputs reference(Workload& work) {
  Outputs want;
  std::thread([&] {
    CpuEngine serial(config_for(Mode::serial, 1));
    want = work.run(serial);
  }).join();
  return want;
}

class EngineFaults : public ::testing::TestWithParam<std::tuple<Mode, std::size_t>> {
 protected:
  Mode mode() const { return std::get<0>(GetParam()); }
  std::size_t threads() const { return std::get<1>(GetParam()); }
  bool wants_team() const { return mode() != Mode::serial && threads() > 1; }
};

TEST_P(EngineFaults, EveryThreadRefusedLeavesEveryResultRight) {
  for (const index_t n : {64, 300}) {
    Workload work(n, kSeed);
    const Outputs want = reference(work);
    Armed refused([] { refuse_threads(); });
    CpuEngine engine(config_for(mode(), threads()));
    EXPECT_EQ(disagreement(work.run(engine), want, n), "") << "n = " << n;
    const engine::EngineCounters counters = engine.counters();
    EXPECT_EQ(counters.team_calls, 0u) << "no worker started, so no call ran on a team";
    if (wants_team()) {
      EXPECT_GE(counters.threads_unavailable, threads() - 1);
      EXPECT_GT(threads_refused(), 0u);
      EXPECT_GT(team::shortfalls(team::Shortfall::threads), 0u);
    } else {
      EXPECT_EQ(counters.threads_unavailable, 0u);
    }
  }
}

TEST_P(EngineFaults, LargeAllocationsRefusedLeaveEveryResultRight) {
  // 1 MiB and up fails, as under a memory limit that still grants small objects: at n = 600
  // every packed buffer is larger (256 x 600 doubles).
  for (const index_t n : {64, 600}) {
    Workload work(n, kSeed);
    const Outputs want = reference(work);
    Armed refused([] { refuse_allocations_from(std::size_t{1} << 20); });
    CpuEngine engine(config_for(mode(), threads()));
    EXPECT_EQ(disagreement(work.run(engine), want, n), "") << "n = " << n;
    if (n == 600) {
      EXPECT_GT(allocations_refused(), 0u);
      EXPECT_GT(engine.counters().memory_fallbacks, 0u);
      EXPECT_GT(team::shortfalls(team::Shortfall::memory), 0u);
    }
  }
}

TEST_P(EngineFaults, EachAllocationRefusedInTurnLeavesEveryResultRight) {
  // The k-th allocation from the engine's construction on fails, for every k the workload
  // makes: whichever buffer or object that is, the results are right. The constructor may
  // throw std::bad_alloc for its own state (as documented); a call never throws.
  constexpr index_t n = 160;
  Workload work(n, kSeed);
  const Outputs want = reference(work);
  std::uint64_t made = 0;
  std::uint64_t refused_constructions = 0;
  std::uint64_t k = 1;
  for (; k <= 4000; ++k) {
    const Outputs* got = nullptr;
    {
      Armed refused([k] { refuse_nth_allocation(k); });
      std::optional<CpuEngine> engine;
      try {
        engine.emplace(config_for(mode(), threads()));
      } catch (const std::bad_alloc&) {
        ++refused_constructions;
      }
      if (engine) got = &work.run(*engine);
      made = allocations_seen();
    }
    if (got != nullptr) {
      ASSERT_EQ(disagreement(*got, want, n), "") << "allocation " << k << " refused";
    }
    if (made < k) break;  // the workload made fewer than k allocations: every one was tried
  }
  EXPECT_LT(made, k) << "the sweep did not reach the end of the workload";
  EXPECT_LT(refused_constructions, k - 1) << "most refusals must reach the calls";
}

TEST_P(EngineFaults, EachThreadRefusedInTurnLeavesEveryResultRight) {
  constexpr index_t n = 200;
  Workload work(n, kSeed);
  const Outputs want = reference(work);
  for (std::uint64_t k = 1; k <= threads(); ++k) {
    Armed refused([k] { refuse_nth_thread(k); });
    CpuEngine engine(config_for(mode(), threads()));
    EXPECT_EQ(disagreement(work.run(engine), want, n), "") << "thread start " << k << " refused";
  }
}

TEST(EngineFaultReport, AShortfallIsPrintedOnceAndCountedEveryTime) {
  Workload work(600, kSeed);
  const Outputs want = reference(work);
  ::testing::internal::CaptureStderr();
  {
    Armed refused([] { refuse_allocations_from(std::size_t{1} << 20); });
    CpuEngine engine(config_for(Mode::held, 2));
    for (int call = 0; call < 3; ++call) {
      EXPECT_EQ(disagreement(work.run(engine), want, 600), "");
    }
  }
  const std::string printed = ::testing::internal::GetCapturedStderr();
  const std::string line = "teamla: could not allocate";
  const std::size_t first = printed.find(line);
  EXPECT_NE(first, std::string::npos) << printed;
  EXPECT_EQ(printed.find(line, first + 1), std::string::npos) << "printed more than once";
  EXPECT_GT(team::shortfalls(team::Shortfall::memory), 3u);
}

std::string name_of(const ::testing::TestParamInfo<std::tuple<Mode, std::size_t>>& info) {
  return std::string(engine::to_string(std::get<0>(info.param))) + "_" +
         std::to_string(std::get<1>(info.param)) + "t";
}

INSTANTIATE_TEST_SUITE_P(
    Modes, EngineFaults,
    ::testing::Combine(::testing::Values(Mode::held, Mode::per_call, Mode::serial),
                       ::testing::Values(std::size_t{1}, std::size_t{2}, std::size_t{4})),
    name_of);

}  // namespace
}  // namespace teamla::faults
