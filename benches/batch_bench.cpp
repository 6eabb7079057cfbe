// SPDX-License-Identifier: Apache-2.0
// batch_bench.cpp: batched GEMM, teamla against an OpenMP loop over 1-thread OpenBLAS calls.
//
//   batch_bench [--cases 10000x8,1000x32,100x128] [--types d,s] [--rounds 7] [--min-ms 30]
//
// A case is `count` independent square products n x n x n (column-major NN, alpha 1, beta 0,
// every item its own A, B and C). Arms, each timed on the same batch:
//   teamla_1, teamla_2   CpuEngine::gemm_batch on an engine of 1 / 2 threads (held mode)
//   omp_openblas_1, _2   `#pragma omp parallel for` over the items, each a cblas_?gemm call,
//                        OpenBLAS set to 1 thread (openblas_set_num_threads) so that the
//                        parallelism is the loop's alone
// Every round runs every arm once, the arms in an order rotated from round to round; a sample
// is the mean time of one batch over enough back-to-back batches to fill --min-ms, after one
// warm-up batch. Reported per arm: the median over rounds and every sample. The JSON goes to
// stdout, a table to stderr. The first round also checks each arm's C against teamla_1's.
//
// Baseline environment: run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (OpenBLAS then
// picks its kernels from cpuid) and no OMP_* / GOMP_* (scripts/bench-batch does this).
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/args.hpp"
#include "common/stats.hpp"
#include "teamla/engine/cpu_engine.hpp"

extern "C" char* openblas_get_corename();

namespace {

using teamla::engine::CpuEngine;
using teamla::engine::EngineConfig;
using teamla::engine::GemmItem;
using teamla::engine::Op;

struct Options {
  std::string cases = "10000x8,1000x32,100x128";
  std::string types = "d";
  int rounds = 7;
  double min_ms = 30;
};

Options parse(int argc, char** argv) {
  Options o;
  for (teamla::bench::ArgCursor arg(argc, argv); arg.next();) {
    if (!arg.has_value()) {
      std::fprintf(stderr, "batch_bench: %s needs a value\n", arg.name().c_str());
      std::exit(2);
    } else if (arg.is("--cases")) {
      o.cases = arg.value();
    } else if (arg.is("--types")) {
      o.types = arg.value();
    } else if (arg.is("--rounds")) {
      o.rounds = std::max(1, std::atoi(arg.value()));
    } else if (arg.is("--min-ms")) {
      o.min_ms = std::atof(arg.value());
    } else {
      std::fprintf(stderr,
                   "batch_bench: unknown option %s (options: --cases, --types, --rounds, "
                   "--min-ms)\n",
                   arg.name().c_str());
      std::exit(2);
    }
  }
  return o;
}

// Batch: one buffer per operand, item i's matrices at i * n * n.
template <class T>
struct Batch {
  int count = 0;
  int n = 0;
  std::vector<T> a, b, c;
  std::vector<GemmItem<T>> items;
  T* c_of(int i) { return c.data() + static_cast<std::size_t>(i) * n * n; }
};

template <class T>
Batch<T> make_batch(int count, int n) {
  Batch<T> batch;
  batch.count = count;
  batch.n = n;
  const auto elems = static_cast<std::size_t>(count) * n * n;
  batch.a.resize(elems);
  batch.b.resize(elems);
  batch.c.assign(elems, T(0));
  std::mt19937 rng(count * 31 + n);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (T& v : batch.a) v = static_cast<T>(entry(rng));
  for (T& v : batch.b) v = static_cast<T>(entry(rng));
  for (int i = 0; i < count; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * n * n;
    batch.items.push_back({Op::none, Op::none, T(1),
                           teamla::linalg::col_major<const T>(batch.a.data() + at, n, n),
                           teamla::linalg::col_major<const T>(batch.b.data() + at, n, n), T(0),
                           teamla::linalg::col_major(batch.c.data() + at, n, n)});
  }
  return batch;
}

void blas_gemm(int n, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
}
void blas_gemm(int n, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0F, a, n, b, n, 0.0F, c, n);
}

template <class T>
void omp_openblas(Batch<T>& batch, int threads) {
  const std::size_t stride = static_cast<std::size_t>(batch.n) * batch.n;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int i = 0; i < batch.count; ++i) {
    blas_gemm(batch.n, batch.a.data() + i * stride, batch.b.data() + i * stride,
              batch.c.data() + i * stride);
  }
}

struct Arm {
  std::string name;
  std::function<void()> run;
  std::vector<double> samples_ns;
  double max_diff = 0;
};

