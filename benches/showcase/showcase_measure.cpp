// SPDX-License-Identifier: Apache-2.0
// showcase_measure.cpp: the showcase's dense measurement loop, shared by every arm's process
// (the showcase itself and the Eigen arm's executables).
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/matrices.hpp"
#include "common/stats.hpp"
#include "showcase.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::showcase {
namespace {

double seconds_since(std::uint64_t start) { return double(team::monotonic_ns() - start) * 1e-9; }

// kMinCalls/kMinSeconds: each size is timed for at least this many calls and this long,
// after one untimed warm-up call; the median per-call time is reported.
constexpr int kMinCalls = 5;
constexpr double kMinSeconds = 0.04;

template <class Call>
double median_call_seconds(Call&& call) {
  std::vector<double> times;
  const std::uint64_t begin = team::monotonic_ns();
  while (int(times.size()) < kMinCalls || seconds_since(begin) < kMinSeconds) {
    times.push_back(call());
  }
  return bench::upper_median(times);
}

}  // namespace

int run_dense_arm(DenseArm& arm, bool gemm_only) {
  for (long n : kGemmSizes) {
    const std::vector<double> a = bench::random_matrix(n, n, 1), b = bench::random_matrix(n, n, 2);
    std::vector<double> c(a.size());
    arm.gemm(n, a.data(), b.data(), c.data());
    const double seconds = median_call_seconds([&] {
      const std::uint64_t start = team::monotonic_ns();
      arm.gemm(n, a.data(), b.data(), c.data());
      return seconds_since(start);
    });
    std::printf("gemm %ld %.9g\n", n, seconds);
  }
  if (gemm_only) return 0;
  for (long n : kCholSizes) {
    const std::vector<double> spd = bench::spd_matrix(n, 7);
    std::vector<double> work = spd;
    if (arm.potrf(n, work.data()) != 0) {
      std::fprintf(stderr, "showcase: potrf %ld failed\n", n);
      return 1;
    }
    const double seconds = median_call_seconds([&] {
      std::memcpy(work.data(), spd.data(), spd.size() * sizeof(double));
      const std::uint64_t start = team::monotonic_ns();
      arm.potrf(n, work.data());
      return seconds_since(start);
    });
    std::printf("potrf %ld %.9g\n", n, seconds);
  }
  for (long n : kLuSizes) {
    const std::vector<double> original = bench::random_matrix(n, n, 3);
    std::vector<double> work = original;
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    if (arm.getrf(n, work.data(), ipiv.data()) != 0) {
      std::fprintf(stderr, "showcase: getrf %ld failed\n", n);
      return 1;
    }
    const double seconds = median_call_seconds([&] {
      std::memcpy(work.data(), original.data(), original.size() * sizeof(double));
      const std::uint64_t start = team::monotonic_ns();
      arm.getrf(n, work.data(), ipiv.data());
      return seconds_since(start);
    });
    std::printf("getrf %ld %.9g\n", n, seconds);
  }
  return 0;
}

}  // namespace teamla::showcase
