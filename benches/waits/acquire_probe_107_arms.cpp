// SPDX-License-Identifier: Apache-2.0
// acquire_probe_107_arms.cpp: one process of the faer#107 probe: one case under one arm.
//
// Cases (faer#107's arms, through the real kernels):
//   gemm_new_pool    gemm 128, a pool built for every call (faer's with_team), timed from
//                    build to drop: what the caller waits for (staged and passive reuse the
//                    workers the last call's pool handed back, legacy spawns and joins);
//   gemm_held_team   gemm 128 on a team held across calls;
//   chol_held_pool   potrf 2048 (lower) with the pool held and a team acquired per call.
// Arms: legacy and staged (teamla's wait policies), openblas (OpenBLAS's own threads, whose
// count the parent sets through OPENBLAS_NUM_THREADS; its pool is always held).
// The ideal of a call is its serial time, measured first in the same process, over the width.
#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "acquire_probe_107.hpp"
#include "common/matrices.hpp"
#include "common/stats.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

extern "C" void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info,
                        std::size_t uplo_length);

namespace teamla::bench {
namespace {

using linalg::col_major;
using linalg::Exec;
using linalg::Op;
using linalg::Uplo;

double now_us() { return static_cast<double>(team::monotonic_ns()) / 1000.0; }

// The kernel call of a case, on an Exec (teamla) or on OpenBLAS. One instance per process.
class Kernel {
 public:
  explicit Kernel(ProbeCase probe_case) : case_(probe_case) {
    if (case_ == ProbeCase::chol_held_pool) {
      n_ = 2048;
      source_ = spd_matrix(static_cast<long>(n_), 7);
      work_ = source_;
    } else {
      n_ = 128;
      a_ = random_matrix(static_cast<long>(n_), static_cast<long>(n_), 1);
      b_ = random_matrix(static_cast<long>(n_), static_cast<long>(n_), 2);
      work_ = std::vector<double>(n_ * n_, 0.0);
    }
  }

  // prepare() resets the output outside the timed region (potrf works in place).
  void prepare() {
    if (case_ == ProbeCase::chol_held_pool)
      std::copy(source_.begin(), source_.end(), work_.begin());
  }

  void run_teamla(Exec& exec) {
    const auto n = static_cast<linalg::index_t>(n_);
    if (case_ == ProbeCase::chol_held_pool) {
      if (linalg::potrf<double>(Uplo::lower, col_major(work_.data(), n, n), exec) != 0)
        throw std::runtime_error("potrf: matrix not positive definite");
    } else {
      linalg::gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a_.data(), n, n),
                           col_major<const double>(b_.data(), n, n), 0.0,
                           col_major(work_.data(), n, n), exec);
    }
  }

  void run_openblas() {
    const int n = static_cast<int>(n_);
    if (case_ == ProbeCase::chol_held_pool) {
      int info = 0;
      dpotrf_("L", &n, work_.data(), &n, &info, 1);
      if (info != 0) throw std::runtime_error("dpotrf_: matrix not positive definite");
    } else {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a_.data(), n, b_.data(),
                  n, 0.0, work_.data(), n);
    }
  }

 private:
  ProbeCase case_;
  std::size_t n_ = 0;
  std::vector<double> a_, b_, source_, work_;
};

// Times calls until `calls` are done, or `seconds` have passed after the first three.
template <class Call>
std::vector<double> time_calls(std::size_t calls, double seconds, Kernel& kernel, Call&& call) {
  std::vector<double> samples;
  const double start = now_us();
  for (std::size_t i = 0; i < calls; ++i) {
    if (i >= 3 && now_us() - start > seconds * 1e6) break;
    kernel.prepare();
    const double t0 = now_us();
    call();
    samples.push_back(now_us() - t0);
  }
  return samples;
}

}  // namespace

ProbeResult run_probe_process(ProbeCase probe_case, ProbeArm arm, std::size_t width) {
  Kernel kernel(probe_case);
  const bool chol = probe_case == ProbeCase::chol_held_pool;
  // chol 2048 takes ~50-150 ms a call here: 4 calls keep 120 processes of it near 2 minutes.
  const std::size_t calls = chol ? 4 : 60;
  const std::size_t serial_calls = chol ? 2 : 20;
  const double seconds = chol ? 2.0 : 1.0;
  ProbeResult result;

  // Serial reference first, before any pool exists.
  if (arm == ProbeArm::openblas) openblas_set_num_threads(1);
  Exec serial;
  kernel.prepare();
  if (arm == ProbeArm::openblas) {
    kernel.run_openblas();  // warm-up
    result.serial_us =
        median(time_calls(serial_calls, seconds, kernel, [&] { kernel.run_openblas(); }));
    openblas_set_num_threads(static_cast<int>(width));
    kernel.prepare();
    kernel.run_openblas();
    result.samples_us = time_calls(calls, seconds, kernel, [&] { kernel.run_openblas(); });
    result.max_width_used = width;
  } else {
    kernel.run_teamla(serial);
    result.serial_us =
        median(time_calls(serial_calls, seconds, kernel, [&] { kernel.run_teamla(serial); }));
    const team::WaitPolicy policy = arm == ProbeArm::legacy    ? team::WaitPolicy::legacy
                                    : arm == ProbeArm::passive ? team::WaitPolicy::passive
                                                               : team::WaitPolicy::staged;
    // As the engine's per_call mode: a pool built per call takes the workers the previous
    // call's pool handed back, except under legacy, which spawns and joins them every call
    // (threadteam 0.1.3, the faer#107 arm). Held pools are built once either way.
    auto build = [&] {
      return team::Pool::builder()
          .threads(width)
          .policy(policy)
          .reuse_threads(policy != team::WaitPolicy::legacy)
          .build();
    };
    // The legacy arm plans as threadteam 0.1.3 did too: the cost model alone.
    const linalg::WidthRule rule =
        arm == ProbeArm::legacy ? linalg::WidthRule::model : linalg::WidthRule::observed;
    linalg::Workspace workspace;
    if (probe_case == ProbeCase::gemm_new_pool) {
      result.samples_us = time_calls(calls, seconds, kernel, [&] {
        auto pool = build();
        team::Team team = pool->acquire(width);
        Exec exec{&team, &workspace, 0, rule, {}};
        kernel.run_teamla(exec);
        result.max_width_used = std::max(result.max_width_used, exec.stats.max_width_used);
      });
    } else {
      auto pool = build();
      std::optional<team::Team> held;
      if (probe_case == ProbeCase::gemm_held_team) held.emplace(pool->acquire(width));
      auto call = [&] {
        std::optional<team::Team> per_call;
        team::Team& team = held ? *held : per_call.emplace(pool->acquire(width));
        Exec exec{&team, &workspace, 0, rule, {}};
        kernel.run_teamla(exec);
        result.max_width_used = std::max(result.max_width_used, exec.stats.max_width_used);
      };
      kernel.prepare();
      call();  // warm-up: the workspace reaches its size
      result.samples_us = time_calls(calls, seconds, kernel, call);
    }
  }
  result.median_us = median(result.samples_us);
  return result;
}

}  // namespace teamla::bench
