// SPDX-License-Identifier: Apache-2.0
// gemm_dispatch_cost.cpp: what linalg/src/width.cpp's cost table holds, on Google Benchmark:
// the time of one empty section (dispatch + join) on a held team, per width and per state of
// the members before it (dispatch_cost.hpp): hot, after a 1 ms gap, parked.
//
//   gemm_dispatch_cost [--benchmark_filter=section/parked/] [--benchmark_format=json] ...
//
// The time per iteration is one section's (manual time: the gap before it is not timed);
// omp_dispatch_cost is libgomp's empty `omp parallel` beside it.
#include "dispatch_cost.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  teamla::bench::register_dispatch_costs(
      "section", [](benchmark::State& state, teamla::bench::Before before) {
        const auto width = static_cast<std::size_t>(state.range(0));
        auto pool = teamla::team::Pool::builder().threads(width).build();
        teamla::team::Team team = pool->acquire(width);
        teamla::bench::time_regions(state, before,
                                    [&] { team.run(width, [](teamla::team::Section&) {}); });
      });
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
