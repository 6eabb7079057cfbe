// SPDX-License-Identifier: Apache-2.0
// small_gemm.cpp: small dgemm_/sgemm_ calls through one BLAS library, on Google Benchmark.
//
//   small_gemm --library [NAME[@THREADS]=]PATH [--library NAME[@THREADS]=PATH ...]
//              [--pairs N] [--offset BYTES] [--placement P] [--shapes MxNxK,...]
//              [--benchmark_* ...]
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
// own. --pairs N (two libraries) instead times N pairs per benchmark, named FIRST:SECOND/row
// (common/pairs.hpp), each library's batch kPairBatchSeconds long: pairs 10 ms apart cancel the
// VM's speed changes, where repetitions seconds apart do not. One benchmark per library, type,
// transpose pair and shape: square n = 1..64, and the non-square shapes of small-call workloads, m
// = n = 16 with k = 256 (a skinny update) and m = 2048 with n = k = 16 (a tall block times a small
// one); --shapes replaces that list (the A/Bs of docs/gemm.md's other shapes). The time per
// iteration is the time of one call; the "flops" counter is its rate. Operands are column-major
// with ld = rows, filled once before timing, each on a line of its 4 KiB page drawn by a fixed
// hash, plus --offset bytes (default 0): placed by the driver, not left where malloc puts them,
// because there the offset depended on the allocations made before (each library's own, and the
// filter's), so two arms ran on differently placed operands; a line-straddling operand changes a
// small call's rate by up to a third, and the placement of a tall call's operands its ratio by a
// fifth. A benchmark runs on placement 0, pairs rotate through kPlacements; --placement P holds
// both to placement P.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/libraries.hpp"
#include "common/matrices.hpp"
#include "common/pairs.hpp"

namespace {

template <class T>
using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                      const T*, const int*, const T*, const int*, const T*, T*, const int*);

struct Shape {
  int m, n, k;
};

// Placed: a matrix's values copied to `page_offset` bytes past a 4 KiB boundary.
template <class T>
class Placed {
 public:
  Placed(const std::vector<T>& values, std::size_t page_offset)
      : storage_(values.size() + (kPage + page_offset) / sizeof(T) + 1) {
    auto* base = reinterpret_cast<unsigned char*>(storage_.data());
    const std::size_t past_page = reinterpret_cast<std::uintptr_t>(base) % kPage;
    data_ = reinterpret_cast<T*>(base + (kPage - past_page) % kPage + page_offset);
    std::copy(values.begin(), values.end(), data_);
  }
  T* data() { return data_; }

  static constexpr std::size_t kPage = 4096;

 private:
  std::vector<T> storage_;
  T* data_;
};

std::size_t g_offset = 0;  // --offset
int g_placement = -1;      // --placement (-1: the pairs rotate)

// kPlacements: the sets of operands a pair run rotates through, pair p on set p % kPlacements.
// Where a tall call's operands lie decides which cache sets its columns share: one process's
// set, where malloc left it, read the tall 2048 x 16 x 16 dgemm teamla / OpenBLAS anywhere from
// 0.89 to 1.01, and the 8 sets (--placement 0-7) 0.77-1.17 from one process to the next
// (docs/perf/small.md, "Placement"). With eight, each set still gets five of 41 pairs.
constexpr unsigned kPlacements = 8;

// page_offset(): operand `which` (0 A, 1 B, 2 C) of placement `placement`: a line of the page
// drawn by a fixed hash, so every run and both sides of a pair place alike, plus --offset.
std::size_t page_offset(unsigned placement, unsigned which) {
  std::uint64_t x = 0x9E3779B97F4A7C15ULL * (3 * placement + which + 1);  // splitmix64
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return (x % 64) * 64 + g_offset;
}

// Operands: one shape's A, B and C at one placement, filled once.
template <class T>
struct Operands {
  Operands(Shape s, unsigned placement)
      : a(teamla::bench::random_matrix<T>(s.m, s.k, 1), page_offset(placement, 0)),
        b(teamla::bench::random_matrix<T>(s.k, s.n, 2), page_offset(placement, 1)),
        c(teamla::bench::random_matrix<T>(s.m, s.n, 3), page_offset(placement, 2)) {}
  Placed<T> a, b, c;
};

