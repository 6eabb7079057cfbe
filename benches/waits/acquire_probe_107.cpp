// SPDX-License-Identifier: Apache-2.0
// acquire_probe_107.cpp: how many separate processes fall into the faer#107 slow mode.
// Not Google Benchmark: it counts the fresh processes that fall into a slow mode, not a rate.
//
//   acquire_probe_107 [--processes 20] [--width W] [--cases gemm_new_pool,gemm_held_team,
//                     chol_held_pool] [--arms legacy,staged,openblas[,passive]] [--json FILE]
//
// faer#107's evidence was per process: a process either lands in the slow mode (its threads
// stacked for good) or does not, so the probe runs every case under every arm as `processes`
// separate processes, the arms alternated, and counts the processes whose median call is
// slower than 10x the ideal (serial time / width, measured in the same process). Load is
// applied from outside: `foreign_load --load 2:10 -- acquire_probe_107 ...`.
// Internally, `acquire_probe_107 --child CASE ARM WIDTH` runs one process and prints
// "median_us serial_us max_width_used calls".
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "acquire_probe_107.hpp"
#include "common/args.hpp"
#include "common/stats.hpp"
#include "teamla/team/machine.hpp"

extern char** environ;

namespace teamla::bench {
namespace {

constexpr double kSlowFactor = 10;

const char* name_of(ProbeCase c) {
  switch (c) {
    case ProbeCase::gemm_new_pool:
      return "gemm_new_pool";
    case ProbeCase::gemm_held_team:
      return "gemm_held_team";
    case ProbeCase::chol_held_pool:
      return "chol_held_pool";
  }
  return "?";
}

const char* name_of(ProbeArm a) {
  switch (a) {
    case ProbeArm::legacy:
      return "legacy";
    case ProbeArm::staged:
      return "staged";
    case ProbeArm::openblas:
      return "openblas";
    case ProbeArm::passive:
      return "passive";
  }
  return "?";
}

ProbeCase parse_case(const std::string& text) {
  for (ProbeCase c :
       {ProbeCase::gemm_new_pool, ProbeCase::gemm_held_team, ProbeCase::chol_held_pool})
    if (text == name_of(c)) return c;
  throw std::invalid_argument("unknown case " + text);
}

ProbeArm parse_arm(const std::string& text) {
  for (ProbeArm a : {ProbeArm::legacy, ProbeArm::staged, ProbeArm::openblas, ProbeArm::passive})
    if (text == name_of(a)) return a;
  throw std::invalid_argument("unknown arm " + text);
}

struct ChildReport {
  double median_us = 0, serial_us = 0;
  std::size_t max_width_used = 0, calls = 0;
  bool ok = false;
};

// Runs one child process: this binary with --child, its stdout read through a pipe. The
// OpenBLAS arm gets `width` OpenBLAS threads, the teamla arms one (so OpenBLAS's idle threads
// do not exist there).
ChildReport spawn_child(ProbeCase c, ProbeArm a, std::size_t width) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const std::string width_text = std::to_string(width);
  const std::string blas_threads = a == ProbeArm::openblas ? width_text : "1";
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    setenv("OPENBLAS_NUM_THREADS", blas_threads.c_str(), 1);
    const char* argv[] = {"acquire_probe_107", "--child",          name_of(c),
                          name_of(a),          width_text.c_str(), nullptr};
    execve("/proc/self/exe", const_cast<char**>(argv), environ);
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string output;
  char buffer[256];
  for (ssize_t got; (got = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (got > 0) output.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ChildReport report;
  std::istringstream fields(output);
  report.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
              static_cast<bool>(fields >> report.median_us >> report.serial_us >>
                                report.max_width_used >> report.calls);
  return report;
}

struct Cell {
  ProbeCase probe_case;
  ProbeArm arm;
  std::vector<ChildReport> reports;
};

std::string to_json(const std::vector<Cell>& cells, std::size_t width, std::size_t processes) {
  std::ostringstream out;
  out << "{\n  \"bench\": \"acquire_probe_107\",\n  \"width\": " << width
      << ",\n  \"affinity_cpus\": " << team::affinity_cpu_count()
      << ",\n  \"processes\": " << processes << ",\n  \"slow_factor\": " << kSlowFactor
      << ",\n  \"results\": [";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell& cell = cells[i];
    std::vector<double> medians, serials;
    std::size_t slow = 0, failed = 0, widest = 0;
    for (const ChildReport& r : cell.reports) {
      if (!r.ok) {
        ++failed;
        continue;
      }
      medians.push_back(r.median_us);
      serials.push_back(r.serial_us);
      widest = std::max(widest, r.max_width_used);
      if (r.median_us > kSlowFactor * r.serial_us / static_cast<double>(width)) ++slow;
    }
    out << (i ? ",\n" : "\n") << "    {\"case\": \"" << name_of(cell.probe_case)
        << "\", \"arm\": \"" << name_of(cell.arm) << "\", \"processes\": " << medians.size()
        << ", \"failed_processes\": " << failed << ", \"slow_processes\": " << slow
        << ", \"median_us\": " << median(medians)
        << ", \"ideal_us\": " << median(serials) / static_cast<double>(width)
        << ", \"max_width_used\": " << widest << ", \"medians_us\": [";
    for (std::size_t k = 0; k < medians.size(); ++k) out << (k ? ", " : "") << medians[k];
    out << "]}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

int run_child(int argc, char** argv) {
  if (argc != 5) throw std::invalid_argument("--child CASE ARM WIDTH");
  const ProbeResult result =
      run_probe_process(parse_case(argv[2]), parse_arm(argv[3]), std::stoul(argv[4]));
  std::printf("%.3f %.3f %zu %zu\n", result.median_us, result.serial_us, result.max_width_used,
              result.samples_us.size());
  return 0;
}

int run(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--child") return run_child(argc, argv);
  std::size_t processes = 20, width = team::affinity_cpu_count();
  std::vector<ProbeCase> cases{ProbeCase::gemm_new_pool, ProbeCase::gemm_held_team,
                               ProbeCase::chol_held_pool};
  std::vector<ProbeArm> arms{ProbeArm::legacy, ProbeArm::staged, ProbeArm::openblas};
  std::string json_path;
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    if (!cursor.has_value()) throw std::invalid_argument("missing value after " + arg);
    const std::string value = cursor.value();
    if (arg == "--processes") {
      processes = std::stoul(value);
    } else if (arg == "--width") {
      width = std::stoul(value);
    } else if (arg == "--cases") {
      cases.clear();
      for (const auto& name : split_list(value)) cases.push_back(parse_case(name));
    } else if (arg == "--arms") {
      arms.clear();
      for (const auto& name : split_list(value)) arms.push_back(parse_arm(name));
    } else if (arg == "--json") {
      json_path = value;
    } else {
      throw std::invalid_argument("unknown argument " + arg);
    }
  }
  std::vector<Cell> cells;
  for (ProbeCase c : cases)
    for (ProbeArm a : arms) cells.push_back({c, a, {}});
  // Alternate: every repetition visits every cell, starting from a rotating arm.
  for (std::size_t p = 0; p < processes; ++p) {
    for (std::size_t k = 0; k < cells.size(); ++k) {
      Cell& cell = cells[(k + p) % cells.size()];
      cell.reports.push_back(spawn_child(cell.probe_case, cell.arm, width));
    }
  }
  const std::string json = to_json(cells, width, processes);
  if (json_path.empty()) {
    std::cout << json;
  } else {
    std::ofstream(json_path) << json;
  }
  return 0;
}

}  // namespace
}  // namespace teamla::bench

int main(int argc, char** argv) {
  try {
    return teamla::bench::run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "acquire_probe_107: " << error.what() << "\n";
    return 2;
  }
}
