// SPDX-License-Identifier: Apache-2.0
// gemm_dispatch_cost.cpp: what linalg/src/width.cpp's cost table holds, on Google Benchmark:
// the time of one empty section (dispatch + join) on a held team, per width and per state of
// the members before it:
//   hot        back-to-back sections (members still spinning);
//   after_gap  the leader works alone ~1 ms between sections (members have been waiting);
//   parked     the leader sleeps 50 ms between sections (members asleep on their futex).
//
//   gemm_dispatch_cost [--benchmark_filter=section/parked/] [--benchmark_format=json] ...
//
// Widths 2 up to the CPUs. The gap before a section is outside the timed region (manual time:
// the section alone is timed); the time per iteration is one section's.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {

using teamla::team::monotonic_ns;

enum class Before { hot, after_gap, parked };

void wait_before(Before before) {
  if (before == Before::after_gap) {
    const std::uint64_t end = monotonic_ns() + 1'000'000;
    while (monotonic_ns() < end) {
    }
  } else if (before == Before::parked) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void section(benchmark::State& state, Before before) {
  const auto width = static_cast<std::size_t>(state.range(0));
  auto pool = teamla::team::Pool::builder().threads(width).build();
  teamla::team::Team team = pool->acquire(width);
  team.run(width, [](teamla::team::Section&) {});  // wakes the members, sizes the team's state
  for (auto _ : state) {
    wait_before(before);
    const std::uint64_t start = monotonic_ns();
    team.run(width, [](teamla::team::Section&) {});
    state.SetIterationTime(static_cast<double>(monotonic_ns() - start) * 1e-9);
  }
}

void widths(benchmark::internal::Benchmark* b) {
  const auto cpus = static_cast<std::int64_t>(std::max(2U, std::thread::hardware_concurrency()));
  for (std::int64_t w = 2; w < cpus; w *= 2) b->Arg(w);
  b->Arg(cpus);
}

BENCHMARK_CAPTURE(section, hot, Before::hot)->ArgName("width")->Apply(widths)->UseManualTime();
BENCHMARK_CAPTURE(section, after_gap, Before::after_gap)
    ->ArgName("width")
    ->Apply(widths)
    ->UseManualTime();
BENCHMARK_CAPTURE(section, parked, Before::parked)
    ->ArgName("width")
    ->Apply(widths)
    ->UseManualTime()
    ->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