// SmallCall: one library's dgemm_/sgemm_ at one shape, C += A B (beta = 1: the common update,
// C read and written), on operands it may share with another library's call.
template <class T>
class SmallCall {
 public:
  SmallCall(Gemm<T> gemm, char ta, char tb, Shape s, Operands<T>& operands)
      : gemm_(gemm),
        ta_(ta),
        tb_(tb),
        s_(s),
        lda_(ta == 'N' ? s.m : s.k),
        ldb_(tb == 'N' ? s.k : s.n),
        operands_(&operands) {}

  void use(Operands<T>& operands) { operands_ = &operands; }

  void operator()() {
    const T one = 1;
    gemm_(&ta_, &tb_, &s_.m, &s_.n, &s_.k, &one, operands_->a.data(), &lda_, operands_->b.data(),
          &ldb_, &one, operands_->c.data(), &s_.m);
    benchmark::DoNotOptimize(operands_->c.data());
    benchmark::ClobberMemory();
  }
  double flops() const { return 2.0 * s_.m * s_.n * s_.k; }

 private:
  Gemm<T> gemm_;
  char ta_, tb_;
  Shape s_;
  int lda_, ldb_;
  Operands<T>* operands_;
};

template <class T>
void time_calls(benchmark::State& state, Gemm<T> gemm, const teamla::bench::Library& library,
                char ta, char tb, Shape s) {
  library.apply_threads();
  Operands<T> operands(s, g_placement >= 0 ? g_placement : 0);
  SmallCall<T> call(gemm, ta, tb, s, operands);
  for (auto _ : state) call();
  state.counters["flops"] =
      benchmark::Counter(call.flops(), benchmark::Counter::kIsIterationInvariantRate);
}

// kPairBatchSeconds: one library's batch in a pair; at n = 4 (~0.1 us a call) still thousands
// of calls, so the two clock reads around it do not count.
constexpr double kPairBatchSeconds = 0.005;

