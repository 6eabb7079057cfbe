// SPDX-License-Identifier: Apache-2.0
// dense_bench.hpp: the dense-routine benchmarks (gemm, trsm, syrk, potrf, potrs, getrf, gesv) on
// Google
// Benchmark, registered for one arm per executable.
//
//   dense_bench_<arm> [--benchmark_filter='^dgemm/threads:2/'] [--benchmark_format=json] ...
//
// Each arm (teamla, OpenBLAS, BLIS, Eigen) is its own process, so that one library's idle
// threads (OpenBLAS and libgomp spin after a call) never steal CPU from another's run, and so
// that OpenBLAS and BLIS, which both export cblas_*, never meet in one link. An arm is a class
// with template members gemm<T>, trsm<T>, syrk<T>, potrf<T>, potrs<T>, getrf<T>, gesv<T> (a
// routine it lacks is
// not registered), set_threads(int), and optionally describe() (recorded in the JSON context)
// and add_counters(State&). Benchmarks are named <d|s><routine>/threads:T/<size>:N...;
// scripts/bench-gemm and scripts/bench-potrf run one per process and read the JSON.
#pragma once

#include <array>
#include <string>

#include "dense_bench_routines.hpp"

namespace teamla::bench {

// The gemm shapes: squares, then a tall and skinny product, a long inner dimension and a
// rank-32 update.
inline std::vector<std::array<std::int64_t, 3>> gemm_shapes() {
  std::vector<std::array<std::int64_t, 3>> shapes;
  for (std::int64_t n : {16, 24, 32, 48, 64, 96, 101, 128, 192, 256, 384, 512, 1024, 2048, 4096}) {
    shapes.push_back({n, n, n});
  }
  shapes.push_back({4096, 64, 64});
  shapes.push_back({64, 64, 4096});
  shapes.push_back({2048, 2048, 32});
  return shapes;
}

template <class T, class Arm>
void register_blas3(Arm& arm, const std::string& prefix) {
  const auto threads = dense_thread_counts();
  if constexpr (requires(const T* x, T* y) { arm.template gemm<T>(1L, 1L, 1L, x, x, y); }) {
    auto* b = benchmark::RegisterBenchmark((prefix + "gemm").c_str(),
                                           [&arm](benchmark::State& s) { bench_gemm<T>(s, arm); });
    b->ArgNames({"threads", "m", "n", "k"})->UseRealTime()->Unit(benchmark::kMicrosecond);
    for (const std::int64_t t : threads) {
      for (const auto& [m, n, k] : gemm_shapes()) b->Args({t, m, n, k});
    }
  }
  if constexpr (requires(const T* x, T* y) { arm.template trsm<T>(1L, 1L, x, y); }) {
    benchmark::RegisterBenchmark((prefix + "trsm").c_str(),
                                 [&arm](benchmark::State& s) { bench_trsm<T>(s, arm); })
        ->ArgNames({"threads", "n", "nrhs"})
        ->ArgsProduct({threads, kSolveSizes, {64, 512}})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  if constexpr (requires(const T* x, T* y) { arm.template syrk<T>(1L, 1L, x, y); }) {
    benchmark::RegisterBenchmark((prefix + "syrk").c_str(),
                                 [&arm](benchmark::State& s) { bench_syrk<T>(s, arm); })
        ->ArgNames({"threads", "n", "k"})
        ->ArgsProduct({threads, kSolveSizes, {64, 512}})
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

template <class T, class Arm>
void register_cholesky(Arm& arm, const std::string& prefix) {
  const auto threads = dense_thread_counts();
  if constexpr (requires(T * y) { arm.template potrf<T>(1L, y); }) {
    benchmark::RegisterBenchmark((prefix + "potrf").c_str(),
                                 [&arm](benchmark::State& s) { bench_potrf<T>(s, arm); })
        ->ArgNames({"threads", "n"})
        ->ArgsProduct({threads, kFactorSizes})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  if constexpr (requires(const T* x, T* y) {
                  arm.template potrf<T>(1L, y);
                  arm.template potrs<T>(1L, 1L, x, y);
                }) {
    benchmark::RegisterBenchmark((prefix + "potrs").c_str(),
                                 [&arm](benchmark::State& s) { bench_potrs<T>(s, arm); })
        ->ArgNames({"threads", "n", "nrhs"})
        ->ArgsProduct({threads, kSolveSizes, {1, 64}})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

// register_complex(): zgemm and cgemm, zpotrf and cpotrf, for the arms that declare kComplex
// (their gemm<T> and potrf<T> take std::complex).
template <class Arm>
void register_complex(Arm& arm) {
  if constexpr (requires { Arm::kComplex; }) {
    const auto threads = dense_thread_counts();
    const auto add = [&](const char* name, auto bench) {
      auto* b = benchmark::RegisterBenchmark(name, bench);
      b->ArgNames({"threads", "m", "n", "k"})->UseRealTime()->Unit(benchmark::kMicrosecond);
      for (const std::int64_t t : threads) {
        for (const auto& [m, n, k] : gemm_shapes()) b->Args({t, m, n, k});
      }
    };
    add("zgemm", [&arm](benchmark::State& s) { bench_gemm<std::complex<double>>(s, arm); });
    add("cgemm", [&arm](benchmark::State& s) { bench_gemm<std::complex<float>>(s, arm); });
    register_cholesky<std::complex<double>>(arm, "z");
    register_cholesky<std::complex<float>>(arm, "c");
  }
}

template <class T, class Arm>
void register_lu(Arm& arm, const std::string& prefix) {
  const auto threads = dense_thread_counts();
  if constexpr (requires(T * y, int* p) { arm.template getrf<T>(1L, y, p); }) {
    benchmark::RegisterBenchmark((prefix + "getrf").c_str(),
                                 [&arm](benchmark::State& s) { bench_getrf<T>(s, arm); })
        ->ArgNames({"threads", "n"})
        ->ArgsProduct({threads, kFactorSizes})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  if constexpr (requires(T * y, int* p) { arm.template gesv<T>(1L, 1L, y, p, y); }) {
    benchmark::RegisterBenchmark((prefix + "gesv").c_str(),
                                 [&arm](benchmark::State& s) { bench_gesv<T>(s, arm); })
        ->ArgNames({"threads", "n", "nrhs"})
        ->ArgsProduct({threads, {500, 1000, 2000}, {1}})
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

// run_dense_bench(): registers the arm's routines in double and float and runs the ones the
// --benchmark_* options select. Call it after benchmark::Initialize(); argv must hold no
// other option.
template <class Arm>
int run_dense_bench(Arm& arm, int argc, char** argv) {
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if constexpr (requires { arm.describe(); }) {
    benchmark::AddCustomContext("describe", arm.describe());
  }
  register_blas3<double>(arm, "d");
  register_blas3<float>(arm, "s");
  register_complex(arm);
  register_cholesky<double>(arm, "d");
  register_cholesky<float>(arm, "s");
  register_lu<double>(arm, "d");
  register_lu<float>(arm, "s");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace teamla::bench
