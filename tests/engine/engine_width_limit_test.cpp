// SPDX-License-Identifier: Apache-2.0
// Contract covered: engine::ThreadWidthLimit. While one is alive, the calls its thread makes
// reach their kernel with Exec::max_width set to the limit (and a limit of 1 without the
// team); limits nest and restore; another thread's calls are unaffected; and a real call
// under a limit opens no section wider than it.
#include <gtest/gtest.h>

#include <cstddef>
#include <thread>

#include "cpu_engine_impl.hpp"
#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"

namespace teamla::engine {
namespace {

using testing::TestMatrix;

// Seen: what one call's kernel was given.
struct Seen {
  std::size_t max_width = 99;
  bool on_team = false;
};

Seen probe(CpuEngine& engine) {
  Seen seen;
  engine.impl().dispatch("probe", [&](linalg::Exec& exec) {
    seen.max_width = exec.max_width;
    seen.on_team = exec.team != nullptr;
  });
  return seen;
}

CpuEngine held_engine(std::size_t threads) {
  EngineConfig config;
  config.threads = threads;
  return CpuEngine(config);
}

TEST(ThreadWidthLimit, CapsTheCallsOfItsThreadAndNests) {
  CpuEngine engine = held_engine(2);
  EXPECT_EQ(ThreadWidthLimit::current(), 0u);
  EXPECT_EQ(probe(engine).max_width, 0u);  // no limit: the team's width
  {
    const ThreadWidthLimit two(2);
    EXPECT_EQ(probe(engine).max_width, 2u);
    {
      const ThreadWidthLimit one(1);
      const Seen seen = probe(engine);
      EXPECT_EQ(seen.max_width, 1u);
      EXPECT_FALSE(seen.on_team);  // 1 runs on the caller, without the team
    }
    EXPECT_EQ(ThreadWidthLimit::current(), 2u);
  }
  EXPECT_EQ(ThreadWidthLimit::current(), 0u);
}

TEST(ThreadWidthLimit, LeavesOtherThreadsAlone) {
  CpuEngine engine = held_engine(2);
  const ThreadWidthLimit one(1);
  Seen other;
  std::thread([&] { other = probe(engine); }).join();
  EXPECT_EQ(other.max_width, 0u);
  EXPECT_EQ(probe(engine).max_width, 1u);
}

TEST(ThreadWidthLimit, ARealCallOpensNoWiderSection) {
  CpuEngine engine = held_engine(2);
  TestMatrix<double> a(192, 192), b(192, 192), c(192, 192);
  testing::fill_random(a, 1);
  testing::fill_random(b, 2);
  const ThreadWidthLimit one(1);
  engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
  const CallStats stats = engine.last_call();
  EXPECT_FALSE(stats.on_team);
  EXPECT_LE(stats.exec.max_width_used, 1u);
  EXPECT_EQ(stats.exec.sections, 0u);
}

}  // namespace
}  // namespace teamla::engine
