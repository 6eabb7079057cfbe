// SPDX-License-Identifier: Apache-2.0
// cpus_linux.cpp: CPU counts and clocks on Linux.
#include <sched.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace teamla::team {

std::string kernel_release() {
  struct utsname names {};
  return uname(&names) == 0 ? std::string(names.release) : std::string();
}

unsigned affinity_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return static_cast<unsigned>(count);
  }
  return online_cpu_count();
}

unsigned online_cpu_count() {
  const long count = sysconf(_SC_NPROCESSORS_ONLN);
  return count > 0 ? static_cast<unsigned>(count) : 1U;
}

namespace {
std::uint64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}
}  // namespace

std::uint64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }
std::uint64_t coarse_monotonic_ns() { return clock_ns(CLOCK_MONOTONIC_COARSE); }

namespace {
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit ProcessNumber<double> g_spin_poll_ns;
}  // namespace

double spin_poll_ns() {
  return g_spin_poll_ns.get([] {
    constexpr int kPolls = 2000;
    constexpr int kRuns = 5;
    std::atomic<int> flag{0};
    double best = 1e9;
    for (int run = 0; run < kRuns; ++run) {
      const std::uint64_t start = monotonic_ns();
      for (int poll = 0; poll < kPolls; ++poll) {
        if (flag.load(std::memory_order_acquire) != 0) break;
        cpu_relax();
      }
      best = std::min(best, static_cast<double>(monotonic_ns() - start) / kPolls);
    }
    return std::max(best, 0.5);  // a floor for CPUs whose spin hint is a no-op
  });
}

std::uint64_t read_tsc() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return 0;
#endif
}

}  // namespace teamla::team
