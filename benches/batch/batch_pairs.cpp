// SPDX-License-Identifier: Apache-2.0
// batch_pairs.cpp: batched GEMM through two BLAS libraries in one process, timed in pairs
// (common/pairs.hpp), on Google Benchmark.
//
//   batch_pairs --library NAME[@THREADS]=[omp:]PATH --library NAME[@THREADS]=[omp:]PATH
//               [--pairs N] [--cases COUNTxN,...] [--form strided|group] [--benchmark_* ...]
//
// A case is batch_bench.hpp's: COUNT independent column-major NN products of order N, alpha 1,
// beta 0, each item its own A, B and C. A library with cblas_?gemm_batch_strided runs a case as
// one such call (--form group: one cblas_?gemm_batch call of one group, with arrays of
// pointers, where the library has it); a library with neither (OpenBLAS 0.3.21) as a loop of
// cblas_?gemm calls on the calling thread. NAME@T=omp:PATH is batch_bench's baseline: PATH at
// one thread, its cblas_?gemm called in an OpenMP loop on T threads. Two builds of teamla, or
// teamla and that loop, compare here to a few percent, where the one-process-per-arm rounds of
// scripts/bench-batch swing by a third from round to round on a noisy VM. With a library or
// loop on more than one thread, each side first lets the other's workers (a team, libgomp's,
// OpenBLAS's) fall asleep (kSettle). Rows are named FIRST:SECOND/<d|s>gemm_batch/count:C/n:N;
// before timing, each library's item 0 is checked against a triple loop.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "batch_bench.hpp"
#include "common/libraries.hpp"
#include "common/pairs.hpp"

namespace {

constexpr int kColMajor = 102;  // CBLAS_ORDER / CBLAS_TRANSPOSE values
constexpr int kNoTrans = 111;

template <class T>
using Strided = void (*)(int, int, int, int, int, int, T, const T*, int, int, const T*, int, int, T,
                         T*, int, int, int);
template <class T>
using Grouped = void (*)(int, const int*, const int*, const int*, const int*, const int*, const T*,
                         const T**, const int*, const T**, const int*, const T*, T**, const int*,
                         int, const int*);
template <class T>
using Single = void (*)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);

// g_grouped: --form group: a library with cblas_?gemm_batch is given the case as one group
// (an array of pointers per operand: the path of batches of unequal items) instead of one
// strided call.
bool g_grouped = false;

// Pointers: one group's operand arrays for a case.
template <class T>
struct Pointers {
  explicit Pointers(teamla::bench::Batch<T>& batch) {
    for (int i = 0; i < batch.count; ++i) {
      a.push_back(batch.a.data() + batch.at(i));
      b.push_back(batch.b.data() + batch.at(i));
      c.push_back(batch.c.data() + batch.at(i));
    }
  }
  std::vector<const T*> a, b;
  std::vector<T*> c;
};

// BatchCall: one library's way of running a whole case.
template <class T>
struct BatchCall {
  Strided<T> strided = nullptr;  // the default, where the library has it
  Grouped<T> grouped = nullptr;  // --form group
  Single<T> single = nullptr;    // the loop, where the library has neither
  int loop_threads = 0;          // an omp: arm: the loop of single calls on this many threads

  void operator()(teamla::bench::Batch<T>& batch, Pointers<T>& pointers) const {
    const int n = batch.n;
    const int stride = n * n;
    if (loop_threads > 0) {
#pragma omp parallel for num_threads(loop_threads) schedule(static)
      for (int i = 0; i < batch.count; ++i) {
        single(kColMajor, kNoTrans, kNoTrans, n, n, n, T(1), pointers.a[i], n, pointers.b[i], n,
               T(0), pointers.c[i], n);
      }
      return;
    }
    if (grouped != nullptr) {
      const int no_trans = kNoTrans;
      const T one = 1;
      const T zero = 0;
      grouped(kColMajor, &no_trans, &no_trans, &n, &n, &n, &one, pointers.a.data(), &n,
              pointers.b.data(), &n, &zero, pointers.c.data(), &n, 1, &batch.count);
      return;
    }
    if (strided != nullptr) {
      strided(kColMajor, kNoTrans, kNoTrans, n, n, n, T(1), batch.a.data(), n, stride,
              batch.b.data(), n, stride, T(0), batch.c.data(), n, stride, batch.count);
      return;
    }
    for (int i = 0; i < batch.count; ++i) {
      single(kColMajor, kNoTrans, kNoTrans, n, n, n, T(1), pointers.a[i], n, pointers.b[i], n, T(0),
             pointers.c[i], n);
    }
  }
};

