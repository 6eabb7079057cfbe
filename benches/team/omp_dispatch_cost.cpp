// SPDX-License-Identifier: Apache-2.0
// omp_dispatch_cost.cpp: libgomp's empty `omp parallel`, per width and per state of its
// workers before it (dispatch_cost.hpp), on Google Benchmark: the baseline of
// gemm_dispatch_cost's sections. Run it with no OMP_* / GOMP_* set (libgomp's defaults).
//
//   omp_dispatch_cost [--benchmark_filter=omp_parallel/hot/] [--benchmark_format=json] ...
#include <omp.h>

#include "dispatch_cost.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  teamla::bench::register_dispatch_costs("omp_parallel",
                                         [](benchmark::State& state, teamla::bench::Before before) {
                                           const auto width = static_cast<int>(state.range(0));
                                           teamla::bench::time_regions(state, before, [width] {
#pragma omp parallel num_threads(width)
                                             benchmark::ClobberMemory();
                                           });
                                         });
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
