// SPDX-License-Identifier: Apache-2.0
// section_cost.cpp: what the runtime measures on the machine at hand, the inputs of its waits and
// widths: the cost of a spin poll, the spin budget in polls, the usable CPUs, and
// Team::section_cost_ns at widths 2, 4, 8, ... up to the CPUs (a fresh pool for each width);
// and, for what those costs rest on, the round trip of one cache line between the first two
// CPUs of the affinity set (null with fewer than two usable): on a VM it changes with where the
// host put the vCPUs (445-520 ns on a 2-vCPU Zen 5 VM whose section cost was then 790-1140 ns;
// docs/team.md). Not Google Benchmark: it prints what the runtime measured at start, and one
// median.
//
//   section_cost            prints one JSON object
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {

// pin_to(): the calling thread onto `cpu` alone.
void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

// line_round_trip_ns(): the median over 9 batches of 20000 round trips of one cache line between
// two threads pinned to the first two CPUs of the affinity set; negative with fewer than two
// usable CPUs (under a quota of one, every trip would wait for a time slice).
double line_round_trip_ns() {
  if (teamla::team::usable_cpu_count() < 2) return -1;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  std::array<int, 2> cpus{-1, -1};
  for (int cpu = 0, found = 0; cpu < CPU_SETSIZE && found < 2; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) cpus[found++] = cpu;
  }
  if (cpus[1] < 0) return -1;
  constexpr int kBatches = 9;
  constexpr long kTrips = 20000;
  alignas(64) std::atomic<long> line{0};
  std::array<double, kBatches> batch_ns{};
  std::thread echo([&] {
    pin_to(cpus[1]);
    for (long i = 0; i < kBatches * kTrips; ++i) {
      while (line.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      line.store(2 * i + 2, std::memory_order_release);
    }
  });
  std::thread ping([&] {
    pin_to(cpus[0]);
    for (int b = 0; b < kBatches; ++b) {
      const auto start = std::chrono::steady_clock::now();
      for (long i = b * kTrips; i < (b + 1) * kTrips; ++i) {
        line.store(2 * i + 1, std::memory_order_release);
        while (line.load(std::memory_order_acquire) != 2 * i + 2) {
        }
      }
      const std::chrono::duration<double, std::nano> took =
          std::chrono::steady_clock::now() - start;
      batch_ns[b] = took.count() / kTrips;
    }
  });
  ping.join();
  echo.join();
  std::nth_element(batch_ns.begin(), batch_ns.begin() + kBatches / 2, batch_ns.end());
  return batch_ns[kBatches / 2];
}

}  // namespace

int main() {
  using namespace teamla::team;
  const unsigned cpus = affinity_cpu_count();
  auto pool = Pool::builder().threads(cpus).build();
  std::printf(
      "{\"cpus\": %u, \"usable_cpus\": %u, \"quota_cpus\": %u, \"spin_poll_ns\": %.2f, "
      "\"spin_polls\": %u, \"section_cost_ns\": {",
      cpus, usable_cpu_count(), cpu_quota_limit(), spin_poll_ns(), pool->spin_polls());
  const char* sep = "";
  for (unsigned width = 2; width <= cpus;
       width = width * 2 > cpus && width < cpus ? cpus : width * 2) {
    auto fresh = Pool::builder().threads(width).build();
    Team team = fresh->acquire(width);
    std::printf("%s\"%u\": %.0f", sep, width, team.section_cost_ns(width));
    sep = ", ";
  }
  const double round_trip = line_round_trip_ns();
  if (round_trip < 0) {
    std::printf("}, \"line_round_trip_ns\": null}\n");
  } else {
    std::printf("}, \"line_round_trip_ns\": %.0f}\n", round_trip);
  }
  return 0;
}