// seconds_per_call(): one batch of `calls` calls (fixed by the first batch: doubled until it
// lasts kPairBatchSeconds), after one untimed call.
template <class T>
double seconds_per_call(const teamla::bench::Library& library, SmallCall<T>& call, long& calls) {
  using Clock = std::chrono::steady_clock;
  library.apply_threads();
  call();
  const auto batch = [&](long count) {
    const auto start = Clock::now();
    for (long i = 0; i < count; ++i) call();
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  if (calls == 0) {
    calls = 1;
    while (batch(calls) < kPairBatchSeconds) calls *= 2;
  }
  return batch(calls) / static_cast<double>(calls);
}

template <class T>
void time_pair(benchmark::State& state, std::array<Gemm<T>, 2> gemm,
               const std::array<teamla::bench::Library, 2>& libraries, char ta, char tb, Shape s) {
  // Both sides of a pair share its operands: with a set each, the tall 2048 x 16 x 16 read 1.12
  // and 0.94 (NN, NT) in a control pairing two copies of one library, as each side's pages
  // fell on L2's sets (docs/perf/small.md, "Paired runs (Zen 5 VM)"). The pairs rotate through
  // kPlacements sets, so that the median is not one placement's.
  std::vector<Operands<T>> sets;
  sets.reserve(kPlacements);
  for (unsigned p = 0; p < kPlacements; ++p) sets.emplace_back(s, p);
  std::array<SmallCall<T>, 2> calls{SmallCall<T>(gemm[0], ta, tb, s, sets[0]),
                                    SmallCall<T>(gemm[1], ta, tb, s, sets[0])};
  std::array<long, 2> counts{};
  std::array<unsigned, 2> batches_run{};
  std::array<teamla::bench::PairSide, 2> batches;
  for (int i : {0, 1}) {
    batches[i] = [&, i] {
      const unsigned set = g_placement >= 0 ? g_placement : batches_run[i]++ % kPlacements;
      calls[i].use(sets[set]);
      return seconds_per_call(libraries[i], calls[i], counts[i]);
    };
  }
  teamla::bench::time_pairs(state, {libraries[0].name, libraries[1].name}, calls[0].flops(),
                            batches);
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

std::string row_name(const char* prefix, const char* trans, Shape s) {
  return std::string(prefix) + "gemm_" + trans + "/" + std::to_string(s.m) + "x" +
         std::to_string(s.n) + "x" + std::to_string(s.k);
}

constexpr std::array<const char*, 3> kTransposes{"NN", "TN", "NT"};

template <class T>
void register_type(const teamla::bench::Library& library, const std::string& label,
                   const char* symbol, const char* prefix, const std::vector<Shape>& shapes) {
  auto gemm = reinterpret_cast<Gemm<T>>(dlsym(library.handle, symbol));
  if (gemm == nullptr) {
    std::fprintf(stderr, "small_gemm: the library has no %s\n", symbol);
    return;
  }
  for (const char* trans : kTransposes) {
    for (const Shape s : shapes) {
      benchmark::RegisterBenchmark((label + row_name(prefix, trans, s)).c_str(),
                                   [=](benchmark::State& state) {
                                     time_calls<T>(state, gemm, library, trans[0], trans[1], s);
                                   });
    }
  }
}

template <class T>
void register_pairs(const std::array<teamla::bench::Library, 2>& libraries, int pairs,
                    const char* symbol, const char* prefix, const std::vector<Shape>& shapes) {
  std::array<Gemm<T>, 2> gemm{};
  for (int i : {0, 1}) {
    gemm[i] = reinterpret_cast<Gemm<T>>(dlsym(libraries[i].handle, symbol));
    if (gemm[i] == nullptr) {
      std::fprintf(stderr, "small_gemm: a library has no %s\n", symbol);
      return;
    }
  }
  const std::string label = libraries[0].name + ":" + libraries[1].name + "/";
  for (const char* trans : kTransposes) {
    for (const Shape s : shapes) {
      benchmark::RegisterBenchmark((label + row_name(prefix, trans, s)).c_str(),
                                   [=](benchmark::State& state) {
                                     time_pair<T>(state, gemm, libraries, trans[0], trans[1], s);
                                   })
          ->Iterations(pairs)
          ->UseManualTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: small_gemm --library [NAME[@THREADS]=]PATH [--library ...] "
                 "[--pairs N] [--offset BYTES] [--placement P] [--shapes MxNxK,...] "
                 "[--benchmark_* ...]\n");
    return 2;
  };
  if (argc < 3 || argc % 2 == 0) return usage();
  std::vector<Shape> shapes = default_shapes();
  std::vector<std::string> specs;  // the --library values
  int pairs = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const std::string value = argv[i + 1];
    if (option == "--library") {
      specs.push_back(value);
    } else if (option == "--pairs") {
      pairs = std::atoi(value.c_str());
      if (pairs < 1) return usage();
    } else if (option == "--offset") {
      g_offset = std::strtoul(value.c_str(), nullptr, 10);
      if (g_offset >= 64 || g_offset % sizeof(double) != 0) {
        std::fprintf(stderr, "small_gemm: --offset takes a multiple of 8 below 64\n");
        return 2;
      }
    } else if (option == "--placement") {
      g_placement = std::atoi(value.c_str());
      if (g_placement < 0 || g_placement >= static_cast<int>(kPlacements)) {
        std::fprintf(stderr, "small_gemm: --placement takes 0 to %u\n", kPlacements - 1);
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
  if (specs.empty() || (pairs > 0 && specs.size() != 2)) return usage();
  std::vector<teamla::bench::Library> libraries;
  libraries.reserve(specs.size());
  for (const std::string& spec : specs) {
    auto library = teamla::bench::open_library("small_gemm", spec);
    if (!library) return 1;
    if (specs.size() > 1 && library->name.empty()) {
      std::fprintf(stderr, "small_gemm: with several libraries, each needs NAME=PATH\n");
      return 2;
    }
    libraries.push_back(*library);
  }
  if (pairs > 0) {
    register_pairs<double>({libraries[0], libraries[1]}, pairs, "dgemm_", "d", shapes);
    register_pairs<float>({libraries[0], libraries[1]}, pairs, "sgemm_", "s", shapes);
  } else {
    for (const teamla::bench::Library& library : libraries) {
      const std::string label = libraries.size() > 1 ? library.name + "/" : "";
      register_type<double>(library, label, "dgemm_", "d", shapes);
      register_type<float>(library, label, "sgemm_", "s", shapes);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
