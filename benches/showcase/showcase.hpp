// SPDX-License-Identifier: Apache-2.0
// showcase.hpp: the arms of the showcase (scripts/demo). Each arm runs in a process of its
// own (showcase re-executes itself with --arm NAME), so that no library's idle threads steal
// CPU from another's measurement; an arm prints "key value" lines that the parent gathers.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace teamla::showcase {

// The sizes of the table. gemm: square, double, column-major NN, alpha 1, beta 0, hot
// cache. potrf: lower, double, a fresh copy of an SPD matrix before every (timed) call.
// getrf: double, a fresh copy of a random matrix before every (timed) call.
inline constexpr long kGemmSizes[] = {64, 128, 256, 512, 1024};
inline constexpr long kCholSizes[] = {256, 1024, 2048};
inline constexpr long kLuSizes[] = {256, 1024, 2048};
// The engine comparison: gemm of this size, calls per arm process.
inline constexpr long kEngineGemmSize = 128;
inline constexpr int kEngineCalls = 200;

// DenseArm: one library's gemm, Cholesky and LU on plain column-major arrays.
class DenseArm {
 public:
  virtual ~DenseArm() = default;
  // c = a * b, n x n, column-major, ld n.
  virtual void gemm(long n, const double* a, const double* b, double* c) = 0;
  // a = L * L^T in its lower triangle; returns LAPACK's info.
  virtual long potrf(long n, double* a) = 0;
  // a = P * L * U with partial pivoting (ipiv: n pivots); returns LAPACK's info.
  virtual long getrf(long n, double* a, int* ipiv) = 0;
};

std::unique_ptr<DenseArm> make_teamla_arm();         // CpuEngine, held team, all CPUs
std::unique_ptr<DenseArm> make_teamla_serial_arm();  // CpuEngine, serial: the 1-thread rate
std::unique_ptr<DenseArm> make_openblas_arm();
std::unique_ptr<DenseArm> make_sleeper_arm();  // sleeps 20 ms a product: the check's test
std::string openblas_core();

// run_dense_arm() prints "gemm N SECONDS" and, unless gemm_only, "potrf N SECONDS" and
// "getrf N SECONDS" (median
// per call). The Eigen arm is an executable of its own (showcase_eigen_arm.cpp).
int run_dense_arm(DenseArm& arm, bool gemm_only = false);
// run_engine_arm() prints "call MICROSECONDS" per gemm call of an engine in `mode`
// ("held", "per_call" or "per_call_legacy": per_call with the legacy waits).
int run_engine_arm(const std::string& mode);

// show_dense() measures and prints the gemm and Cholesky tables (`self`: this binary, quoted
// for the shell; `directory`: where the Eigen arm's executables are); returns how many of
// teamla's figures are implausibly low with no explanation (0 when the table is sound; a
// baseline's are shown and listed, not counted).
// `with_test_arm` adds the sleeper arm, which the plausibility check must flag.
int show_dense(const std::string& self, const std::string& directory, int rounds,
               bool with_test_arm);

// run_child() runs a shell command and returns its stdout lines (stderr passes through).
std::vector<std::string> run_child(const std::string& command);

// progress() shows what is being measured, on a terminal only (it rewrites one line).
template <class... Args>
void progress(const char* format, Args... args) {
  if (isatty(STDERR_FILENO) == 0) return;
  std::fprintf(stderr, "\r%-78s", "");
  std::fprintf(stderr, format, args...);
}

}  // namespace teamla::showcase
