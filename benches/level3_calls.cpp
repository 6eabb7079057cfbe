// SPDX-License-Identifier: Apache-2.0
// level3_calls.cpp: dsymm_/dtrmm_/dsyr2k_ (and dgemm_ for scale) and their single-precision
// twins (ssymm_/strmm_/ssyr2k_/sgemm_) through one BLAS library, on Google Benchmark.
//
//   level3_calls --library PATH [--benchmark_filter=...] [--benchmark_repetitions=N] ...
//
// The library is dlopen'ed (RTLD_LOCAL) and its Fortran routines called as an application calls
// them; its own environment (TEAMLA_NUM_THREADS, OPENBLAS_NUM_THREADS) sets the thread count,
// so each arm is its own process, and arms are alternated by the caller (docs/level3.md). Square
// shapes n = 256, 512, 1024, column-major with ld = n: symm C = A*B + C (side L, uplo L), trmm
// B = A*B (L, L, N, N) and B = B*A (R, L, N, N; B restored from a copy outside the timed region, so
// that repeated products neither overflow nor underflow), syr2k C = A*B^T + B*A^T + C (uplo L,
// trans N). The "flops" counter is the routine's useful rate: 2n^3 (symm, syr2k, gemm) or n^3
// (trmm).
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/matrices.hpp"

namespace {

template <class T>
using Symm = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                      const int*, const T*, const int*, const T*, T*, const int*);
template <class T>
using Trmm = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                      const T*, const T*, const int*, T*, const int*);
template <class T>
using Syr2k = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                       const int*, const T*, const int*, const T*, T*, const int*);
template <class T>
using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                      const T*, const int*, const T*, const int*, const T*, T*, const int*);

template <class T>
struct Operands {
  std::vector<T> a, b, c;
  explicit Operands(int n)
      : a(teamla::bench::random_matrix<T>(n, n, 1)),
        b(teamla::bench::random_matrix<T>(n, n, 2)),
        c(teamla::bench::random_matrix<T>(n, n, 3)) {}
};

void set_rate(benchmark::State& state, double flops) {
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

template <class T>
void time_symm(benchmark::State& state, Symm<T> symm, int n) {
  Operands<T> x(n);
  const T one = 1;
  for (auto _ : state) {
    symm("L", "L", &n, &n, &one, x.a.data(), &n, x.b.data(), &n, &one, x.c.data(), &n);
    benchmark::ClobberMemory();
  }
  set_rate(state, 2.0 * n * n * n);
}

// time_trmm(): side "L" (the row "?trmm_"), or "R" (the row "?trmm_R": B = B*A, the form of
// LAPACK's block reflectors, dlarfb).
template <class T, char kSide>
void time_trmm(benchmark::State& state, Trmm<T> trmm, int n) {
  Operands<T> x(n);
  const std::vector<T> b0 = x.b;
  const T one = 1;
  const char side[2] = {kSide, 0};
  for (auto _ : state) {
    trmm(side, "L", "N", "N", &n, &n, &one, x.a.data(), &n, x.b.data(), &n);
    benchmark::ClobberMemory();
    state.PauseTiming();
    x.b = b0;
    state.ResumeTiming();
  }
  set_rate(state, 1.0 * n * n * n);
}

template <class T>
void time_syr2k(benchmark::State& state, Syr2k<T> syr2k, int n) {
  Operands<T> x(n);
  const T one = 1;
  for (auto _ : state) {
    syr2k("L", "N", &n, &n, &one, x.a.data(), &n, x.b.data(), &n, &one, x.c.data(), &n);
    benchmark::ClobberMemory();
  }
  set_rate(state, 2.0 * n * n * n);
}

template <class T>
void time_gemm(benchmark::State& state, Gemm<T> gemm, int n) {
  Operands<T> x(n);
  const T one = 1;
  for (auto _ : state) {
    gemm("N", "N", &n, &n, &n, &one, x.a.data(), &n, x.b.data(), &n, &one, x.c.data(), &n);
    benchmark::ClobberMemory();
  }
  set_rate(state, 2.0 * n * n * n);
}

template <class Fn, class Timer>
void register_routine(void* library, const char* symbol, Timer timer, const char* row = nullptr) {
  auto fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (fn == nullptr) {
    std::fprintf(stderr, "level3_calls: the library has no %s\n", symbol);
    return;
  }
  for (int n : {256, 512, 1024}) {
    const std::string name = std::string(row != nullptr ? row : symbol) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state) { timer(state, fn, n); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 3 || std::string(argv[1]) != "--library") {
    std::fprintf(stderr, "usage: level3_calls --library PATH [--benchmark_* options]\n");
    return 2;
  }
  void* library = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "level3_calls: %s\n", dlerror());
    return 1;
  }
  register_routine<Symm<double>>(library, "dsymm_", time_symm<double>);
  register_routine<Trmm<double>>(library, "dtrmm_", time_trmm<double, 'L'>);
  register_routine<Trmm<double>>(library, "dtrmm_", time_trmm<double, 'R'>, "dtrmm_R");
  register_routine<Syr2k<double>>(library, "dsyr2k_", time_syr2k<double>);
  register_routine<Gemm<double>>(library, "dgemm_", time_gemm<double>);
  register_routine<Symm<float>>(library, "ssymm_", time_symm<float>);
  register_routine<Trmm<float>>(library, "strmm_", time_trmm<float, 'L'>);
  register_routine<Trmm<float>>(library, "strmm_", time_trmm<float, 'R'>, "strmm_R");
  register_routine<Syr2k<float>>(library, "ssyr2k_", time_syr2k<float>);
  register_routine<Gemm<float>>(library, "sgemm_", time_gemm<float>);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
