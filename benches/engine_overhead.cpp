// SPDX-License-Identifier: Apache-2.0
// engine_overhead.cpp: what CpuEngine adds to a call, against linalg::gemm called directly.
//
// Serial mode, gemm 8x8x8 (a call small enough that the fixed cost shows), 21 rounds of
// 20000 calls of each arm, the arms alternated within every round; prints the median and
// the minimum ns per call of each. docs/engine.md quotes it.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/machine.hpp"

int main() {
  using namespace teamla;
  constexpr linalg::index_t kN = 8;
  constexpr int kRounds = 21;
  constexpr int kCalls = 20000;
  std::vector<double> a(kN * kN, 1.0), b(kN * kN, 1.0), c(kN * kN, 0.0);
  const linalg::MatrixView<const double> av = linalg::col_major<const double>(a.data(), kN, kN);
  const linalg::MatrixView<const double> bv = linalg::col_major<const double>(b.data(), kN, kN);
  const linalg::MatrixView<double> cv = linalg::col_major(c.data(), kN, kN);
  engine::CpuEngine engine(engine::EngineConfig{.threads = 1, .mode = engine::Mode::serial});
  linalg::Exec exec;
  std::vector<double> via_engine, direct;
  for (int round = 0; round < kRounds; ++round) {
    const std::uint64_t t0 = team::monotonic_ns();
    for (int i = 0; i < kCalls; ++i) {
      engine.gemm(linalg::Op::none, linalg::Op::none, 1.0, av, bv, 0.0, cv);
    }
    const std::uint64_t t1 = team::monotonic_ns();
    for (int i = 0; i < kCalls; ++i) {
      linalg::gemm(linalg::Op::none, linalg::Op::none, 1.0, av, bv, 0.0, cv, exec);
    }
    const std::uint64_t t2 = team::monotonic_ns();
    via_engine.push_back(static_cast<double>(t1 - t0) / kCalls);
    direct.push_back(static_cast<double>(t2 - t1) / kCalls);
  }
  std::sort(via_engine.begin(), via_engine.end());
  std::sort(direct.begin(), direct.end());
  std::printf(
      "gemm 8x8x8, ns per call: engine median %.1f (min %.1f), linalg direct median %.1f "
      "(min %.1f), engine adds %.1f\n",
      via_engine[kRounds / 2], via_engine[0], direct[kRounds / 2], direct[0],
      via_engine[kRounds / 2] - direct[kRounds / 2]);
  return 0;
}
