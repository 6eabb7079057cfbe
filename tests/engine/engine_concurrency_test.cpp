// SPDX-License-Identifier: Apache-2.0
// engine_concurrency_test.cpp: many application threads on one engine.
//
// Contract covered: the concurrency rule. While one call leads the engine's team, a
// concurrent call does not wait for it: it runs serially on its own thread (contended) and
// returns; and many application threads sharing one engine, with busy foreign threads on the
// same CPUs, all get correct results, with every call either leading the team or counted as
// contended. Runs under tsan in CI (label concurrency), so sizes are small.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "cpu_engine_impl.hpp"
#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/team/cpu_budget.hpp"

namespace teamla::engine {
namespace {

using testing::TestMatrix;

class EngineConcurrency : public ::testing::TestWithParam<Mode> {};

TEST_P(EngineConcurrency, ACallWhileTheTeamIsBusyRunsSeriallyWithoutWaiting) {
  CpuEngine engine(EngineConfig{.threads = 2, .mode = GetParam()});
  std::atomic<bool> leading{false}, release{false};
  std::thread leader([&] {
    engine.impl().dispatch("hold", [&](linalg::Exec&) {
      leading.store(true);
      while (!release.load()) std::this_thread::yield();
    });
  });
  while (!leading.load()) std::this_thread::yield();

  // The leader holds the team until released; this call (above the tiny bound, so it reaches
  // dispatch) must complete meanwhile.
  TestMatrix<double> a(40, 50), b(50, 20), c(40, 20), expected(40, 20);
  testing::fill_random(a, 1);
  testing::fill_random(b, 2);
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  const CallStats stats = engine.last_call();
  EXPECT_TRUE(stats.contended);
  EXPECT_FALSE(stats.on_team);
  EXPECT_EQ(stats.exec.max_width_used, 1u);
  testing::reference_gemm<double>(Op::none, Op::none, 1.0, a.cview(), b.cview(), 0.0,
                                  expected.view());
  EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<double>(50));

  release.store(true);
  leader.join();
  EXPECT_EQ(engine.counters().contended_calls, 1u);
  // With the team free again, the next call leads it.
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  EXPECT_FALSE(engine.last_call().contended);
}

// The process CPU budget: while other callers hold every other usable CPU, a call that the
// model runs wide runs inline, and the engine counts it; once they leave, it runs wide again.
TEST(EngineBudget, ACallRunsInlineWhileOtherCallersHoldTheOtherCpus) {
  const std::size_t cpus = team::budget_use().capacity;
  if (cpus < 2) GTEST_SKIP() << "needs two usable CPUs";
  CpuEngine engine(EngineConfig{.threads = 2, .mode = Mode::held});
  TestMatrix<double> a(300, 300), b(300, 300), c(300, 300), expected(300, 300);
  testing::fill_random(a, 3);
  testing::fill_random(b, 4);
  testing::reference_gemm<double>(Op::none, Op::none, 1.0, a.cview(), b.cview(), 0.0,
                                  expected.view());
  std::atomic<std::size_t> entered{0};
  std::atomic<bool> release{false};
  std::vector<std::thread> others;
  for (std::size_t i = 0; i + 1 < cpus; ++i) {
    others.emplace_back([&] {
      const team::CallerSlot slot;  // another caller's call in flight
      entered.fetch_add(1);
      while (!release.load()) std::this_thread::yield();
    });
  }
  while (entered.load() + 1 < cpus) std::this_thread::yield();
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  EXPECT_EQ(engine.last_call().exec.max_width_used, 1u) << "no CPU was free for a member";
  EXPECT_GE(engine.last_call().exec.budget_limited_regions, 1u);
  EXPECT_EQ(engine.counters().budget_limited_calls, 1u);
  EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<double>(300));
  release.store(true);
  for (std::thread& other : others) other.join();
  std::this_thread::sleep_for(std::chrono::milliseconds(3));  // the callers' CPUs linger 1 ms
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  EXPECT_EQ(engine.last_call().exec.max_width_used, 2u) << "the freed CPU went to a member";
  EXPECT_EQ(engine.counters().budget_limited_calls, 1u);
  EXPECT_LE(testing::max_abs_diff(c.cview(), expected.cview()), testing::tolerance<double>(300));
}

