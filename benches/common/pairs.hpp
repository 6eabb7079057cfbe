// SPDX-License-Identifier: Apache-2.0
// pairs.hpp: a Google Benchmark run whose iterations are pairs of two libraries' batches
// (level3_calls and small_gemm, --pairs N).
//
// A pair times a batch of calls of each library back to back, which goes first alternating
// between pairs; the pair's ratio is the first library's rate over the second's. The VM this
// is measured on changes speed every few seconds (docs/perf/small.md, "Two speeds"); a pair
// spans under a second, so both batches of a pair see one speed and the ratio keeps what the
// libraries differ by. Counters: "ratio" (median over the pairs), "ratio_q1"/"ratio_q3" (its
// quartiles) and "NAME_flops" (each library's median rate).
#pragma once

#include <benchmark/benchmark.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "common/stats.hpp"

namespace teamla::bench {

// A library's side of a pair: one batch, returning seconds per call.
using PairSide = std::function<double()>;

inline void time_pairs(benchmark::State& state, const std::array<std::string, 2>& names,
                       double flops_per_call, const std::array<PairSide, 2>& batches) {
  std::vector<double> ratios;
  std::array<std::vector<double>, 2> rates;
  int first = 0;
  for (auto _ : state) {
    std::array<double, 2> seconds{};
    seconds[first] = batches[first]();
    seconds[1 - first] = batches[1 - first]();
    state.SetIterationTime(seconds[0] + seconds[1]);
    ratios.push_back(seconds[1] / seconds[0]);
    for (int i : {0, 1}) rates[i].push_back(flops_per_call / seconds[i]);
    first = 1 - first;
  }
  state.counters["ratio"] = median(ratios);
  state.counters["ratio_q1"] = floor_rank(ratios, 0.25);
  state.counters["ratio_q3"] = floor_rank(ratios, 0.75);
  for (int i : {0, 1}) state.counters[names[i] + "_flops"] = median(rates[i]);
}

}  // namespace teamla::bench
