// SPDX-License-Identifier: Apache-2.0
// showcase_arms.cpp: the showcase's arms: teamla's engine and OpenBLAS on dense gemm, Cholesky and
// LU, and the engine comparison.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <thread>
#include <vector>

#include "common/matrices.hpp"
#include "showcase.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/team/machine.hpp"

extern "C" char* openblas_get_corename();
extern "C" void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv,
                        int* info);

namespace teamla::showcase {
namespace {

using bench::random_matrix;
using linalg::col_major;

class TeamlaArm final : public DenseArm {
 public:
  explicit TeamlaArm(engine::Mode mode) : engine_(config_for(mode)) {}
  void gemm(long n, const double* a, const double* b, double* c) override {
    engine_.gemm(linalg::Op::none, linalg::Op::none, 1.0, col_major(a, n, n), col_major(b, n, n),
                 0.0, col_major(c, n, n));
  }
  long potrf(long n, double* a) override {
    return engine_.potrf(linalg::Uplo::lower, col_major(a, n, n));
  }
  long getrf(long n, double* a, int* ipiv) override {
    return engine_.getrf(col_major(a, n, n), std::span<int>(ipiv, static_cast<std::size_t>(n)));
  }

 private:
  static engine::EngineConfig config_for(engine::Mode mode) {
    engine::EngineConfig config;  // all CPUs, default waits
    config.mode = mode;
    return config;
  }
  engine::CpuEngine engine_;
};

class OpenblasArm final : public DenseArm {
 public:
  void gemm(long n, const double* a, const double* b, double* c) override {
    const auto ni = static_cast<int>(n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0, a, ni, b, ni, 0.0, c,
                ni);
  }
  long potrf(long n, double* a) override {
    const int ni = static_cast<int>(n);
    int info = 0;
    dpotrf_("L", &ni, a, &ni, &info);
    return info;
  }
  long getrf(long n, double* a, int* ipiv) override {
    const int ni = static_cast<int>(n);
    int info = 0;
    dgetrf_(&ni, &ni, a, &ni, ipiv, &info);
    return info;
  }
};

// SleeperArm: a "library" that takes 20 ms per product whatever its size, far under any real
// rate: the showcase test runs it to show that the plausibility check flags it.
class SleeperArm final : public DenseArm {
 public:
  void gemm(long /*n*/, const double* /*a*/, const double* /*b*/, double* /*c*/) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  long potrf(long /*n*/, double* /*a*/) override { return 0; }
  long getrf(long /*n*/, double* /*a*/, int* /*ipiv*/) override { return 0; }
};

double seconds_since(std::uint64_t start) { return double(team::monotonic_ns() - start) * 1e-9; }

}  // namespace

std::unique_ptr<DenseArm> make_teamla_arm() {
  return std::make_unique<TeamlaArm>(engine::Mode::held);
}
std::unique_ptr<DenseArm> make_teamla_serial_arm() {
  return std::make_unique<TeamlaArm>(engine::Mode::serial);
}
std::unique_ptr<DenseArm> make_openblas_arm() { return std::make_unique<OpenblasArm>(); }
std::unique_ptr<DenseArm> make_sleeper_arm() { return std::make_unique<SleeperArm>(); }
std::string openblas_core() { return openblas_get_corename(); }

int run_engine_arm(const std::string& mode) {
  engine::EngineConfig config;
  config.mode = mode == "held" ? engine::Mode::held : engine::Mode::per_call;
  if (mode == "per_call_legacy") {
    // threadteam 0.1.3: its spin-forever joins, and its plan, the cost model alone.
    config.wait_policy = team::WaitPolicy::legacy;
    config.width_rule = linalg::WidthRule::model;
  }
  engine::CpuEngine cpu(config);
  const long n = kEngineGemmSize;
  const std::vector<double> a = random_matrix(n, n, 1), b = random_matrix(n, n, 2);
  std::vector<double> c(a.size());
  auto gemm = [&] {
    cpu.gemm(linalg::Op::none, linalg::Op::none, 1.0, col_major(a.data(), n, n),
             col_major(b.data(), n, n), 0.0, col_major(c.data(), n, n));
  };
  gemm();
  // kArmSeconds bounds an arm's run: the slow mode can make one call take 100s of ms.
  constexpr double kArmSeconds = 1.5;
  const std::uint64_t begin = team::monotonic_ns();
  for (int call = 0; call < kEngineCalls && seconds_since(begin) < kArmSeconds; ++call) {
    const std::uint64_t start = team::monotonic_ns();
    gemm();
    std::printf("call %.3f\n", seconds_since(start) * 1e6);
  }
  return 0;
}

}  // namespace teamla::showcase
