// SPDX-License-Identifier: Apache-2.0
// dense_bench_routines.hpp: the timed bodies of the dense-routine benchmarks, one per routine.
//
// Column-major, hot cache (operands reused across calls): gemm NN, C = A B; trsm left, lower,
// no transpose, non-unit, B = inv(A) B; syrk lower, no transpose, C = A A^T; potrf lower;
// potrs lower with that factor; getrf of a random square matrix, gesv with it and nrhs
// right-hand sides. The "flops" counter is the rate of the routine's flop count.
// The routines that overwrite their input (trsm, potrf, potrs) get it restored before every
// call, outside the timed region (manual time: a copy would otherwise be timed beside an
// O(n^2) solve); gemm and syrk are timed by wall time.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "common/matrices.hpp"

namespace teamla::bench {

// dense_thread_counts(): 1, 2, 4, ... and the CPUs of the machine.
inline std::vector<std::int64_t> dense_thread_counts() {
  const auto cpus = static_cast<std::int64_t>(std::max(1U, std::thread::hardware_concurrency()));
  std::vector<std::int64_t> counts;
  for (std::int64_t t = 1; t < cpus; t *= 2) counts.push_back(t);
  counts.push_back(cpus);
  return counts;
}

inline const std::vector<std::int64_t> kFactorSizes{64, 128, 256, 512, 1024, 2048, 4096};
inline const std::vector<std::int64_t> kSolveSizes{64, 128, 256, 512, 1024, 2048};

// lower_triangle(): an SPD matrix's lower Cholesky-like triangle (diagonal n, off-diagonal in
// [-1, 1)), the upper triangle zero: a well-conditioned triangular A for trsm.
template <class T>
std::vector<T> lower_triangle(long n) {
  std::vector<T> a = spd_matrix<T>(n, 7);
  for (long j = 1; j < n; ++j) {
    for (long i = 0; i < j; ++i) a[static_cast<std::size_t>(i + j * n)] = T(0);
  }
  return a;
}

// time_restored(): after one warm-up call, per iteration, restores `work` from `original`
// untimed, then times call().
template <class T, class Call>
void time_restored(benchmark::State& state, const std::vector<T>& original, std::vector<T>& work,
                   Call&& call) {
  work = original;
  call();  // warm-up: sizes workspaces, wakes the team, and its one-time measurements
  for (auto _ : state) {
    work = original;
    const auto start = std::chrono::steady_clock::now();
    call();
    const auto stop = std::chrono::steady_clock::now();
    benchmark::ClobberMemory();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
  }
}

template <class Arm>
void finish(benchmark::State& state, Arm& arm, double flops) {
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  if constexpr (requires { arm.add_counters(state); }) arm.add_counters(state);
}

template <class T, class Arm>
void bench_gemm(benchmark::State& state, Arm& arm) {
  const long m = state.range(1), n = state.range(2), k = state.range(3);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> a = random_matrix<T>(m, k, 1), b = random_matrix<T>(k, n, 2);
  std::vector<T> c(static_cast<std::size_t>(m * n), T(0));
  arm.template gemm<T>(m, n, k, a.data(), b.data(), c.data());  // warm-up, as time_restored's
  for (auto _ : state) {
    arm.template gemm<T>(m, n, k, a.data(), b.data(), c.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  const double flops_per_multiply_add = kComplex<T> ? 8.0 : 2.0;
  finish(state, arm,
         flops_per_multiply_add * static_cast<double>(m) * static_cast<double>(n) *
             static_cast<double>(k));
}

template <class T, class Arm>
void bench_syrk(benchmark::State& state, Arm& arm) {
  const long n = state.range(1), k = state.range(2);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> a = random_matrix<T>(n, k, 1);
  std::vector<T> c(static_cast<std::size_t>(n * n), T(0));
  arm.template syrk<T>(n, k, a.data(), c.data());  // warm-up, as time_restored's
  for (auto _ : state) {
    arm.template syrk<T>(n, k, a.data(), c.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  finish(state, arm, static_cast<double>(n) * static_cast<double>(n + 1) * static_cast<double>(k));
}

template <class T, class Arm>
void bench_trsm(benchmark::State& state, Arm& arm) {
  const long n = state.range(1), nrhs = state.range(2);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> a = lower_triangle<T>(n), original = random_matrix<T>(n, nrhs, 2);
  std::vector<T> b;
  time_restored(state, original, b, [&] { arm.template trsm<T>(n, nrhs, a.data(), b.data()); });
  finish(state, arm, static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(nrhs));
}

template <class T, class Arm>
void bench_potrf(benchmark::State& state, Arm& arm) {
  const long n = state.range(1);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> original = spd_matrix<T>(n, static_cast<std::uint64_t>(n));
  std::vector<T> a;
  int info = 0;
  time_restored(state, original, a, [&] { info = arm.template potrf<T>(n, a.data()); });
  if (info != 0) state.SkipWithError("potrf: the matrix is not positive definite");
  const double nd = static_cast<double>(n);
  finish(state, arm, (kComplex<T> ? 4.0 : 1.0) * nd * nd * nd / 3.0);
}

template <class T, class Arm>
void bench_potrs(benchmark::State& state, Arm& arm) {
  const long n = state.range(1), nrhs = state.range(2);
  arm.set_threads(static_cast<int>(state.range(0)));
  std::vector<T> factor = spd_matrix<T>(n, static_cast<std::uint64_t>(n));
  if (arm.template potrf<T>(n, factor.data()) != 0) {
    state.SkipWithError("potrf: the matrix is not positive definite");
    return;
  }
  const std::vector<T> original = random_matrix<T>(n, nrhs, 2);
  std::vector<T> b;
  int info = 0;
  time_restored(state, original, b,
                [&] { info = arm.template potrs<T>(n, nrhs, factor.data(), b.data()); });
  if (info != 0) state.SkipWithError("potrs failed");
  finish(state, arm,
         2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(nrhs));
}

template <class T, class Arm>
void bench_getrf(benchmark::State& state, Arm& arm) {
  const long n = state.range(1);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> original = random_matrix<T>(n, n, static_cast<std::uint64_t>(n));
  std::vector<T> a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  int info = 0;
  time_restored(state, original, a,
                [&] { info = arm.template getrf<T>(n, a.data(), ipiv.data()); });
  if (info != 0) state.SkipWithError("getrf: the matrix is singular");
  const double nd = static_cast<double>(n);
  finish(state, arm, 2.0 * nd * nd * nd / 3.0);
}

// bench_gesv(): A and B both restored before each call (gesv overwrites both).
template <class T, class Arm>
void bench_gesv(benchmark::State& state, Arm& arm) {
  const long n = state.range(1), nrhs = state.range(2);
  arm.set_threads(static_cast<int>(state.range(0)));
  const std::vector<T> a0 = random_matrix<T>(n, n, static_cast<std::uint64_t>(n));
  const std::vector<T> b0 = random_matrix<T>(n, nrhs, 2);
  std::vector<T> a;
  std::vector<T> b;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  int info = 0;
  time_restored(state, a0, a, [&] {
    b = b0;
    info = arm.template gesv<T>(n, nrhs, a.data(), ipiv.data(), b.data());
  });
  if (info != 0) state.SkipWithError("gesv: the matrix is singular");
  const double nd = static_cast<double>(n);
  finish(state, arm, 2.0 * nd * nd * nd / 3.0 + 2.0 * nd * nd * static_cast<double>(nrhs));
}

}  // namespace teamla::bench
