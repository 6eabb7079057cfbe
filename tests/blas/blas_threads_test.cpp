// SPDX-License-Identifier: Apache-2.0
// Contract covered: the thread-control calls of libteamla_blas.so (docs/blas.md, "Thread
// control"), linked directly as a C program would. openblas_set_num_threads and
// teamla_set_num_threads set one process-wide count that openblas_get_num_threads and
// teamla_get_num_threads read back; a count below 1 sets the engine's width, as OpenBLAS
// sets its pool's size; openblas_set_num_threads_local sets the calling thread's count only
// and returns the count it ran with before; the next call's width follows the count
// (growing the engine up to the usable CPUs). blas_threads_concurrency_test covers calls
// made while other threads change the counts.
//
// The width a call could use is read from the library's per-call log line
// (TEAMLA_BLAS_VERBOSE=2: "... (engine held, width W, isa ..., threads T)"), captured from
// stderr. The engine starts one thread wide (TEAMLA_NUM_THREADS=1), so that a larger count
// makes it grow.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "blas/blas_test_util.hpp"

namespace {

using namespace teamla::blas_test;

// Before main, hence before the library reads them at its first call.
[[maybe_unused]] const bool kEnvironmentSet = [] {
  setenv("TEAMLA_NUM_THREADS", "1", 1);
  setenv("TEAMLA_BLAS_VERBOSE", "2", 1);
  return true;
}();

// CallWidth: what the library's log says about one call.
struct CallWidth {
  int engine = 0;   // the engine's width
  int threads = 0;  // the most threads the call could use
};

// StderrCapture: redirects file descriptor 2 to a temporary file for its lifetime.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()), saved_(dup(2)) {
    std::fflush(stderr);
    dup2(fileno(file_), 2);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }
  std::string text() {
    restore();
    std::string result;
    std::rewind(file_);
    for (int c = std::fgetc(file_); c != EOF; c = std::fgetc(file_)) result.push_back(char(c));
    return result;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_;
};

// CallWidth of the last "dgemm_" line in `log`.
CallWidth parse_call(const std::string& log) {
  CallWidth width;
  const std::size_t line = log.rfind("teamla_blas: dgemm_ ");
  if (line == std::string::npos) return width;
  const std::size_t engine = log.find(", width ", line);
  const std::size_t threads = log.find(", threads ", line);
  if (engine != std::string::npos) width.engine = std::atoi(log.c_str() + engine + 8);
  if (threads != std::string::npos) width.threads = std::atoi(log.c_str() + threads + 10);
  return width;
}

// traced_dgemm(): a checked dgemm_ call large enough to use a team, and what it could use.
CallWidth traced_dgemm() {
  StderrCapture capture;
  EXPECT_TRUE(checked_dgemm(96, 96, 96, 5));
  return parse_call(capture.text());
}

// expect_inline_without_engine(): a checked dgemm_ 48 x 48 x 48 (past the tiny bound, within
// the ABI's inline volume) logs that it ran on one thread and that no engine exists yet.
void expect_inline_without_engine() {
  std::string log;
  {
    StderrCapture capture;
    EXPECT_TRUE(checked_dgemm(48, 48, 48, 5));
    log = capture.text();
  }
  EXPECT_NE(log.find("dgemm_ m=48 n=48 k=48 (the engine starts at the first call with work, "
                     "threads 1)"),
            std::string::npos)
      << log;
}

// affinity_cpus(): the CPUs this process may run on, which bound the engine's growth.
int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

TEST(BlasThreads, SetAndGetRoundTrip) {
  openblas_set_num_threads(3);
  EXPECT_EQ(openblas_get_num_threads(), 3);
  EXPECT_EQ(teamla_get_num_threads(), 3);
  teamla_set_num_threads(2);  // the same count, without forwarding
  EXPECT_EQ(openblas_get_num_threads(), 2);
  openblas_set_num_threads(1);
  EXPECT_EQ(teamla_get_num_threads(), 1);
}

