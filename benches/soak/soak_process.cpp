// SPDX-License-Identifier: Apache-2.0
// soak_process.cpp: what the soak does to its own process while the calls run: fork()
// children that call the library, affinity changes of every thread, and the RSS reading.
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "soak.hpp"

namespace soak {
namespace {

using teamla::engine::CpuEngine;
using teamla::engine::EngineConfig;

// Sleeps up to `ms`, in short slices so that `stop` is honoured promptly.
void nap(const std::atomic<bool>& stop, int ms) {
  for (int slept = 0; slept < ms && !stop.load(); slept += 20) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(20, ms - slept)));
  }
}

// The child: only async-signal-safe output (write), since another parent thread may have held
// stdio's locks at fork(). The alarm is a backstop; the parent kills a hang after 10 s.
[[noreturn]] void child(Backend& abi, const EngineConfig& config, std::uint64_t seed) {
  alarm(30);
  std::mt19937_64 rng(seed);
  std::string problem;
  bool ok = checked_small_calls(abi, true, rng, problem);
  if (ok) {
    try {
      // The parent's engine is not usable here (its threads do not exist in the child): a
      // child that wants an engine builds its own.
      CpuEngine engine(config);
      ok = checked_small_calls(*engine_backend(engine), false, rng, problem);
    } catch (const std::exception& e) {
      ok = false;
      problem = std::string("child CpuEngine threw: ") + e.what();
    }
  }
  if (!ok) {
    const std::string line = "soak: child: " + problem + "\n";
    [[maybe_unused]] const auto written = write(2, line.data(), line.size());
  }
  _exit(ok ? 0 : 1);
}

// Waits for `pid` up to `timeout_ms`, then kills it. Returns the wait status; `hung` says
// whether it had to be killed.
int wait_child(pid_t pid, int timeout_ms, bool& hung) {
  const std::uint64_t deadline = now_ns() + std::uint64_t(timeout_ms) * 1000000ULL;
  int status = 0;
  hung = false;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (now_ns() > deadline) {
      hung = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status;
}

void note(Stats& stats, const std::string& line) {
  std::lock_guard<std::mutex> lock(stats.mutex);
  if (stats.first_problems.size() < 10) stats.first_problems.push_back(line);
  std::fprintf(stderr, "soak: %s\n", line.c_str());
}

std::vector<pid_t> threads_of_process() {
  std::vector<pid_t> tids;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return tids;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') tids.push_back(pid_t(std::atoi(entry->d_name)));
  }
  closedir(dir);
  return tids;
}

// A thread that exits meanwhile (ESRCH) is simply gone; one created meanwhile inherits its
// creator's set, old or new, and the next change reaches it.
void apply_to_all(const cpu_set_t& set) {
  for (pid_t tid : threads_of_process()) sched_setaffinity(tid, sizeof set, &set);
}

}  // namespace

void fork_loop(const std::atomic<bool>& stop, Stats& stats, Backend& abi,
               const EngineConfig& config, int period_ms) {
  for (std::uint64_t round = 1; !stop.load(); ++round) {
    const std::uint64_t started = now_ns();
    const pid_t pid = fork();
    if (pid == 0) child(abi, config, round * 7919);
    stats.forks.fetch_add(1);
    if (pid < 0) {
      stats.child_failures.fetch_add(1);
      note(stats, std::string("FAILED fork: ") + std::strerror(errno));
    } else {
      bool hung = false;
      const int status = wait_child(pid, 10000, hung);
      if (hung) {
        stats.child_hangs.fetch_add(1);
        note(stats, "HUNG forked child " + std::to_string(round) + ": killed after 10 s");
      } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        stats.child_failures.fetch_add(1);
        note(stats,
             "FAILED forked child " + std::to_string(round) + ": status " + std::to_string(status));
      }
    }
    const int spent_ms = int((now_ns() - started) / 1000000ULL);
    nap(stop, std::max(0, period_ms - spent_ms));
  }
}

void affinity_loop(const std::atomic<bool>& stop, Stats& stats, int period_ms) {
  cpu_set_t all;
  CPU_ZERO(&all);
  if (sched_getaffinity(0, sizeof all, &all) != 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &all)) {
      CPU_SET(cpu, &one);  // the first allowed CPU: CPU 0 unless started under taskset
      break;
    }
  }
  for (bool narrow = true; !stop.load(); narrow = !narrow) {
    nap(stop, period_ms);
    if (stop.load()) break;
    apply_to_all(narrow ? one : all);
    stats.affinity_changes.fetch_add(1);
  }
  apply_to_all(all);
}

std::uint64_t rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * std::uint64_t(sysconf(_SC_PAGESIZE));
}

Machine machine() {
  Machine m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      m.cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  utsname name{};
  if (uname(&name) == 0) m.kernel = name.release;
  m.cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) m.cpus_allowed = CPU_COUNT(&set);
  return m;
}

}  // namespace soak
