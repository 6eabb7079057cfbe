// SPDX-License-Identifier: Apache-2.0
// batch_bench.hpp: batched GEMM on Google Benchmark, registered for one arm per executable.
//
//   batch_bench_<arm> [--benchmark_filter='^dgemm_batch/threads:2/'] [--benchmark_format=json]
//
// A case is `count` independent square products n x n x n (column-major NN, alpha 1, beta 0,
// every item its own A, B and C, in one buffer per operand). The arms are executables of
// their own (batch_bench_teamla: CpuEngine::gemm_batch; batch_bench_openblas: an OpenMP loop
// over 1-thread cblas_?gemm calls), so that libgomp's and OpenBLAS's idle threads never share
// a process with teamla's. An arm is a class with set_threads(int) and a template member
// run<T>(Batch<T>&), and describe() (recorded in the JSON context); an arm with a template
// member run_strided<T>(Batch<T>&) (teamla: CpuEngine::gemm_batch_strided, no item descriptors)
// also registers <d|s>gemm_batch_strided. Benchmarks are named <d|s>gemm_batch/threads:T/
// count:C/n:N; the time per iteration is one batch's, the "flops" counter its rate. Before
// timing, the first item's C is checked against a plain triple loop.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "common/matrices.hpp"

namespace teamla::bench {

template <class T>
struct Batch {
  Batch(int items, int order)
      : count(items),
        n(order),
        a(random_matrix<T>(static_cast<long>(items) * order, order, 1)),
        b(random_matrix<T>(static_cast<long>(items) * order, order, 2)),
        c(a.size(), T(0)) {}
  [[nodiscard]] std::size_t at(int item) const { return static_cast<std::size_t>(item) * n * n; }
  int count;
  int n;
  std::vector<T> a, b, c;
};

// first_item_error(): the largest difference between item 0's C and a triple loop's product.
template <class T>
double first_item_error(const Batch<T>& batch) {
  double worst = 0;
  for (int j = 0; j < batch.n; ++j) {
    for (int i = 0; i < batch.n; ++i) {
      double sum = 0;
      for (int l = 0; l < batch.n; ++l) {
        sum += static_cast<double>(batch.a[static_cast<std::size_t>(i + l * batch.n)]) *
               static_cast<double>(batch.b[static_cast<std::size_t>(l + j * batch.n)]);
      }
      const double got = static_cast<double>(batch.c[static_cast<std::size_t>(i + j * batch.n)]);
      worst = std::max(worst, std::abs(got - sum));
    }
  }
  return worst;
}

// Form: how an arm is given the batch: as itself (run), or, for an arm that has it, as one
// strided call (run_strided: one shape at fixed strides, no item descriptors to read).
enum class Form { items, strided };

template <class Arm>
concept HasStridedForm = requires(Arm& arm, Batch<double>& batch) {
  arm.template run_strided<double>(batch);
};

template <class T, Form kForm, class Arm>
void run_form(Arm& arm, Batch<T>& batch) {
  if constexpr (kForm == Form::strided) {
    arm.template run_strided<T>(batch);
  } else {
    arm.template run<T>(batch);
  }
}

template <class T, Form kForm, class Arm>
void bench_batch(benchmark::State& state, Arm& arm) {
  arm.set_threads(static_cast<int>(state.range(0)));
  Batch<T> batch(static_cast<int>(state.range(1)), static_cast<int>(state.range(2)));
  run_form<T, kForm>(arm, batch);  // warm-up, and the product the check reads
  if (first_item_error(batch) > (sizeof(T) == 8 ? 1e-10 : 1e-3) * batch.n) {
    state.SkipWithError("gemm_batch: item 0's C is wrong");
    return;
  }
  for (auto _ : state) {
    run_form<T, kForm>(arm, batch);
    benchmark::ClobberMemory();
  }
  const double nd = batch.n;
  state.counters["flops"] = benchmark::Counter(2.0 * batch.count * nd * nd * nd,
                                               benchmark::Counter::kIsIterationInvariantRate);
}

// run_batch_bench(): registers the cases in double and float at 1, 2, 4, ... threads up to
// the CPUs and runs the selected ones. Call it after benchmark::Initialize().
template <class Arm>
int run_batch_bench(Arm& arm, int argc, char** argv) {
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::AddCustomContext("describe", arm.describe());
  const auto cpus = static_cast<std::int64_t>(std::max(1U, std::thread::hardware_concurrency()));
  std::vector<std::int64_t> threads;
  for (std::int64_t t = 1; t < cpus; t *= 2) threads.push_back(t);
  threads.push_back(cpus);
  const auto add = [&](const std::string& name, auto body) {
    auto* b = benchmark::RegisterBenchmark(name.c_str(), body);
    b->ArgNames({"threads", "count", "n"})->UseRealTime()->Unit(benchmark::kMicrosecond);
    for (const std::int64_t t : threads) {
      for (const auto& [count, n] : {std::pair<int, int>{10000, 8}, {1000, 32}, {100, 128}}) {
        b->Args({t, count, n});
      }
    }
  };
  add("dgemm_batch", [&arm](benchmark::State& s) { bench_batch<double, Form::items>(s, arm); });
  add("sgemm_batch", [&arm](benchmark::State& s) { bench_batch<float, Form::items>(s, arm); });
  if constexpr (HasStridedForm<Arm>) {
    add("dgemm_batch_strided",
        [&arm](benchmark::State& s) { bench_batch<double, Form::strided>(s, arm); });
    add("sgemm_batch_strided",
        [&arm](benchmark::State& s) { bench_batch<float, Form::strided>(s, arm); });
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace teamla::bench
