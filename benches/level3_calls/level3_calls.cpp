// SPDX-License-Identifier: Apache-2.0
// level3_calls.cpp: dsymm_/dtrmm_/dsyr2k_ (and dgemm_ for scale) and their single-precision
// twins (ssymm_/strmm_/ssyr2k_/sgemm_) through BLAS libraries, on Google Benchmark.
//
//   level3_calls --library [NAME[@THREADS]=]PATH [--library ...] [--pairs N] [--sizes N,N,...]
//                [--benchmark_* ...]
//
// Each library is dlopen'ed (RTLD_LOCAL) and its Fortran routines called as an application calls
// them; its own environment (TEAMLA_NUM_THREADS, OPENBLAS_NUM_THREADS), or @THREADS, sets the
// thread count (common/libraries.hpp). With one library each arm is its own process, alternated
// by the caller. With several (each NAME=PATH; the benchmarks are named NAME/routine/n), one
// process runs them all, for --benchmark_enable_random_interleaving: the VM's speed changes
// every few seconds, and interleaved the change falls on both libraries alike
// (docs/level3.md).
//
// --pairs N (two libraries): one benchmark per routine and n, named FIRST:SECOND/routine/n, of
// N pairs (common/pairs.hpp: a pair times a batch of each library back to back; counters "ratio",
// its quartiles "ratio_q1"/"ratio_q3", and "FIRST_flops"/"SECOND_flops"). A batch here lasts at
// least kBatchSeconds, after its library's settle and one untimed call. A pair spans under a
// second, where random interleaving's repetitions lie seconds apart: the VM's speed changes
// cancel within the pair (docs/level3.md, "Paired runs").
//
// A library's pool spins a while after its last call (OpenBLAS's workers about 2^28 TSC ticks,
// ~0.1 s; teamla's its spin budget, docs/waits.md) and would take CPU time from the other's run:
// a run that follows another library's first sleeps kSettle, untimed, so both pools are asleep.
// Square shapes n = 256, 512, 1024 (--sizes replaces the list), column-major with ld = n: symm C =
// A*B + C (side L, uplo L), trmm B = A*B (L, L, N, N) and B = B*A (R, L, N, N; B restored from a
// copy outside the timed region, so that repeated products neither overflow nor underflow), syr2k C
// = A*B^T + B*A^T + C (uplo L, trans N). The "flops" counter is the routine's useful rate: 2n^3
// (symm, syr2k, gemm) or n^3 (trmm).
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/args.hpp"
#include "common/libraries.hpp"
#include "common/matrices.hpp"
#include "common/pairs.hpp"

