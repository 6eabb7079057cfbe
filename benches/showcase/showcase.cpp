// SPDX-License-Identifier: Apache-2.0
// showcase.cpp: what teamla sees of this machine, then one table of teamla against OpenBLAS and
// Eigen on gemm and Cholesky, and of a held engine against a per-call engine, quiet and
// under a foreign load. scripts/demo runs it (with OpenBLAS's fair environment).
// Not Google Benchmark: a checked demo table, quiet and under foreign load.
//
//   showcase [--rounds R] [--no-load]     the whole show (default 3 rounds, < 1 minute)
//   showcase --with-test-arm ...          adds a sleeping arm the plausibility check must
//                                         flag (exit status 3: the showcase test)
//   showcase --arm NAME                   one arm, in its own process (used by the above)
//
// Exit status 3: a teamla figure is implausibly low (under a tenth of the 1-thread rate) and
// the showcase has no explanation for it (showcase_dense.cpp); a baseline's is listed only.
//
// Every arm runs in a fresh process, re-executed from this binary, so that no library's
// idle threads (OpenBLAS and libgomp spin after a call, a held team spins between sections)
// steal CPU from another's measurement. Rounds alternate the arms; medians are quoted.
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/args.hpp"
#include "common/stats.hpp"
#include "showcase.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"
#include "teamla/version.hpp"

