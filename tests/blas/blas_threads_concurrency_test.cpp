// SPDX-License-Identifier: Apache-2.0
// Contract covered: libteamla_blas.so's calls stay correct while other threads change the
// thread counts (openblas_set_num_threads, openblas_set_num_threads_local), including the
// engine's replacement by a wider one under calls in flight and the retired engine's
// destruction once none is (docs/blas.md, "Thread control"). Runs under tsan in CI.
//
// The engine starts one thread wide (TEAMLA_NUM_THREADS=1, set before the first call), so
// that the first count of 2 or more replaces it while callers run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "blas/blas_test_util.hpp"

namespace {

using namespace teamla::blas_test;

[[maybe_unused]] const bool kEnvironmentSet = [] {
  setenv("TEAMLA_NUM_THREADS", "1", 1);
  return true;
}();

TEST(BlasThreadsConcurrency, CallsStayCorrectWhileCountsChange) {
  // Callers run checked calls while one thread changes the process-wide count and each
  // caller changes its own; the first count above the engine's width grows it under them.
  openblas_set_num_threads(1);
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  std::thread changer([&] {
    for (int round = 0; !done.load(); ++round) {
      openblas_set_num_threads(1 + round % 3);
      if (round % 5 == 0) openblas_set_num_threads(0);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([t, &wrong] {
      for (int call = 0; call < 10; ++call) {
        if (call % 3 == t % 3) openblas_set_num_threads_local(call % 4);
        const int size = 40 + 40 * ((t + call) % 4);
        if (!checked_dgemm(size, size + 3, size - 5, static_cast<unsigned>(100 * t + call))) {
          wrong.fetch_add(1);
        }
        if (call % 4 == 0 && !checked_cholesky(size, static_cast<unsigned>(t + call))) {
          wrong.fetch_add(1);
        }
      }
    });
  }
  for (auto& caller : callers) caller.join();
  done.store(true);
  changer.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
