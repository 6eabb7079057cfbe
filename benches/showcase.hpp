// SPDX-License-Identifier: Apache-2.0
// showcase.hpp: the arms of the showcase (scripts/demo). Each arm runs in a process of its
// own (showcase re-executes itself with --arm NAME), so that no library's idle threads steal
// CPU from another's measurement; an arm prints "key value" lines that the parent gathers.
#pragma once

#include <memory>
#include <string>

namespace teamla::showcase {

// The sizes of the table. gemm: square, double, column-major NN, alpha 1, beta 0, hot
// cache. potrf: lower, double, a fresh copy of an SPD matrix before every (timed) call.
inline constexpr long kGemmSizes[] = {64, 128, 256, 512, 1024};
inline constexpr long kCholSizes[] = {256, 1024, 2048};
// The engine comparison: gemm of this size, calls per arm process.
inline constexpr long kEngineGemmSize = 128;
inline constexpr int kEngineCalls = 200;

// DenseArm: one library's gemm and Cholesky on plain column-major arrays.
class DenseArm {
 public:
  virtual ~DenseArm() = default;
  // c = a * b, n x n, column-major, ld n.
  virtual void gemm(long n, const double* a, const double* b, double* c) = 0;
  // a = L * L^T in its lower triangle; returns LAPACK's info.
  virtual long potrf(long n, double* a) = 0;
};

std::unique_ptr<DenseArm> make_teamla_arm();
std::unique_ptr<DenseArm> make_openblas_arm();
std::unique_ptr<DenseArm> make_eigen_arm();  // nullptr when built without Eigen
std::string openblas_core();

// run_dense_arm() prints "gemm N SECONDS" and "potrf N SECONDS" (median per call).
int run_dense_arm(DenseArm& arm);
// run_engine_arm() prints "call MICROSECONDS" per gemm call of an engine in `mode`
// ("held", "per_call" or "per_call_legacy": per_call with the legacy waits).
int run_engine_arm(const std::string& mode);

}  // namespace teamla::showcase