// sample_ns(): the mean time of one batch over back-to-back batches filling min_ms.
double sample_ns(const std::function<void()>& run, double min_ms) {
  run();  // warm-up: caches, pool wake-up
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  long batches = 0;
  double elapsed_ns = 0;
  do {
    run();
    ++batches;
    elapsed_ns = std::chrono::duration<double, std::nano>(clock::now() - start).count();
  } while (elapsed_ns < min_ms * 1e6);
  return elapsed_ns / static_cast<double>(batches);
}

template <class T>
double max_abs_diff(const std::vector<T>& x, const std::vector<T>& y) {
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i])));
  }
  return worst;
}

template <class T>
void run_rounds(std::vector<Arm>& arms, Batch<T>& batch, const Options& o) {
  std::vector<T> reference;
  for (int round = 0; round < o.rounds; ++round) {
    for (std::size_t j = 0; j < arms.size(); ++j) {
      Arm& arm = arms[(j + static_cast<std::size_t>(round)) % arms.size()];
      std::fill(batch.c.begin(), batch.c.end(), T(0));
      arm.samples_ns.push_back(sample_ns(arm.run, o.min_ms));
      if (round != 0) continue;
      if (reference.empty()) reference = batch.c;
      arm.max_diff = max_abs_diff(batch.c, reference);
    }
  }
}

template <class T>
std::string run_case(int count, int n, const Options& o, CpuEngine& one, CpuEngine& two) {
  Batch<T> batch = make_batch<T>(count, n);
  std::vector<Arm> arms;
  arms.push_back({"teamla_1", [&] { one.gemm_batch(batch.items); }, {}, 0});
  arms.push_back({"teamla_2", [&] { two.gemm_batch(batch.items); }, {}, 0});
  arms.push_back({"omp_openblas_1", [&] { omp_openblas(batch, 1); }, {}, 0});
  arms.push_back({"omp_openblas_2", [&] { omp_openblas(batch, 2); }, {}, 0});
  run_rounds(arms, batch, o);
  const double flops = 2.0 * count * static_cast<double>(n) * n * n;
  std::string json = "{\"type\": \"" + std::string(sizeof(T) == 8 ? "d" : "s") +
                     "\", \"count\": " + std::to_string(count) + ", \"n\": " + std::to_string(n) +
                     ", \"arms\": {";
  std::fprintf(stderr, "%s %6d x %3d^3:", sizeof(T) == 8 ? "d" : "s", count, n);
  for (std::size_t j = 0; j < arms.size(); ++j) {
    const double med = teamla::bench::median(arms[j].samples_ns);
    std::fprintf(stderr, "  %s %.1f us (%.1f GF/s)", arms[j].name.c_str(), med / 1e3, flops / med);
    json += (j ? ", " : "") + ("\"" + arms[j].name + "\": {\"median_ns\": ") + std::to_string(med) +
            ", \"gflops\": " + std::to_string(flops / med) +
            ", \"max_abs_diff_vs_teamla_1\": " + std::to_string(arms[j].max_diff) +
            ", \"samples_ns\": [";
    for (std::size_t s = 0; s < arms[j].samples_ns.size(); ++s) {
      json += (s ? ", " : "") + std::to_string(arms[j].samples_ns[s]);
    }
    json += "]}";
  }
  std::fprintf(stderr, "\n");
  return json + "}}";
}

CpuEngine make_engine(std::size_t threads) {
  EngineConfig config;
  config.threads = threads;
  return CpuEngine(config);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  openblas_set_num_threads(1);  // the loop is the only parallelism of the OpenBLAS arms
  CpuEngine one = make_engine(1);
  CpuEngine two = make_engine(2);
  std::string results;
  for (const std::string& type : teamla::bench::split_list(o.types)) {
    for (const std::string& spec : teamla::bench::split_list(o.cases)) {
      const std::size_t x = spec.find('x');
      if (x == std::string::npos) continue;
      const int count = std::atoi(spec.substr(0, x).c_str());
      const int n = std::atoi(spec.substr(x + 1).c_str());
      const std::string row = type == "s" ? run_case<float>(count, n, o, one, two)
                                          : run_case<double>(count, n, o, one, two);
      results += (results.empty() ? "" : ",\n  ") + row;
    }
  }
  std::printf(
      "{\"bench\": \"batch\", \"isa\": \"%s\", \"openblas_core\": \"%s\", \"rounds\": %d, "
      "\"min_ms\": %g,\n \"method\": \"arms rotated per round; sample = mean batch time over "
      ">= min_ms after one warm-up batch; median over rounds\",\n \"results\": [\n  %s]}\n",
      std::string(one.isa()).c_str(), openblas_get_corename(), o.rounds, o.min_ms, results.c_str());
  return 0;
}