TEST_P(EngineConcurrency, ManyCallersShareOneEngineUnderLoad) {
  CpuEngine engine(EngineConfig{.threads = 2, .mode = GetParam()});
  constexpr int kCallers = 4;
  constexpr int kCallsPerCaller = 4;
  std::atomic<bool> stop_load{false};
  std::atomic<std::uint64_t> burned{0};
  // Foreign load: two threads that keep the CPUs busy, as other work in the process would.
  std::vector<std::thread> load;
  for (int i = 0; i < 2; ++i)
    load.emplace_back([&] {
      std::uint64_t spins = 0;
      while (!stop_load.load(std::memory_order_relaxed)) ++spins;
      burned.fetch_add(spins);
    });

  // Each caller checks its inputs' reference once, then calls the engine kRepeats times in a
  // row, so that the callers' engine calls overlap and the contended path is taken.
  constexpr int kRepeats = 6;
  std::atomic<int> failures{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      const index_t n = 64 + 16 * t;
      ready.fetch_add(1);
      while (ready.load() < kCallers) std::this_thread::yield();
      for (int call = 0; call < kCallsPerCaller; ++call) {
        if (call % 2 == 0) {
          TestMatrix<double> a(n, n), b(n, n), c(n, n), expected(n, n);
          testing::fill_random(a, unsigned(t * 100 + call));
          testing::fill_random(b, unsigned(t * 100 + call + 1));
          testing::reference_gemm<double>(Op::none, Op::transpose, 1.0, a.cview(), b.cview(), 0.0,
                                          expected.view());
          for (int repeat = 0; repeat < kRepeats; ++repeat) {
            engine.gemm(Op::none, Op::transpose, 1.0, a.view(), b.view(), 0.0, c.view());
            if (testing::max_abs_diff(c.cview(), expected.cview()) > testing::tolerance<double>(n))
              failures.fetch_add(1);
          }
        } else {
          const TestMatrix<double> a =
              testing::make_spd<double>(n, Layout::col_major, unsigned(t + call));
          TestMatrix<double> b(n, 2);
          testing::fill_random(b, unsigned(t));
          for (int repeat = 0; repeat < kRepeats; ++repeat) {
            TestMatrix<double> factor = a, x = b;
            engine.solve_spd(factor.view(), x.view());
            TestMatrix<double> residual = b;
            testing::reference_gemm<double>(Op::none, Op::none, 1.0, a.cview(), x.cview(), -1.0,
                                            residual.view());
            for (index_t i = 0; i < n; ++i)
              for (index_t j = 0; j < 2; ++j)
                if (std::abs(residual(i, j)) > 1e-9) failures.fetch_add(1);
          }
        }
      }
    });
  for (std::thread& caller : callers) caller.join();
  stop_load.store(true);
  for (std::thread& burner : load) burner.join();

  EXPECT_EQ(failures.load(), 0);
  const EngineCounters counters = engine.counters();
  // gemm: one call; solve_spd: two (potrf, potrs).
  const std::uint64_t expected_calls = kCallers * (kCallsPerCaller / 2) * 3 * kRepeats;
  EXPECT_EQ(counters.calls, expected_calls);
  if (GetParam() == Mode::serial) {
    EXPECT_EQ(counters.team_calls, 0u);
  } else {
    EXPECT_EQ(counters.team_calls + counters.contended_calls, expected_calls)
        << "every call either leads the team or runs serially as contended";
  }
  EXPECT_GT(burned.load(), 0u);
  RecordProperty("contended_calls", std::to_string(counters.contended_calls));
}

INSTANTIATE_TEST_SUITE_P(Modes, EngineConcurrency,
                         ::testing::Values(Mode::held, Mode::per_call, Mode::serial),
                         [](const auto& mode_case) {
                           return std::string(to_string(mode_case.param));
                         });

}  // namespace
}  // namespace teamla::engine