namespace {

using teamla::bench::Library;

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

// Case: one routine at one n on operands of its own. call() is what is timed; reset() (empty
// for most), untimed, restores what call() overwrote where repeated calls would drift.
struct Case {
  std::function<void()> call;
  std::function<void()> reset;
  double flops = 0;  // useful flops of one call
};
// A CaseMaker allocates the operands when its benchmark starts, not when it is registered.
using CaseMaker = std::function<Case()>;

template <class T>
CaseMaker symm_case(void* symbol, int n) {
  auto symm = reinterpret_cast<Symm<T>>(symbol);
  return [=] {
    auto x = std::make_shared<Operands<T>>(n);
    return Case{[=] {
                  const T one = 1;
                  symm("L", "L", &n, &n, &one, x->a.data(), &n, x->b.data(), &n, &one, x->c.data(),
                       &n);
                },
                {},
                2.0 * n * n * n};
  };
}

// trmm_case(): side "L" (the row "?trmm_"), or "R" (the row "?trmm_R": B = B*A, the form of
// LAPACK's block reflectors, dlarfb).
template <class T, char kSide>
CaseMaker trmm_case(void* symbol, int n) {
  auto trmm = reinterpret_cast<Trmm<T>>(symbol);
  return [=] {
    auto x = std::make_shared<Operands<T>>(n);
    auto b0 = std::make_shared<const std::vector<T>>(x->b);
    return Case{[=] {
                  const T one = 1;
                  const char side[2] = {kSide, 0};
                  trmm(side, "L", "N", "N", &n, &n, &one, x->a.data(), &n, x->b.data(), &n);
                },
                [=] { x->b = *b0; }, 1.0 * n * n * n};
  };
}

template <class T>
CaseMaker syr2k_case(void* symbol, int n) {
  auto syr2k = reinterpret_cast<Syr2k<T>>(symbol);
  return [=] {
    auto x = std::make_shared<Operands<T>>(n);
    return Case{[=] {
                  const T one = 1;
                  syr2k("L", "N", &n, &n, &one, x->a.data(), &n, x->b.data(), &n, &one, x->c.data(),
                        &n);
                },
                {},
                2.0 * n * n * n};
  };
}

template <class T>
CaseMaker gemm_case(void* symbol, int n) {
  auto gemm = reinterpret_cast<Gemm<T>>(symbol);
  return [=] {
    auto x = std::make_shared<Operands<T>>(n);
    return Case{[=] {
                  const T one = 1;
                  gemm("N", "N", &n, &n, &n, &one, x->a.data(), &n, x->b.data(), &n, &one,
                       x->c.data(), &n);
                },
                {},
                2.0 * n * n * n};
  };
}

struct Routine {
  const char* row;     // the benchmark's name
  const char* symbol;  // the ABI symbol it calls
  CaseMaker (*make)(void* symbol, int n);
};
constexpr std::array<Routine, 10> kRoutines{{
    {"dsymm_", "dsymm_", symm_case<double>},
    {"dtrmm_", "dtrmm_", trmm_case<double, 'L'>},
    {"dtrmm_R", "dtrmm_", trmm_case<double, 'R'>},
    {"dsyr2k_", "dsyr2k_", syr2k_case<double>},
    {"dgemm_", "dgemm_", gemm_case<double>},
    {"ssymm_", "ssymm_", symm_case<float>},
    {"strmm_", "strmm_", trmm_case<float, 'L'>},
    {"strmm_R", "strmm_", trmm_case<float, 'R'>},
    {"ssyr2k_", "ssyr2k_", syr2k_case<float>},
    {"sgemm_", "sgemm_", gemm_case<float>},
}};
std::vector<int> g_sizes{256, 512, 1024};  // --sizes

// kSettle: over OpenBLAS's spin before its workers sleep (2^28 ticks at >= 1.5 GHz: 0.18 s).
constexpr auto kSettle = std::chrono::milliseconds(300);
const void* g_last_library = nullptr;

// settle(): before a run's untimed setup, when the previous run was another library's.
void settle(const Library& library) {
  if (g_last_library != nullptr && g_last_library != library.handle) {
    std::this_thread::sleep_for(kSettle);
  }
  g_last_library = library.handle;
  library.apply_threads();
}

void time_case(benchmark::State& state, const Library& library, const CaseMaker& make) {
  settle(library);
  Case c = make();
  for (auto _ : state) {
    c.call();
    benchmark::ClobberMemory();
    if (c.reset) {
      state.PauseTiming();
      c.reset();
      state.ResumeTiming();
    }
  }
  state.counters["flops"] =
      benchmark::Counter(c.flops, benchmark::Counter::kIsIterationInvariantRate);
}

// kBatchSeconds: one library's share of a pair, at least 2 calls; a pair (with both settles)
// then spans under a second at every n here (dgemm_ 1024 at 1 thread: ~45 ms a call).
constexpr double kBatchSeconds = 0.1;

// seconds_per_call(): one library's batch of a pair, after one untimed call (the first call
// after a settle wakes the library's sleeping pool; the batch times the calls that follow).
double seconds_per_call(const Library& library, Case& c) {
  using Clock = std::chrono::steady_clock;
  settle(library);
  c.call();
  if (c.reset) c.reset();
  double elapsed = 0;
  int calls = 0;
  while (elapsed < kBatchSeconds || calls < 2) {
    const auto start = Clock::now();
    c.call();
    benchmark::ClobberMemory();
    elapsed += std::chrono::duration<double>(Clock::now() - start).count();
    ++calls;
    if (c.reset) c.reset();
  }
  return elapsed / calls;
}

void time_pair(benchmark::State& state, const std::array<Library, 2>& libraries,
               const std::array<CaseMaker, 2>& make) {
  std::array<Case, 2> cases{make[0](), make[1]()};
  std::array<teamla::bench::PairSide, 2> batches;
  for (int i : {0, 1}) {
    batches[i] = [&library = libraries[i], &c = cases[i]] { return seconds_per_call(library, c); };
  }
  teamla::bench::time_pairs(state, {libraries[0].name, libraries[1].name}, cases[0].flops, batches);
}

void register_single(const Library& library, const std::string& label) {
  for (const Routine& routine : kRoutines) {
    void* symbol = dlsym(library.handle, routine.symbol);
    if (symbol == nullptr) {
      std::fprintf(stderr, "level3_calls: the library has no %s\n", routine.symbol);
      continue;
    }
    for (int n : g_sizes) {
      const std::string name = label + routine.row + "/" + std::to_string(n);
      benchmark::RegisterBenchmark(
          name.c_str(), [library, make = routine.make(symbol, n)](
                            benchmark::State& state) { time_case(state, library, make); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

void register_pairs(const std::array<Library, 2>& libraries, int pairs) {
  for (const Routine& routine : kRoutines) {
    std::array<void*, 2> symbols{};
    for (int i : {0, 1}) symbols[i] = dlsym(libraries[i].handle, routine.symbol);
    if (symbols[0] == nullptr || symbols[1] == nullptr) {
      std::fprintf(stderr, "level3_calls: a library has no %s\n", routine.symbol);
      continue;
    }
    for (int n : g_sizes) {
      const std::string name =
          libraries[0].name + ":" + libraries[1].name + "/" + routine.row + "/" + std::to_string(n);
      const std::array<CaseMaker, 2> make{routine.make(symbols[0], n), routine.make(symbols[1], n)};
      benchmark::RegisterBenchmark(
          name.c_str(),
          [libraries, make](benchmark::State& state) { time_pair(state, libraries, make); })
          ->Unit(benchmark::kMillisecond)
          ->Iterations(pairs)
          ->UseManualTime();
    }
  }
}

// parse_sizes(): "N,N,..." into g_sizes, each at least 1; false on anything else.
bool parse_sizes(const char* text) {
  std::vector<int> sizes;
  for (const char* p = text; *p != '\0';) {
    char* end = nullptr;
    const long n = std::strtol(p, &end, 10);
    if (end == p || n < 1 || n > 1 << 16 || (*end != ',' && *end != '\0')) return false;
    sizes.push_back(static_cast<int>(n));
    p = *end == ',' ? end + 1 : end;
  }
  if (sizes.empty()) return false;
  g_sizes = sizes;
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: level3_calls --library [NAME[@THREADS]=]PATH [--library ...] "
               "[--pairs N] [--sizes N,N,...] [--benchmark_* options]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<Library> libraries;
  int pairs = 0;
  for (teamla::bench::ArgCursor arg(argc, argv); arg.next();) {
    if (arg.is("--library") && arg.has_value()) {
      auto library = teamla::bench::open_library("level3_calls", arg.value());
      if (!library) return 1;
      libraries.push_back(*library);
    } else if (arg.is("--pairs") && arg.has_value()) {
      pairs = std::atoi(arg.value());
      if (pairs < 1) return usage();
    } else if (arg.is("--sizes") && arg.has_value()) {
      if (!parse_sizes(arg.value())) return usage();
    } else {
      return usage();
    }
  }
  if (libraries.empty() || (pairs > 0 && libraries.size() != 2)) return usage();
  for (const Library& library : libraries) {
    if (libraries.size() > 1 && library.name.empty()) {
      std::fprintf(stderr, "level3_calls: with several libraries, each needs NAME=PATH\n");
      return 2;
    }
  }
  if (pairs > 0) {
    register_pairs({libraries[0], libraries[1]}, pairs);
  } else {
    for (const Library& library : libraries) {
      register_single(library, libraries.size() > 1 ? library.name + "/" : "");
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
