// SPDX-License-Identifier: Apache-2.0
// small_gemm.cpp: small dgemm_/sgemm_ calls through one BLAS library, on Google Benchmark.
//
//   small_gemm --library [NAME[@THREADS]=]PATH [--library NAME[@THREADS]=PATH ...]
//              [--offset BYTES] [--shapes MxNxK,...] [--benchmark_* ...]
//
// The library is dlopen'ed (RTLD_LOCAL) and its Fortran dgemm_/sgemm_ called as an application
// calls them; its own environment (TEAMLA_NUM_THREADS, OPENBLAS_NUM_THREADS) picks the thread
// count, or @THREADS, set through its thread-control call (teamla_set_num_threads, else
// openblas_set_num_threads) before each benchmark runs. Several libraries (or one library at
// several thread counts) share one process, each benchmark's name prefixed with its NAME: with
// --benchmark_enable_random_interleaving and repetitions their calls interleave within
// seconds, so the VM's speed changes (docs/perf/small.md, "Two speeds") fall on every arm
// alike. Arms with threads of their own disturb each other's (a team spinning after its
// section while the other arm runs), so scripts/bench-small runs those as processes of their
// own. One benchmark per library, type, transpose pair and shape: square n
// = 1..64, and the non-square shapes of small-call workloads, m = n = 16 with k = 256 (a skinny
// update) and m = 2048 with n = k = 16 (a tall block times a small one); --shapes replaces that
// list (the A/Bs of docs/gemm.md's other shapes). The time per iteration is the time of one call;
// the "flops" counter is its rate. Operands are column-major with ld = rows, filled once before
// timing, each starting --offset bytes (default 0) past a 64-byte boundary: placed by the driver,
// not left where malloc puts them, because there the offset depended on the allocations made before
// (each library's own, and the filter's), so two arms ran on differently aligned operands, and
// a line-straddling operand changes a small call's rate by up to a third.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/matrices.hpp"

namespace {

template <class T>
using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                      const T*, const int*, const T*, const int*, const T*, T*, const int*);

struct Shape {
  int m, n, k;
};

// Placed: a matrix's values copied to `offset` bytes past a 64-byte boundary.
template <class T>
class Placed {
 public:
  Placed(const std::vector<T>& values, std::size_t offset)
      : storage_(values.size() + (offset + 128) / sizeof(T)) {
    auto* base = reinterpret_cast<unsigned char*>(storage_.data());
    const std::size_t past_line = reinterpret_cast<std::uintptr_t>(base) % 64;
    data_ = reinterpret_cast<T*>(base + (64 - past_line) % 64 + offset);
    std::copy(values.begin(), values.end(), data_);
  }
  T* data() { return data_; }

 private:
  std::vector<T> storage_;
  T* data_;
};

std::size_t g_offset = 0;  // --offset

// Threads: a library's thread-control call and the count to set before each benchmark (count
// 0: none, the library's environment decides).
struct Threads {
  void (*set)(int) = nullptr;
  int count = 0;
};

template <class T>
void time_calls(benchmark::State& state, Gemm<T> gemm, Threads threads, char ta, char tb, Shape s) {
  if (threads.count > 0) threads.set(threads.count);
  const int lda = ta == 'N' ? s.m : s.k;
  const int ldb = tb == 'N' ? s.k : s.n;
  Placed<T> a(teamla::bench::random_matrix<T>(s.m, s.k, 1), g_offset);
  Placed<T> b(teamla::bench::random_matrix<T>(s.k, s.n, 2), g_offset);
  Placed<T> c(teamla::bench::random_matrix<T>(s.m, s.n, 3), g_offset);
  const T alpha = 1;
  const T beta = 1;  // C += A B: the common update, C read and written
  for (auto _ : state) {
    gemm(&ta, &tb, &s.m, &s.n, &s.k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &s.m);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.counters["flops"] =
      benchmark::Counter(2.0 * s.m * s.n * s.k, benchmark::Counter::kIsIterationInvariantRate);
}

std::vector<Shape> default_shapes() {
  std::vector<Shape> list;
  for (int n : {1, 2, 4, 8, 12, 16, 24, 32, 48, 64}) list.push_back({n, n, n});
  list.push_back({16, 16, 256});
  list.push_back({2048, 16, 16});
  return list;
}

// parse_shapes(): "MxNxK,MxNxK,..."; false on anything else or a size below 1.
bool parse_shapes(const std::string& text, std::vector<Shape>& list) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    Shape s{};
    char tail = 0;
    if (std::sscanf(text.substr(at, end - at).c_str(), "%dx%dx%d%c", &s.m, &s.n, &s.k, &tail) !=
            3 ||
        s.m < 1 || s.n < 1 || s.k < 1) {
      return false;
    }
    list.push_back(s);
    at = end + 1;
  }
  return !list.empty();
}