// g_loop_threads: per library, the OpenMP threads of an omp: arm (0: the library's own call).
std::array<int, 2> g_loop_threads{};

template <class T>
bool find_call(void* handle, const std::string& prefix, BatchCall<T>& call) {
  call.strided =
      reinterpret_cast<Strided<T>>(dlsym(handle, (prefix + "gemm_batch_strided").c_str()));
  if (g_grouped) {
    call.grouped = reinterpret_cast<Grouped<T>>(dlsym(handle, (prefix + "gemm_batch").c_str()));
  }
  call.single = reinterpret_cast<Single<T>>(dlsym(handle, (prefix + "gemm").c_str()));
  return call.strided != nullptr || call.single != nullptr;
}

// kPairBatchSeconds: one library's side of a pair; a 10000 x 8^3 case is ~1 ms.
constexpr double kPairBatchSeconds = 0.02;
// kSettle: with a library on more than one thread, each side first sleeps this long, untimed,
// so that the other library's workers, spinning after its side (OpenBLAS's ~2^28 TSC ticks,
// 0.18 s at 1.5 GHz; teamla's spin budget, docs/waits.md), are asleep and take no CPU from it
// (level3_calls.cpp does the same). Sides are then kSettledSideSeconds long.
constexpr auto kSettle = std::chrono::milliseconds(300);
constexpr double kSettledSideSeconds = 0.1;

template <class T>
void time_pair(benchmark::State& state, std::array<BatchCall<T>, 2> calls,
               const std::array<teamla::bench::Library, 2>& libraries, int count, int n) {
  // One batch for both sides: with one each, two copies of one library read 0.95-1.07 at 2
  // threads (11 pairs), each side's pages falling on the caches' sets as they may.
  teamla::bench::Batch<T> batch(count, n);
  Pointers<T> pointers(batch);
  for (int i : {0, 1}) {
    libraries[i].apply_threads();
    std::fill(batch.c.begin(), batch.c.end(), T(1000));  // so each side's check sees its own C
    calls[i](batch, pointers);
    if (teamla::bench::first_item_error(batch) > (sizeof(T) == 8 ? 1e-10 : 1e-3) * n) {
      state.SkipWithError((libraries[i].name + ": item 0's C is wrong").c_str());
      return;
    }
  }
  const bool settle = libraries[0].threads != 1 || libraries[1].threads != 1 ||
                      g_loop_threads[0] > 1 || g_loop_threads[1] > 1;
  const double side_seconds = settle ? kSettledSideSeconds : kPairBatchSeconds;
  std::array<long, 2> repeats{};
  std::array<teamla::bench::PairSide, 2> sides;
  for (int i : {0, 1}) {
    sides[i] = [&, i] {
      using Clock = std::chrono::steady_clock;
      if (settle) std::this_thread::sleep_for(kSettle);
      libraries[i].apply_threads();
      const auto run = [&](long times) {
        const auto start = Clock::now();
        for (long r = 0; r < times; ++r) calls[i](batch, pointers);
        return std::chrono::duration<double>(Clock::now() - start).count();
      };
      if (repeats[i] == 0) {
        repeats[i] = 1;
        while (run(repeats[i]) < side_seconds) repeats[i] *= 2;
      }
      return run(repeats[i]) / static_cast<double>(repeats[i]);
    };
  }
  teamla::bench::time_pairs(state, {libraries[0].name, libraries[1].name},
                            2.0 * count * static_cast<double>(n) * n * n, sides);
}

