// SPDX-License-Identifier: Apache-2.0
// showcase.cpp: what teamla sees of this machine, then one table of teamla against OpenBLAS and
// Eigen on gemm and Cholesky, and of a held engine against a per-call engine, quiet and
// under a foreign load. scripts/demo runs it (with OpenBLAS's fair environment).
//
//   showcase [--rounds R] [--no-load]     the whole show (default 3 rounds, < 1 minute)
//   showcase --arm NAME                   one arm, in its own process (used by the above)
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

// run_child() runs a shell command and returns its stdout lines (stderr passes through).
std::vector<std::string> run_child(const std::string& command) {
  std::vector<std::string> lines;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return lines;
  char line[256];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) lines.emplace_back(line);
  if (pclose(pipe) != 0) std::fprintf(stderr, "showcase: '%s' failed\n", command.c_str());
  return lines;
}

// progress() shows what is being measured, on a terminal only (it rewrites one line).
template <class... Args>
void progress(const char* format, Args... args) {
  if (isatty(STDERR_FILENO) == 0) return;
  std::fprintf(stderr, "\r%-78s", "");
  std::fprintf(stderr, format, args...);
}

// DenseResults[arm]["gemm 64"] = the per-call seconds of each round.
using DenseResults = std::map<std::string, std::map<std::string, std::vector<double>>>;

void print_dense_table(const DenseResults& results, const std::vector<std::string>& arms,
                       const char* title, const char* kind, const long* sizes, std::size_t count,
                       double (*flops)(long)) {
  std::printf("\n%s\n  %-22s", title, "n");
  for (std::size_t s = 0; s < count; ++s) std::printf("%9ld", sizes[s]);
  std::printf("\n");
  std::vector<double> best(count, 0.0), ours(count, 0.0);
  for (const std::string& arm : arms) {
    std::printf("  %-22s", arm.c_str());
    for (std::size_t s = 0; s < count; ++s) {
      const auto& per_size = results.at(arm);
      const auto found = per_size.find(std::string(kind) + " " + std::to_string(sizes[s]));
      const double seconds = found == per_size.end() ? 0 : upper_median(found->second);
      const double gflops = seconds > 0 ? flops(sizes[s]) / seconds * 1e-9 : 0;
      std::printf("%9.1f", gflops);
      if (arm.rfind("teamla", 0) == 0) {
        ours[s] = gflops;
      } else {
        best[s] = std::max(best[s], gflops);
      }
    }
    std::printf("\n");
  }
  std::printf("  %-22s", "teamla / best other");
  for (std::size_t s = 0; s < count; ++s)
    std::printf("%8.2fx", best[s] > 0 ? ours[s] / best[s] : 0);
  std::printf("\n");
}

double gemm_flops(long n) { return 2.0 * double(n) * double(n) * double(n); }
double potrf_flops(long n) { return double(n) * double(n) * double(n) / 3.0; }

int run_show(int rounds, bool with_load) {
  print_machine();
  const std::string self = "'" + self_path() + "'";
  const std::string directory = self_path().substr(0, self_path().rfind('/'));
  const std::string foreign_load = directory + "/foreign_load";
  const bool have_load = with_load && access(foreign_load.c_str(), X_OK) == 0;
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  std::printf("  OpenBLAS  core %s%s\n", openblas_core().c_str(),
              coretype != nullptr ? " (OPENBLAS_CORETYPE is set: not its fair baseline; run "
                                    "scripts/demo)"
                                  : "");
  std::fflush(stdout);

  std::vector<std::string> dense_arms = {"teamla", "openblas"};
  if (make_eigen_arm() != nullptr && teamla::team::cpu_info().features.has_avx512())
    dense_arms.push_back("eigen");
  DenseResults dense;
  for (int round = 0; round < rounds; ++round) {
    for (const std::string& arm : dense_arms) {
      progress("\r  measuring gemm and cholesky: round %d/%d, %s", round + 1, rounds, arm.c_str());
      for (const std::string& line : run_child(self + " --arm " + arm)) {
        std::istringstream in(line);
        std::string kind;
        long n = 0;
        double seconds = 0;
        if (in >> kind >> n >> seconds)
          dense[arm][kind + " " + std::to_string(n)].push_back(seconds);
      }
    }
  }
  progress("\r");
  // Rename for the table.
  DenseResults named;
  std::vector<std::string> rows;
  for (const std::string& arm : dense_arms) {
    const std::string row = arm == "teamla"     ? "teamla (CpuEngine)"
                            : arm == "openblas" ? "OpenBLAS 0.3.21"
                                                : "Eigen 3.4";
    named[row] = dense[arm];
    rows.push_back(row);
  }
  const unsigned cpus = teamla::team::affinity_cpu_count();
  char title[200];
  std::snprintf(title, sizeof(title),
                "gemm, double, GF/s (C = A*B, square, hot cache; %u threads each; median of %d "
                "rounds)",
                cpus, rounds);
  print_dense_table(named, rows, title, "gemm", kGemmSizes, std::size(kGemmSizes), gemm_flops);
  std::snprintf(title, sizeof(title),
                "Cholesky (potrf, lower), double, GF/s = n^3/3 / time (Eigen: LLT in place)");
  print_dense_table(named, rows, title, "potrf", kCholSizes, std::size(kCholSizes), potrf_flops);
  std::fflush(stdout);

  // The engine modes: quiet, then under the foreign load, alternated per round.
  const std::vector<std::string> engine_arms = {"held", "per_call", "per_call_legacy"};
  std::map<std::string, std::vector<double>> quiet, loaded;
  for (int round = 0; round < rounds; ++round) {
    for (const std::string& arm : engine_arms) {
      for (bool load : {false, true}) {
        if (load && !have_load) continue;
        progress("\r  measuring the engine modes: round %d/%d, %s, %s", round + 1, rounds,
                 arm.c_str(), load ? "loaded" : "quiet");
        const std::string command =
            (load ? "'" + foreign_load + "' --load 2:10 -- " : std::string()) + self + " --arm " +
            arm;
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
  std::printf(
      "\nFull reports: docs/perf/ (kernel comparisons, plots), docs/waits.md (the slow mode\n"
      "reproduced and fixed, with libgomp), docs/engine.md (modes, concurrency, errors),\n"
      "build/ (raw JSON). Re-run one arm: %s --arm held|per_call|openblas|...\n",
      self_path().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  bool with_load = true;
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    if (arg == "--arm" && cursor.has_value()) {
      const std::string arm = cursor.value();
      if (arm == "teamla") return run_dense_arm(*make_teamla_arm());
      if (arm == "openblas") return run_dense_arm(*make_openblas_arm());
      if (arm == "eigen") {
        auto eigen = make_eigen_arm();
        return eigen ? run_dense_arm(*eigen) : 2;
      }
      if (arm == "held" || arm == "per_call" || arm == "per_call_legacy")
        return run_engine_arm(arm);
      std::fprintf(stderr, "showcase: unknown arm '%s'\n", arm.c_str());
      return 2;
    }
    if (arg == "--rounds" && cursor.has_value()) {
      rounds = std::max(1, std::atoi(cursor.value()));
    } else if (arg == "--no-load") {
      with_load = false;
    } else {
      std::fprintf(stderr, "usage: showcase [--rounds R] [--no-load] | --arm NAME\n");
      return 2;
    }
  }
  return run_show(rounds, with_load);
}
