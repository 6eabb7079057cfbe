// SPDX-License-Identifier: Apache-2.0
// held_vs_per_call.cpp: the same small gemm in a loop on a held engine and on a per_call engine
// (a fresh pool per call, as faer's with_team does), rounds alternated, medians printed.
// The per_call engine pays thread creation and a new pool's warm-up on every call.
//
//   held_vs_per_call [calls]    (default 200 calls of gemm 128 per engine)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/team/machine.hpp"

namespace {

using namespace teamla;

double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 200;
  const linalg::index_t n = 128;
  std::vector<double> a(n * n, 1.0), b(n * n, 1.0), c(n * n, 0.0);
  auto av = linalg::col_major(a.data(), n, n), bv = linalg::col_major(b.data(), n, n);
  auto cv = linalg::col_major(c.data(), n, n);

  engine::CpuEngine held(engine::EngineConfig::from_env({.mode = engine::Mode::held}));
  engine::CpuEngine per_call(engine::EngineConfig::from_env({.mode = engine::Mode::per_call}));
  std::vector<double> held_us, per_call_us;
  for (int call = 0; call < calls; ++call) {
    for (engine::CpuEngine* cpu : {&held, &per_call}) {  // alternate the arms
      const std::uint64_t start = team::monotonic_ns();
      cpu->gemm(linalg::Op::none, linalg::Op::none, 1.0, av, bv, 0.0, cv);
      const double us = double(team::monotonic_ns() - start) / 1e3;
      (cpu == &held ? held_us : per_call_us).push_back(us);
    }
  }
  const double h = median(held_us), p = median(per_call_us);
  std::printf("gemm %td, %d calls each, %zu threads\n", n, calls, held.width());
  std::printf("  held engine      median %8.1f us per call\n", h);
  std::printf("  per_call engine  median %8.1f us per call (%.1fx; %llu pools built)\n", p, p / h,
              static_cast<unsigned long long>(per_call.counters().pools_built));
  return c[0] == double(n) ? 0 : 1;
}
