// SPDX-License-Identifier: Apache-2.0
// gemm_dispatch_cost.cpp: measures what linalg/src/width.cpp's cost table holds: the time of
// one empty section (dispatch + join) on a held team, per width and per kind:
//   hot        back-to-back sections (members still spinning);
//   after_gap  the leader works alone ~1 ms between sections (members have been waiting);
//   parked     the leader sleeps 50 ms between sections (members asleep on their futex).
// Prints JSON: p50 and p90 in ns for each (width, kind).
//   gemm_dispatch_cost [--widths 2,3] [--samples 200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/args.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {

void busy_for_ns(std::uint64_t ns) {
  const std::uint64_t end = teamla::team::monotonic_ns() + ns;
  while (teamla::team::monotonic_ns() < end) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> widths = {2};
  int samples = 200;
  // Options come in pairs; an unknown one is skipped with its value.
  for (teamla::bench::ArgCursor cursor(argc, argv); cursor.next() && cursor.has_value();) {
    const std::string arg = cursor.name();
    const std::string value = cursor.value();
    if (arg == "--samples") {
      samples = std::atoi(value.c_str());
    } else if (arg == "--widths") {
      widths.clear();
      for (const std::string& width : teamla::bench::split_list(value)) {
        widths.push_back(std::stoul(width));
      }
    }
  }
  std::printf("{\"dispatch_cost_ns\": [");
  bool first = true;
  for (std::size_t w : widths) {
    auto pool = teamla::team::Pool::builder().threads(w).build();
    teamla::team::Team team = pool->acquire(w);
    struct Kind {
      const char* name;
      std::uint64_t gap_ns;
      bool sleep;
      int samples;
    };
    const Kind kinds[] = {{"hot", 0, false, samples},
                          {"after_gap", 1000000, false, samples / 2},
                          {"parked", 50000000, true, std::max(10, samples / 10)}};
    for (const Kind& kind : kinds) {
      std::vector<double> ns;
      for (int s = 0; s < kind.samples + 5; ++s) {
        if (kind.sleep) {
          std::this_thread::sleep_for(std::chrono::nanoseconds(kind.gap_ns));
        } else if (kind.gap_ns > 0) {
          busy_for_ns(kind.gap_ns);
        }
        const std::uint64_t t0 = teamla::team::monotonic_ns();
        team.run(w, [](teamla::team::Section&) {});
        const std::uint64_t t1 = teamla::team::monotonic_ns();
        if (s >= 5) {
          ns.push_back(static_cast<double>(t1 - t0));
        }
      }
      std::sort(ns.begin(), ns.end());
      std::printf("%s{\"width\": %zu, \"kind\": \"%s\", \"p50\": %.0f, \"p90\": %.0f}",
                  first ? "" : ", ", w, kind.name, ns[ns.size() / 2], ns[ns.size() * 9 / 10]);
      std::fflush(stdout);
      first = false;
    }
  }
  std::printf("]}\n");
  return 0;
}
