// SPDX-License-Identifier: Apache-2.0
// engine_floor.cpp: the fixed cost of a small gemm call, on Google Benchmark.
//
//   engine_floor [--benchmark_* options]
//
// Square double gemm (C += A B, n = 1, 2, 4, 8) through CpuEngine in held mode (as wide as the
// CPUs: the team exists and is idle), CpuEngine in serial mode, and linalg::gemm called
// directly with no team. The time per iteration is the time of one call; at n <= 4 it is the
// call's floor (docs/engine.md, "Cost of a call"; docs/perf/small.md).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"

namespace {

using teamla::engine::CpuEngine;
using teamla::engine::EngineConfig;
using teamla::engine::Mode;
namespace linalg = teamla::linalg;

struct Operands {
  explicit Operands(linalg::index_t order)
      : n(order), a(static_cast<std::size_t>(order * order), 0.5), b(a), c(a) {}
  linalg::index_t n;
  std::vector<double> a, b, c;
  [[nodiscard]] linalg::MatrixView<const double> av() const {
    return linalg::col_major<const double>(a.data(), n, n);
  }
  [[nodiscard]] linalg::MatrixView<const double> bv() const {
    return linalg::col_major<const double>(b.data(), n, n);
  }
  linalg::MatrixView<double> cv() { return linalg::col_major(c.data(), n, n); }
};

void via_engine(benchmark::State& state, Mode mode) {
  CpuEngine engine(EngineConfig{.threads = 0, .mode = mode});
  Operands x(state.range(0));
  for (auto _ : state) {
    engine.gemm(linalg::Op::none, linalg::Op::none, 1.0, x.av(), x.bv(), 1.0, x.cv());
    benchmark::ClobberMemory();
  }
}

void direct(benchmark::State& state) {
  Operands x(state.range(0));
  linalg::Exec exec;
  for (auto _ : state) {
    linalg::gemm(linalg::Op::none, linalg::Op::none, 1.0, x.av(), x.bv(), 1.0, x.cv(), exec);
    benchmark::ClobberMemory();
  }
}

BENCHMARK_CAPTURE(via_engine, held, Mode::held)->Arg(1)->Arg(2)->Arg(4)->Arg(8);
BENCHMARK_CAPTURE(via_engine, serial, Mode::serial)->Arg(1)->Arg(2)->Arg(4)->Arg(8);
BENCHMARK(direct)->Arg(1)->Arg(2)->Arg(4)->Arg(8);

}  // namespace

BENCHMARK_MAIN();
