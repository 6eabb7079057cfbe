// SPDX-License-Identifier: Apache-2.0
// gemm_bench_driver.hpp: the shared driver of the gemm benchmarks, one executable per arm.
//
// Each arm (teamla, OpenBLAS, BLIS, Eigen) is its own process, so that one library's idle
// threads (OpenBLAS and libgomp spin after a call) never steal CPU from another's run, and
// so that OpenBLAS and BLIS, which both export cblas_*, never meet in one link.
// scripts/bench-gemm alternates the processes and scripts/plot-gemm renders the results.
//
//   gemm_bench_<arm> --threads T --type d|s [--shapes 32,64,4096x64x64,...] [--batches 5]
//                    [--json FILE]
// Column-major NN, alpha = 1, beta = 0, hot cache (operands reused across calls). Per shape:
// one warm-up call, then `batches` batches of >= 10 ms each; the median per-call time
// of the batches is reported as GF/s = 2mnk / t, both for wall time and for the calling
// thread's CPU time (on this shared 2-CPU VM the CPU time is immune to preemption by other
// processes, so it is the robust figure for 1-thread runs; wall time is the figure for
// 2-thread runs).
#pragma once

#include <cstddef>
#include <string>

namespace teamla::bench {

struct GemmArm {
  virtual ~GemmArm() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  // describe(): library version/config worth recording (e.g. OpenBLAS core name).
  [[nodiscard]] virtual std::string describe() const { return ""; }
  virtual void set_threads(int threads) = 0;
  // C (m x n) = A (m x k) * B (k x n), all column-major, tight leading dimensions.
  virtual void dgemm(long m, long n, long k, const double* a, const double* b, double* c) = 0;
  virtual void sgemm(long m, long n, long k, const float* a, const float* b, float* c) = 0;
  // width_used(): threads the last call used, where the arm can tell (-1 otherwise).
  [[nodiscard]] virtual int width_used() const { return -1; }
};

// run_gemm_bench() parses argv, runs the shapes on `arm` and prints/writes JSON.
int run_gemm_bench(GemmArm& arm, int argc, char** argv);

}  // namespace teamla::bench
