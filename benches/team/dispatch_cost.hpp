// SPDX-License-Identifier: Apache-2.0
// dispatch_cost.hpp: what the dispatch-cost benchmarks share: the state the workers are left in
// before a timed empty parallel region, and the widths timed.
//
// One executable per runtime (gemm_dispatch_cost: a teamla team; omp_dispatch_cost: libgomp's
// `omp parallel`), so that one runtime's spinning workers never share a process with another's.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>

namespace teamla::bench {

// Before a timed region: hot (back-to-back regions, workers still spinning), after_gap (the
// caller works alone ~1 ms: workers have been waiting), parked (the caller sleeps 50 ms, past
// any spin budget: workers asleep).
enum class Before { hot, after_gap, parked };

inline void wait_before(Before before) {
  using clock = std::chrono::steady_clock;
  if (before == Before::after_gap) {
    const auto end = clock::now() + std::chrono::milliseconds(1);
    while (clock::now() < end) {
    }
  } else if (before == Before::parked) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// dispatch_widths(): 2, 4, ... and the CPUs, as the benchmark's "width" argument.
inline void dispatch_widths(benchmark::internal::Benchmark* b) {
  const auto cpus = static_cast<std::int64_t>(std::max(2U, std::thread::hardware_concurrency()));
  b->ArgName("width");
  for (std::int64_t w = 2; w < cpus; w *= 2) b->Arg(w);
  b->Arg(cpus);
}

// time_regions(): per iteration, the workers' state set up untimed, then one region timed
// (manual time); run_region() runs one empty region.
template <class Region>
void time_regions(benchmark::State& state, Before before, Region&& run_region) {
  run_region();  // wakes the workers, and a runtime's one-time set-up
  for (auto _ : state) {
    wait_before(before);
    const auto start = std::chrono::steady_clock::now();
    run_region();
    const auto stop = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
  }
}

// register_dispatch_costs(): `name`/hot, /after_gap and /parked at every width; body(state,
// before) times one of them.
template <class Body>
void register_dispatch_costs(const char* name, Body body) {
  for (const auto& [label, before] :
       {std::pair{"hot", Before::hot}, std::pair{"after_gap", Before::after_gap},
        std::pair{"parked", Before::parked}}) {
    const Before state_before = before;
    auto* b = benchmark::RegisterBenchmark(
        (std::string(name) + "/" + label).c_str(),
        [body, state_before](benchmark::State& state) { body(state, state_before); });
    b->Apply(dispatch_widths)->UseManualTime();
    if (before == Before::parked) b->Iterations(20);  // 50 ms each
  }
}

}  // namespace teamla::bench
