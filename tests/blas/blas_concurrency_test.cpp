// SPDX-License-Identifier: Apache-2.0
// blas_concurrency_test.cpp: libteamla_blas.so under concurrent callers.
//
// Contract covered: libteamla_blas.so's process-wide engine under concurrent callers. More
// callers than CPUs call the exported routines at once (most find the engine's team busy and
// run on their own thread); each gets its own correct result. Runs under tsan in CI.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "blas/blas_test_util.hpp"

namespace {

using namespace teamla::blas_test;

TEST(BlasConcurrency, ManyCallersEachGetTheirOwnResult) {
  // More callers than CPUs: most find the team busy and run on their own thread.
  constexpr int kCallers = 6;
  constexpr int kCallsEach = 12;
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t) {
    callers.emplace_back([t, &wrong] {
      for (int call = 0; call < kCallsEach; ++call) {
        const int size = 16 + 30 * ((t + call) % 7);  // up to 196: some calls use the team
        const unsigned seed = static_cast<unsigned>(1000 * t + call);
        if (!checked_dgemm(size, size + 5, size - 3, seed)) wrong.fetch_add(1);
        if (call % 4 == 0 && !checked_cholesky(size, seed)) wrong.fetch_add(1);
      }
    });
  }
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
