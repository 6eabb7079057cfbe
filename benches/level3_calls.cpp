// SPDX-License-Identifier: Apache-2.0
// level3_calls.cpp: dsymm_/dtrmm_/dsyr2k_ (and dgemm_ for scale) and their single-precision
// twins (ssymm_/strmm_/ssyr2k_/sgemm_) through BLAS libraries, on Google Benchmark.
//
//   level3_calls --library [NAME=]PATH [--library NAME=PATH ...] [--benchmark_* ...]
//
// Each library is dlopen'ed (RTLD_LOCAL) and its Fortran routines called as an application calls
// them; its own environment (TEAMLA_NUM_THREADS, OPENBLAS_NUM_THREADS) sets the thread count.
// With one library each arm is its own process, alternated by the caller. With several (each
// NAME=PATH; the benchmarks are named NAME/routine/n), one process runs them all, for
// --benchmark_enable_random_interleaving: the VM's speed changes every few seconds, and
// interleaved the change falls on both libraries alike (docs/level3.md). A library's pool
// spins a while after its last call (OpenBLAS's workers about 2^28 TSC ticks, ~0.1 s; teamla's
// its spin budget, docs/waits.md) and would take CPU time from the other's run: a run that
// follows another library's first sleeps kSettle, untimed, so both pools are asleep. Square
// shapes n = 256, 512, 1024, column-major with ld = n: symm C = A*B + C (side L, uplo L), trmm
// B = A*B (L, L, N, N) and B = B*A (R, L, N, N; B restored from a copy outside the timed region, so
// that repeated products neither overflow nor underflow), syr2k C = A*B^T + B*A^T + C (uplo L,
// trans N). The "flops" counter is the routine's useful rate: 2n^3 (symm, syr2k, gemm) or n^3
// (trmm).
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
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

// kSettle: over OpenBLAS's spin before its workers sleep (2^28 ticks at >= 1.5 GHz: 0.18 s).
constexpr auto kSettle = std::chrono::milliseconds(300);
const void* g_last_library = nullptr;

// settle(): before a run's untimed setup, when the previous run was another library's.
void settle(const void* library) {
  if (g_last_library != nullptr && g_last_library != library) {
    std::this_thread::sleep_for(kSettle);
  }
  g_last_library = library;
}

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
void register_routine(void* library, const std::string& label, const char* symbol, Timer timer,
                      const char* row = nullptr) {
  auto fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (fn == nullptr) {
    std::fprintf(stderr, "level3_calls: the library has no %s\n", symbol);
    return;
  }
  for (int n : {256, 512, 1024}) {
    const std::string name = label + (row != nullptr ? row : symbol) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state) {
                                   settle(library);
                                   timer(state, fn, n);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<std::pair<std::string, std::string>> libraries;  // (name, path)
  for (int i = 1; i + 1 < argc && std::string(argv[i]) == "--library"; i += 2) {
    const std::string value = argv[i + 1];
    const std::size_t equals = value.find('=');
    libraries.emplace_back(equals == std::string::npos ? "" : value.substr(0, equals),
                           equals == std::string::npos ? value : value.substr(equals + 1));
  }
  if (libraries.empty() || argc != 1 + 2 * static_cast<int>(libraries.size())) {
    std::fprintf(stderr,
                 "usage: level3_calls --library [NAME=]PATH [--library NAME=PATH ...] "
                 "[--benchmark_* options]\n");
    return 2;
  }
  for (const auto& [name, path] : libraries) {
    if (libraries.size() > 1 && name.empty()) {
      std::fprintf(stderr, "level3_calls: with several libraries, each needs NAME=PATH\n");
      return 2;
    }
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "level3_calls: %s\n", dlerror());
      return 1;
    }
    const std::string label = libraries.size() > 1 ? name + "/" : "";
    register_routine<Symm<double>>(library, label, "dsymm_", time_symm<double>);
    register_routine<Trmm<double>>(library, label, "dtrmm_", time_trmm<double, 'L'>);
    register_routine<Trmm<double>>(library, label, "dtrmm_", time_trmm<double, 'R'>, "dtrmm_R");
    register_routine<Syr2k<double>>(library, label, "dsyr2k_", time_syr2k<double>);
    register_routine<Gemm<double>>(library, label, "dgemm_", time_gemm<double>);
    register_routine<Symm<float>>(library, label, "ssymm_", time_symm<float>);
    register_routine<Trmm<float>>(library, label, "strmm_", time_trmm<float, 'L'>);
    register_routine<Trmm<float>>(library, label, "strmm_", time_trmm<float, 'R'>, "strmm_R");
    register_routine<Syr2k<float>>(library, label, "ssyr2k_", time_syr2k<float>);
    register_routine<Gemm<float>>(library, label, "sgemm_", time_gemm<float>);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