// parse_cases(): "COUNTxN,..."; false on anything else or a size below 1.
bool parse_cases(const std::string& text, std::vector<std::pair<int, int>>& cases) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    int count = 0;
    int n = 0;
    char tail = 0;
    if (std::sscanf(text.substr(at, end - at).c_str(), "%dx%d%c", &count, &n, &tail) != 2 ||
        count < 1 || n < 1) {
      return false;
    }
    cases.emplace_back(count, n);
    at = end + 1;
  }
  return !cases.empty();
}

template <class T>
void register_type(const std::array<teamla::bench::Library, 2>& libraries, int pairs,
                   const char* prefix, const std::vector<std::pair<int, int>>& cases) {
  const std::string p(prefix);
  std::array<BatchCall<T>, 2> calls{};
  for (int i : {0, 1}) {
    calls[i].loop_threads = g_loop_threads[i];
    if (!find_call(libraries[i].handle, "cblas_" + p, calls[i]) ||
        (calls[i].loop_threads > 0 && calls[i].single == nullptr)) {
      std::fprintf(stderr, "batch_pairs: %s has no cblas_%sgemm\n", libraries[i].name.c_str(),
                   prefix);
      return;
    }
  }
  for (const auto& item_case : cases) {
    const int count = item_case.first;  // named, not bound: a lambda captures them below
    const int n = item_case.second;
    const std::string name = libraries[0].name + ":" + libraries[1].name + "/" + p +
                             "gemm_batch/count:" + std::to_string(count) +
                             "/n:" + std::to_string(n);
    benchmark::RegisterBenchmark(
        name.c_str(),
        [=](benchmark::State& state) { time_pair<T>(state, calls, libraries, count, n); })
        ->Iterations(pairs)
        ->UseManualTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: batch_pairs --library NAME[@THREADS]=[omp:]PATH --library "
                 "NAME[@THREADS]=[omp:]PATH "
                 "[--pairs N] [--cases COUNTxN,...] [--form strided|group] [--benchmark_* ...]\n");
    return 2;
  };
  std::vector<std::pair<int, int>> cases{{10000, 8}, {1000, 32}, {100, 128}};
  std::vector<std::string> specs;
  int pairs = 21;
  if (argc % 2 == 0) return usage();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const std::string value = argv[i + 1];
    if (option == "--library") {
      specs.push_back(value);
    } else if (option == "--pairs") {
      pairs = std::atoi(value.c_str());
      if (pairs < 1) return usage();
    } else if (option == "--form") {
      if (value != "strided" && value != "group") return usage();
      g_grouped = value == "group";
    } else if (option == "--cases") {
      cases.clear();
      if (!parse_cases(value, cases)) return usage();
    } else {
      return usage();
    }
  }
  if (specs.size() != 2) return usage();
  std::array<teamla::bench::Library, 2> libraries;
  for (int i : {0, 1}) {
    // NAME@T=omp:PATH: PATH's library at 1 thread, called in an OpenMP loop on T threads.
    const std::size_t omp = specs[i].find("=omp:");
    if (omp != std::string::npos) {
      const std::size_t at = specs[i].find('@');
#ifdef _OPENMP
      g_loop_threads[i] = at < omp ? std::atoi(specs[i].c_str() + at + 1) : 0;
#endif
      if (g_loop_threads[i] < 1) {
        std::fprintf(stderr, "batch_pairs: omp: takes NAME@THREADS and a build with OpenMP\n");
        return 2;
      }
      specs[i] = specs[i].substr(0, at) + "@1=" + specs[i].substr(omp + 5);
    }
    auto library = teamla::bench::open_library("batch_pairs", specs[i]);
    if (!library) return 1;
    if (library->name.empty()) return usage();
    libraries[i] = *library;
  }
  register_type<double>(libraries, pairs, "d", cases);
  register_type<float>(libraries, pairs, "s", cases);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
