// SPDX-License-Identifier: Apache-2.0
// concurrent_calls.cpp: several application threads calling dgemm_ at once, on Google
// Benchmark: the total rate of all callers.
//
//   concurrent_calls --library [NAME[@THREADS]=]PATH [--callers K] [--benchmark_* ...]
//
// The setting of OpenBLAS#3187 and #1755 (servers, Python threads, OpenMP applications): K
// OpenMP threads each make `kCallsPerCaller` dgemm_ calls of n x n x n (n = 256, 512, 1024) on
// operands of their own, as an application's parallel loop would. The library is dlopen'ed
// (common/libraries.hpp); its environment or @THREADS sets its thread count, so one process is
// one arm (scripts/bench-concurrent alternates the arms' processes). The time per iteration is
// the time of every caller's calls; the "flops" counter is the total rate.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/libraries.hpp"

namespace {

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*);

constexpr int kCallsPerCaller = 4;

teamla::bench::Library g_library;
Dgemm g_dgemm = nullptr;
int g_callers = 2;

void concurrent_dgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto elems = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  // One set of operands per caller, written by its own thread (first touch).
  std::vector<std::vector<double>> a(g_callers), b(g_callers), c(g_callers);
#pragma omp parallel num_threads(g_callers)
  {
    const int caller = omp_get_thread_num();
    a[caller].assign(elems, 1.0 / (1 + caller));
    b[caller].assign(elems, 0.5);
    c[caller].assign(elems, 0.0);
  }
  g_library.apply_threads();
  const double one = 1.0, zero = 0.0;
  for (auto _ : state) {
#pragma omp parallel num_threads(g_callers)
    {
      const int caller = omp_get_thread_num();
      for (int call = 0; call < kCallsPerCaller; ++call) {
        g_dgemm("N", "N", &n, &n, &n, &one, a[caller].data(), &n, b[caller].data(), &n, &zero,
                c[caller].data(), &n);
      }
    }
  }
  const double flops = 2.0 * n * n * static_cast<double>(n) * kCallsPerCaller * g_callers;
  state.counters["flops"] = benchmark::Counter(flops * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate);
  state.counters["callers"] = g_callers;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest = {argv[0]};
  std::string library;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--library") == 0 && i + 1 < argc) {
      library = argv[++i];
    } else if (std::strcmp(argv[i], "--callers") == 0 && i + 1 < argc) {
      g_callers = std::atoi(argv[++i]);
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (library.empty() || g_callers < 1) {
    std::fprintf(stderr, "usage: %s --library [NAME[@THREADS]=]PATH [--callers K>=1] ...\n",
                 argv[0]);
    return 2;
  }
  auto opened = teamla::bench::open_library(argv[0], library);
  if (!opened) return 2;
  g_library = *opened;
  g_dgemm = reinterpret_cast<Dgemm>(dlsym(g_library.handle, "dgemm_"));
  if (g_dgemm == nullptr) {
    std::fprintf(stderr, "%s: %s has no dgemm_\n", argv[0], library.c_str());
    return 2;
  }
  benchmark::RegisterBenchmark("dgemm_concurrent", concurrent_dgemm)
      ->Arg(256)
      ->Arg(512)
      ->Arg(1024)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
