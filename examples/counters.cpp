// SPDX-License-Identifier: Apache-2.0
// counters.cpp: what an engine reports about itself: mode, width, ISA, the last call, and the
// pool's wait counters (sections dispatched, sleeps, parks, preemptions seen, throttling).
#include <cstdio>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"

int main() {
  using namespace teamla;
  engine::CpuEngine cpu(engine::EngineConfig::from_env({.threads = 2}));
  const linalg::index_t n = 384;
  std::vector<double> a(n * n, 1.0), b(n * n, 0.5), c(n * n, 0.0);
  for (int call = 0; call < 10; ++call) {
    cpu.gemm(linalg::Op::none, linalg::Op::none, 1.0, linalg::col_major(a.data(), n, n),
             linalg::col_major(b.data(), n, n), 0.0, linalg::col_major(c.data(), n, n));
  }
  const engine::CallStats last = cpu.last_call();
  const engine::EngineCounters counters = cpu.counters();
  std::printf("engine: mode %s, width %zu, isa %s\n", engine::to_string(cpu.mode()).data(),
              cpu.width(), cpu.isa().data());
  std::printf("last call: %s, %s, widest section %zu, %zu sections, %.1f us\n", last.routine.data(),
              last.on_team ? "on the team" : "serial", last.exec.max_width_used, last.exec.sections,
              double(last.wall_ns) / 1e3);
  std::printf("calls %llu (team %llu, contended %llu), pools built %llu\n",
              static_cast<unsigned long long>(counters.calls),
              static_cast<unsigned long long>(counters.team_calls),
              static_cast<unsigned long long>(counters.contended_calls),
              static_cast<unsigned long long>(counters.pools_built));
  const team::WaitCounters& w = counters.waits;
  std::printf(
      "waits: sections %llu, join sleeps %llu, barrier sleeps %llu, member parks %llu, "
      "preemptions %llu, throttle activations %llu\n",
      static_cast<unsigned long long>(w.sections), static_cast<unsigned long long>(w.join_sleeps),
      static_cast<unsigned long long>(w.barrier_sleeps),
      static_cast<unsigned long long>(w.member_parks),
      static_cast<unsigned long long>(w.preemptions),
      static_cast<unsigned long long>(w.throttle_activations));
  const bool ok = c[0] == 0.5 * double(n) && counters.calls == 10;
  return ok ? 0 : 1;
}