TEST(BlasThreads, ACountBelowOneSetsTheEnginesWidth) {
  openblas_set_num_threads(1);
  const CallWidth before = traced_dgemm();
  ASSERT_GE(before.engine, 1);
  for (const int count : {0, -1, -1000}) {
    openblas_set_num_threads(1);
    openblas_set_num_threads(count);
    EXPECT_EQ(openblas_get_num_threads(), before.engine) << "count " << count;
  }
  teamla_set_num_threads(0);
  EXPECT_EQ(teamla_get_num_threads(), before.engine);
}

TEST(BlasThreads, AHugeCountIsClamped) {
  openblas_set_num_threads(1 << 30);
  EXPECT_EQ(openblas_get_num_threads(), 4096);
  // The engine grows no wider than the CPUs can run at once.
  const CallWidth call = traced_dgemm();
  EXPECT_LE(call.engine, affinity_cpus());
  EXPECT_EQ(call.threads, call.engine);
  openblas_set_num_threads(1);
}

TEST(BlasThreads, TheNextCallFollowsTheCount) {
  openblas_set_num_threads(1);
  EXPECT_EQ(traced_dgemm().threads, 1);
  openblas_set_num_threads(2);
  const CallWidth two = traced_dgemm();
  if (affinity_cpus() >= 2) {
    // One thread wide at first: the engine grew.
    EXPECT_EQ(two.engine, 2);
    EXPECT_EQ(two.threads, 2);
  } else {
    EXPECT_EQ(two.threads, 1);
  }
  openblas_set_num_threads(1);
  const CallWidth one = traced_dgemm();
  EXPECT_EQ(one.engine, two.engine);  // the engine stays; the count caps the call
  EXPECT_EQ(one.threads, 1);
}

// A product past the tiny bound but within the ABI's inline volume (64^3), on a call that can
// use one thread, runs on the caller without the engine (abi_routines.hpp, gemm_runs_inline()):
// the first such call creates no engine. A product past that volume goes to the engine.
TEST(BlasThreads, ASmallProductOnOneThreadSkipsTheEngine) {
  openblas_set_num_threads(1);
  expect_inline_without_engine();
  EXPECT_GE(traced_dgemm().engine, 1);  // 96^3: on the engine, which it created
}

// The same on a thread whose own count is 1 while the process-wide count is 2: the thread's
// count is read, though the one-thread test looks it up only once some thread has set one
// (process_engine.hpp, caller_runs_one_thread()).
TEST(BlasThreads, ASmallProductOnALocalCountOfOneSkipsTheEngine) {
  openblas_set_num_threads(2);
  EXPECT_EQ(openblas_set_num_threads_local(1), 2);
  expect_inline_without_engine();
  EXPECT_EQ(openblas_set_num_threads_local(0), 1);
  EXPECT_EQ(traced_dgemm().threads, std::min(2, affinity_cpus()));  // 96^3 at the count of 2
}

TEST(BlasThreads, TheLocalCountIsPerThreadAndReturnsThePrevious) {
  openblas_set_num_threads(2);
  const int engine = traced_dgemm().engine;
  const int process_wide = std::min(2, engine);
  std::thread other([&] {
    EXPECT_EQ(openblas_set_num_threads_local(1), 2);  // the process-wide count it ran with
    EXPECT_EQ(openblas_get_num_threads(), 1);
    EXPECT_EQ(traced_dgemm().threads, 1);
    EXPECT_EQ(openblas_set_num_threads_local(3), 1);
    EXPECT_EQ(openblas_set_num_threads_local(0), 3);  // cleared: back to the process-wide
    EXPECT_EQ(openblas_get_num_threads(), 2);
  });
  other.join();
  // This thread never saw the other's local counts.
  EXPECT_EQ(openblas_get_num_threads(), 2);
  EXPECT_EQ(traced_dgemm().threads, process_wide);
  // A local count wins over a later process-wide one, on its own thread.
  EXPECT_EQ(openblas_set_num_threads_local(1), 2);
  openblas_set_num_threads(2);
  EXPECT_EQ(openblas_get_num_threads(), 1);
  EXPECT_EQ(openblas_set_num_threads_local(-5), 1);
  EXPECT_EQ(openblas_get_num_threads(), 2);
}

}  // namespace
