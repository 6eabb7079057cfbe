// SPDX-License-Identifier: Apache-2.0
// section_cost.cpp: what the runtime measures on the machine at hand, the inputs of its waits and
// widths: the cost of a spin poll, the spin budget in polls, the usable CPUs, and
// Team::section_cost_ns at widths 2, 4, 8, ... up to the CPUs (a fresh pool for each width).
// Not Google Benchmark: it times nothing; it prints what the runtime measured at start.
//
//   section_cost            prints one JSON object
#include <cstdio>

#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

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
  std::printf("}}\n");
  return 0;
}