namespace {

using namespace teamla::showcase;
using teamla::bench::ArgCursor;
using teamla::bench::floor_rank;
using teamla::bench::upper_median;

void print_machine() {
  using namespace teamla::team;
  const CpuInfo& cpu = cpu_info();
  const CpuFeatures& f = cpu.features;
  std::printf("teamla %s showcase\n", TEAMLA_VERSION_STRING);
  std::printf("  CPU       %s (%s, family %u model %u)\n", cpu.brand.c_str(), cpu.vendor.c_str(),
              cpu.family, cpu.model);
  std::printf("  CPUs      %u in the affinity set, %u online\n", affinity_cpu_count(),
              online_cpu_count());
  std::printf("  ISA       avx2=%d fma=%d avx512f=%d dq=%d bw=%d vl=%d -> kernels: %s\n", f.avx2,
              f.fma, f.avx512f, f.avx512dq, f.avx512bw, f.avx512vl,
              f.has_avx512() ? "avx512" : (f.has_avx2_fma() ? "avx2" : "ref"));
  std::printf("  caches    L1d %zu KiB, L2 %zu KiB, L3 %zu KiB, line %zu B\n",
              cpu.caches.l1d / 1024, cpu.caches.l2 / 1024, cpu.caches.l3 / 1024, cpu.caches.line);
  // What the runtime measured here, the inputs of its waits and widths (docs/team.md).
  const unsigned quota = cpu_quota_limit();
  std::printf("  usable    %u CPUs (affinity %u, cgroup quota %s)\n", usable_cpu_count(),
              affinity_cpu_count(), quota == 0 ? "none" : std::to_string(quota).c_str());
  auto pool = Pool::builder().threads(affinity_cpu_count()).build();
  Team team = pool->acquire(affinity_cpu_count());
  const WaitTuning tuning;
  std::printf("  waits     spin %lld us = %u polls of %.1f ns (measured)\n",
              static_cast<long long>(tuning.spin_time.count()), pool->spin_polls(), spin_poll_ns());
  // Team::section_cost_ns() gives 200 us when no member joined a section within that long.
  const double section_ns = team.section_cost_ns(team.width());
  if (section_ns >= 200e3) {
    std::printf(
        "  sections  no member joined one within 200 us (a busy machine): measured "
        "again in 1 s\n");
  } else {
    std::printf("  sections  %zu wide: %.0f ns (measured)\n", team.width(), section_ns);
  }
}

std::string self_path() {
  char buffer[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (length <= 0) return "showcase";
  return std::string(buffer, static_cast<std::size_t>(length));
}

void show_engine_modes(const std::string& self, const std::string& foreign_load, int rounds);

int run_show(int rounds, bool with_load, bool with_test_arm) {
  print_machine();
  const std::string self = std::string("'").append(self_path()).append("'");
  const std::string directory = self_path().substr(0, self_path().rfind('/'));
  const std::string foreign_load = directory + "/foreign_load";
  const bool have_load = with_load && access(foreign_load.c_str(), X_OK) == 0;
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  std::printf("  OpenBLAS  core %s%s\n", openblas_core().c_str(),
              coretype != nullptr ? " (OPENBLAS_CORETYPE is set: not its fair baseline; run "
                                    "scripts/demo)"
                                  : "");
  std::fflush(stdout);

  const int unexplained = show_dense(self, directory, rounds, with_test_arm);
  show_engine_modes(self, have_load ? foreign_load : std::string(), rounds);
  std::printf(
      "\nFull reports: docs/perf/ (kernel comparisons, plots), docs/waits.md (the slow mode\n"
      "reproduced and fixed, with libgomp), docs/engine.md (modes, concurrency, errors),\n"
      "build/ (raw JSON). Re-run one arm: %s --arm held|per_call|openblas|...\n",
      self_path().c_str());
  if (unexplained > 0) {
    std::fprintf(stderr, "showcase: %d figure(s) implausibly low with no explanation\n",
                 unexplained);
    return 3;
  }
  return 0;
}

// show_engine_modes(): the engine modes table, quiet and (with a foreign_load binary) under
// the foreign load, alternated per round.
void show_engine_modes(const std::string& self, const std::string& foreign_load, int rounds) {
  const bool have_load = !foreign_load.empty();
  const std::vector<std::string> engine_arms = {"held", "per_call", "per_call_legacy"};
  std::map<std::string, std::vector<double>> quiet, loaded;
  for (int round = 0; round < rounds; ++round) {
    for (const std::string& arm : engine_arms) {
      for (bool load : {false, true}) {
        if (load && !have_load) continue;
        progress("\r  measuring the engine modes: round %d/%d, %s, %s", round + 1, rounds,
                 arm.c_str(), load ? "loaded" : "quiet");
        std::string command;
        if (load) command.append("'").append(foreign_load).append("' --load 2:10 -- ");
        command.append(self).append(" --arm ").append(arm);
        for (const std::string& line : run_child(command)) {
          std::istringstream in(line);
          std::string key;
          double us = 0;
          if (in >> key >> us && key == "call") (load ? loaded : quiet)[arm].push_back(us);
        }
      }
    }
  }
  progress("\r");
  // A call is "slow" when it takes more than 10x the quiet held median: the faer#107 mark.
  const double slow_us = 10 * upper_median(quiet["held"]);
  std::printf(
      "\nCpuEngine modes: gemm %ld, microseconds per call (slow: > %.0f us, 10x the quiet "
      "held median)\n",
      kEngineGemmSize, slow_us);
  std::printf("  %-28s %-32s %s\n", "", "------------ quiet -------------",
              have_load ? "--- foreign load 2 procs x 10 % ---" : "(no foreign_load binary)");
  std::printf("  %-28s %-32s %s\n", "", "median    p90      max   slow",
              have_load ? "median    p90      max   slow" : "");
  const char* labels[] = {"held (staged waits)", "per_call (staged waits)",
                          "per_call, legacy (faer#107)"};
  auto cell = [&](const std::vector<double>& calls) {
    if (calls.empty()) return std::string();
    const auto slow =
        std::count_if(calls.begin(), calls.end(), [&](double us) { return us > slow_us; });
    char text[80];
    std::snprintf(text, sizeof(text), "%6.0f %6.0f %8.0f %5.1f%%", upper_median(calls),
                  floor_rank(calls, 0.9), *std::max_element(calls.begin(), calls.end()),
                  100.0 * double(slow) / double(calls.size()));
    return std::string(text);
  };
  for (std::size_t i = 0; i < engine_arms.size(); ++i) {
    const auto& q = quiet[engine_arms[i]];
    const auto& l = loaded[engine_arms[i]];
    std::printf("  %-28s %-32s %-32s (%zu + %zu calls)\n", labels[i], cell(q).c_str(),
                cell(l).c_str(), q.size(), l.size());
  }
}

}  // namespace

std::vector<std::string> teamla::showcase::run_child(const std::string& command) {
  std::vector<std::string> lines;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return lines;
  char line[256];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) lines.emplace_back(line);
  if (pclose(pipe) != 0) std::fprintf(stderr, "showcase: '%s' failed\n", command.c_str());
  return lines;
}

int main(int argc, char** argv) {
  int rounds = 3;
  bool with_load = true;
  bool with_test_arm = false;
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    if (arg == "--arm" && cursor.has_value()) {
      const std::string arm = cursor.value();
      if (arm == "teamla") return run_dense_arm(*make_teamla_arm());
      if (arm == "openblas") return run_dense_arm(*make_openblas_arm());
      if (arm == "teamla_1t") return run_dense_arm(*make_teamla_serial_arm());
      if (arm == "sleeper") return run_dense_arm(*make_sleeper_arm(), true);
      if (arm == "held" || arm == "per_call" || arm == "per_call_legacy")
        return run_engine_arm(arm);
      std::fprintf(stderr, "showcase: unknown arm '%s'\n", arm.c_str());
      return 2;
    }
    if (arg == "--rounds" && cursor.has_value()) {
      rounds = std::max(1, std::atoi(cursor.value()));
    } else if (arg == "--no-load") {
      with_load = false;
    } else if (arg == "--with-test-arm") {
      with_test_arm = true;
    } else {
      std::fprintf(stderr,
                   "usage: showcase [--rounds R] [--no-load] [--with-test-arm] | --arm NAME\n");
      return 2;
    }
  }
  return run_show(rounds, with_load, with_test_arm);
}