template <class T>
void register_type(void* library, const std::string& label, Threads threads, const char* symbol,
                   const char* prefix, const std::vector<Shape>& shapes) {
  auto gemm = reinterpret_cast<Gemm<T>>(dlsym(library, symbol));
  if (gemm == nullptr) {
    std::fprintf(stderr, "small_gemm: the library has no %s\n", symbol);
    return;
  }
  for (const char* trans : {"NN", "TN", "NT"}) {
    for (const Shape s : shapes) {
      const std::string name = label + prefix + "gemm_" + trans + "/" + std::to_string(s.m) + "x" +
                               std::to_string(s.n) + "x" + std::to_string(s.k);
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
        time_calls<T>(state, gemm, threads, trans[0], trans[1], s);
      });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: small_gemm --library [NAME[@THREADS]=]PATH [--library ...] "
                 "[--offset BYTES] [--shapes MxNxK,...] [--benchmark_* ...]\n");
    return 2;
  };
  if (argc < 3 || argc % 2 == 0) return usage();
  std::vector<Shape> shapes = default_shapes();
  std::vector<std::pair<std::string, std::string>> libraries;  // (name, path)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const std::string value = argv[i + 1];
    if (option == "--library") {
      const std::size_t equals = value.find('=');
      libraries.emplace_back(equals == std::string::npos ? "" : value.substr(0, equals),
                             equals == std::string::npos ? value : value.substr(equals + 1));
    } else if (option == "--offset") {
      g_offset = std::strtoul(value.c_str(), nullptr, 10);
      if (g_offset >= 64 || g_offset % sizeof(double) != 0) {
        std::fprintf(stderr, "small_gemm: --offset takes a multiple of 8 below 64\n");
        return 2;
      }
    } else if (option == "--shapes") {
      shapes.clear();
      if (!parse_shapes(value, shapes)) {
        std::fprintf(stderr, "small_gemm: --shapes takes MxNxK[,MxNxK...], each at least 1\n");
        return 2;
      }
    } else {
      return usage();
    }
  }
  if (libraries.empty()) return usage();
  for (const auto& [spec, path] : libraries) {
    if (libraries.size() > 1 && spec.empty()) {
      std::fprintf(stderr, "small_gemm: with several libraries, each needs NAME=PATH\n");
      return 2;
    }
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "small_gemm: %s\n", dlerror());
      return 1;
    }
    const std::size_t at = spec.find('@');
    Threads threads;
    if (at != std::string::npos) {
      threads.count = std::atoi(spec.c_str() + at + 1);
      void* set = dlsym(library, "teamla_set_num_threads");
      if (set == nullptr) set = dlsym(library, "openblas_set_num_threads");
      threads.set = reinterpret_cast<void (*)(int)>(set);
      if (threads.count < 1 || threads.set == nullptr) {
        std::fprintf(stderr,
                     "small_gemm: %s: @THREADS takes a count of at least 1, and a library with "
                     "teamla_set_num_threads or openblas_set_num_threads\n",
                     spec.c_str());
        return 2;
      }
    }
    const std::string label = libraries.size() > 1 ? spec.substr(0, at) + "/" : "";
    register_type<double>(library, label, threads, "dgemm_", "d", shapes);
    register_type<float>(library, label, threads, "sgemm_", "s", shapes);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
