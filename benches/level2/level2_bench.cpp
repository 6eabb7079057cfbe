// SPDX-License-Identifier: Apache-2.0
// level2_bench.cpp: BLAS level 2 through the CBLAS ABI, on Google Benchmark, for
// scripts/bench-level2: cblas_dgemv (N and T), cblas_dsymv, cblas_dger, cblas_dtrsv,
// cblas_sgemv and cblas_zgemv, column-major, n x n, unit strides, threads by
// openblas_set_num_threads. Linked against OpenBLAS; preloading libteamla_blas.so over it makes it
// teamla's arm (the same calls, served by teamla). The operands stay the same from call to call,
// as in LAPACK's loops, so a small call runs from cache. Counters: GF/s (2 n^2 flops; n^2 for
// trsv) and GB/s (the matrix's bytes: the data a memory-bound call must stream). Every operand
// starts on a 64-byte boundary: with malloc's 16 bytes, where an array fell depended on each
// arm's heap (the preloaded library allocates its own), and the loads that straddle cache lines
// moved either library's small calls by a large share between arms and runs.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <complex>
#include <new>
#include <random>
#include <string>
#include <vector>

namespace {

// Aligned64: std::vector's allocator, every array on a 64-byte boundary.
template <class T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U>
  explicit Aligned64(const Aligned64<U>& /*other*/) {}
  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new (count * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t /*count*/) { ::operator delete (p, std::align_val_t{64}); }
  bool operator==(const Aligned64& /*other*/) const { return true; }
};

template <class T>
using Array = std::vector<T, Aligned64<T>>;

template <class T>
Array<T> random_values(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Array<T> values(count);
  for (T& v : values) {
    if constexpr (sizeof(T) == 16) {
      v = T(uniform(rng), uniform(rng));
    } else {
      v = static_cast<T>(uniform(rng));
    }
  }
  return values;
}

// Operands: A n x n (for trsv, well conditioned: a dominant diagonal), x and y of n.
template <class T>
struct Operands {
  explicit Operands(int n)
      : a(random_values<T>(std::size_t(n) * n, 1)),
        x(random_values<T>(n, 2)),
        y(random_values<T>(n, 3)) {
    for (int i = 0; i < n; ++i) a[std::size_t(i) * n + i] += T(n);
  }
  Array<T> a, x, y;
};

void finish(benchmark::State& state, int n, double flops, double bytes) {
  const auto calls = static_cast<double>(state.iterations());
  state.counters["GF/s"] = benchmark::Counter(flops * calls, benchmark::Counter::kIsRate);
  state.counters["GB/s"] = benchmark::Counter(bytes * calls, benchmark::Counter::kIsRate);
  state.counters["n"] = n;
}

void dgemv(benchmark::State& state, CBLAS_TRANSPOSE trans) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<double> o(n);
  for (auto _ : state) {
    cblas_dgemv(CblasColMajor, trans, n, n, 1.0, o.a.data(), n, o.x.data(), 1, 0.5, o.y.data(), 1);
    benchmark::ClobberMemory();
  }
  finish(state, n, 2.0 * n * n, 8.0 * n * n);
}

void sgemv(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<float> o(n);
  for (auto _ : state) {
    cblas_sgemv(CblasColMajor, CblasNoTrans, n, n, 1.0F, o.a.data(), n, o.x.data(), 1, 0.5F,
                o.y.data(), 1);
    benchmark::ClobberMemory();
  }
  finish(state, n, 2.0 * n * n, 4.0 * n * n);
}

void zgemv(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<std::complex<double>> o(n);
  const std::complex<double> one(1), half(0.5);
  for (auto _ : state) {
    cblas_zgemv(CblasColMajor, CblasNoTrans, n, n, &one, o.a.data(), n, o.x.data(), 1, &half,
                o.y.data(), 1);
    benchmark::ClobberMemory();
  }
  finish(state, n, 8.0 * n * n, 16.0 * n * n);
}

void dsymv(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<double> o(n);
  for (auto _ : state) {
    cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, o.a.data(), n, o.x.data(), 1, 0.5, o.y.data(),
                1);
    benchmark::ClobberMemory();
  }
  finish(state, n, 2.0 * n * n, 4.0 * n * n);
}

void dger(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<double> o(n);
  double alpha = 1e-9;  // small, so that A stays bounded over millions of updates
  for (auto _ : state) {
    cblas_dger(CblasColMajor, n, n, alpha, o.x.data(), 1, o.y.data(), 1, o.a.data(), n);
    alpha = -alpha;
    benchmark::ClobberMemory();
  }
  finish(state, n, 2.0 * n * n, 16.0 * n * n);  // A read and written
}

void dtrsv(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  Operands<double> o(n);
  const Array<double> x0 = o.x;
  for (auto _ : state) {
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, o.a.data(), n, o.x.data(),
                1);
    benchmark::ClobberMemory();
    state.PauseTiming();
    o.x = x0;  // the same right-hand side each call (untimed)
    state.ResumeTiming();
  }
  finish(state, n, 1.0 * n * n, 4.0 * n * n);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"threads", "n"});
  for (int threads : {1, 2}) {
    for (int n : {64, 128, 256, 512, 1024, 2048, 4096}) b->Args({threads, n});
  }
  b->UseRealTime();
}

}  // namespace

BENCHMARK_CAPTURE(dgemv, n, CblasNoTrans)->Name("dgemv_n")->Apply(sizes);
BENCHMARK_CAPTURE(dgemv, t, CblasTrans)->Name("dgemv_t")->Apply(sizes);
BENCHMARK(dsymv)->Apply(sizes);
BENCHMARK(dger)->Apply(sizes);
BENCHMARK(dtrsv)->Apply(sizes);
BENCHMARK(sgemv)->Apply(sizes);
BENCHMARK(zgemv)->Apply(sizes);
BENCHMARK_MAIN();
