// SPDX-License-Identifier: Apache-2.0
// soak: a long mixed run of checked BLAS/LAPACK calls from several application threads, half
// on one shared CpuEngine and half through libteamla_blas.so, while the process forks and its
// affinity changes under it (docs/perf/soak.md).
// Not Google Benchmark: it checks calls for minutes under forks and affinity changes; no rate.
//
//   soak [--seconds 60] [--mode held|per_call|serial] [--threads 4] [--library PATH]
//        [--fork-ms 1000] [--affinity-ms 3000] [--warm-up-s 2] [--stall-s 30] [--seed S]
//        [--progress-s 60] [--json PATH]
//
// Every result is checked against a naive reference (soak_check.hpp). The engine runs in
// --mode; the ABI in whatever TEAMLA_MODE says (its own process engine). Foreign load comes
// from outside: scripts/soak runs the soak under benches/foreign_load.
//
// Exit status: 0 when every call and every forked child was right, no call stalled and the
// RSS stayed within its bound; 1 otherwise; 3 when the watchdog fired (no call or check
// completed for --stall-s seconds, or one call ran for 4 times that: a deadlock); 2 for usage.
//
// RSS bound: end <= start + max(64 MiB, 25 % of start), both read with every application
// thread paused between calls (so no operand of a call in flight is counted) and after the
// allocator has returned its free memory (malloc_trim), the start after the warm-up. The heap
// in use (mallinfo2) is recorded beside it. Caches that fill once (workspaces, thread stacks, the
// allocator's arenas) fill mostly in the warm-up and stay below 64 MiB after it; a leak of even a
// few bytes per call passes it within minutes at these call rates.
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "soak.hpp"

#ifndef TEAMLA_SOAK_BLAS
#define TEAMLA_SOAK_BLAS "libteamla_blas.so"
#endif

namespace {

using namespace soak;
using teamla::engine::CpuEngine;
using teamla::engine::EngineConfig;

struct Options {
  double seconds = 60, warm_up_s = 2, stall_s = 30, progress_s = 60;
  int threads = 4, fork_ms = 1000, affinity_ms = 3000;
  std::string mode = "held", library = TEAMLA_SOAK_BLAS, json;
  std::uint64_t seed = 0;
};

bool parse(int argc, char** argv, Options& o) {
  o.seed = now_ns();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i], value = argv[i + 1];
    if (arg == "--seconds")
      o.seconds = std::atof(value.c_str());
    else if (arg == "--mode")
      o.mode = value;
    else if (arg == "--threads")
      o.threads = std::atoi(value.c_str());
    else if (arg == "--library")
      o.library = value;
    else if (arg == "--fork-ms")
      o.fork_ms = std::atoi(value.c_str());
    else if (arg == "--affinity-ms")
      o.affinity_ms = std::atoi(value.c_str());
    else if (arg == "--warm-up-s")
      o.warm_up_s = std::atof(value.c_str());
    else if (arg == "--stall-s")
      o.stall_s = std::atof(value.c_str());
    else if (arg == "--seed")
      o.seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (arg == "--progress-s")
      o.progress_s = std::atof(value.c_str());
    else if (arg == "--json")
      o.json = value;
    else
      return false;
  }
  return argc % 2 == 1 && o.seconds > 0 && o.threads >= 2 && o.stall_s > 0 && o.progress_s > 0;
}

// Run: the shared state of the application threads and the monitor.
struct Run {
  Stats stats;
  std::vector<std::unique_ptr<Tracker>> trackers;
  std::atomic<bool> stop{false}, pause{false};
  std::atomic<int> paused{0};
  std::uint64_t started_ns = 0;
};

void application_thread(Run& run, Backend& backend, bool abi, Tracker& tracker,
                        std::uint64_t seed) {
  Rng rng(seed);
  while (!run.stop.load()) {
    if (run.pause.load()) {
      run.paused.fetch_add(1);
      while (run.pause.load() && !run.stop.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      run.paused.fetch_sub(1);
      continue;
    }
    run_random_call(backend, abi, rng, tracker);
  }
}

// stall(): empty, or what the watchdog found stuck, with every thread's call in flight.
std::string stall(Run& run, const Options& o) {
  const std::uint64_t now = now_ns();
  // A thread may stamp a time after `now` was read: such a span is 0, not an unsigned wrap.
  const auto seconds_since = [now](std::uint64_t then) {
    return then >= now ? 0.0 : double(now - then) / 1e9;
  };
  const double idle_s = seconds_since(run.stats.last_progress_ns.load());
  double longest_s = 0;
  std::string state;
  for (std::size_t t = 0; t < run.trackers.size(); ++t) {
    Tracker& tracker = *run.trackers[t];
    const std::uint64_t start = tracker.call_start_ns.load();
    const double in_call_s = start == 0 ? 0 : seconds_since(start);
    longest_s = std::max(longest_s, in_call_s);
    std::lock_guard<std::mutex> lock(tracker.mutex);
    state += "; thread " + std::to_string(t) +
             (start == 0 ? " between calls or paused (last: " : " in ") + tracker.current +
             (start == 0 ? ")" : " for " + std::to_string(in_call_s) + " s");
  }
  if (idle_s < o.stall_s && longest_s < 4 * o.stall_s) return {};
  return "no call completed for " + std::to_string(idle_s) + " s" + state;
}

// watch(): sleeps `ms` while sampling the RSS maximum; false when the watchdog fired.
bool watch(Run& run, const Options& o, Result& r, int ms) {
  for (int slept = 0; slept < ms; slept += 100) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    r.rss_max = std::max(r.rss_max, rss_bytes());
    r.watchdog = stall(run, o);
    if (!r.watchdog.empty()) return false;
  }
  return true;
}

// quiet_rss(): the RSS and the heap in use, with every application thread paused between
// calls; they resume afterwards, or stop there when `last`. The allocator first gives back
// the free memory it holds (malloc_trim), so that the RSS counts what is live, not the
// arenas' high-water mark after a large call.
bool quiet_rss(Run& run, const Options& o, Result& r, std::uint64_t& rss, std::uint64_t& heap,
               bool last) {
  run.pause.store(true);
  while (run.paused.load() < int(run.trackers.size())) {
    if (!watch(run, o, r, 100)) return false;
  }
  const struct mallinfo2 info = mallinfo2();
  heap = info.uordblks + info.hblkhd;
  malloc_trim(0);
  rss = rss_bytes();
  if (last) run.stop.store(true);
  run.pause.store(false);
  return true;
}

// A line every --progress-s in a long run, so that its log shows the trend (read with calls
// in flight, unlike the start and end readings).
void progress_line(const Run& run, std::uint64_t started) {
  std::uint64_t calls = 0, bad = 0;
  for (int row = 0; row < kRows; ++row) {
    calls += run.stats.calls[row].load();
    bad += run.stats.failures[row].load() + run.stats.wrong[row].load();
  }
  const struct mallinfo2 heap = mallinfo2();
  std::printf(
      "soak: %4.0f s: %llu calls, %llu failed or wrong, %llu forks, RSS %.1f MiB, "
      "heap in use %.1f MiB\n",
      double(now_ns() - started) / 1e9, (unsigned long long)calls, (unsigned long long)bad,
      (unsigned long long)run.stats.forks.load(), double(rss_bytes()) / (1024.0 * 1024.0),
      double(heap.uordblks + heap.hblkhd) / (1024.0 * 1024.0));
  std::fflush(stdout);
}

// fire(): the watchdog's way out. The stuck threads cannot be joined, so the report is
// written from here and the process leaves without running destructors.
[[noreturn]] void fire(Run& run, const Options& o, Result& r, CpuEngine& engine) {
  r.counters = engine.counters();
  r.rss_end = rss_bytes();
  r.seconds = double(now_ns() - run.started_ns) / 1e9;
  print_table(run.stats, r);
  if (!o.json.empty()) write_json(o.json, run.stats, r);
  std::fflush(nullptr);
  _exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: soak [--seconds S] [--mode held|per_call|serial] [--threads N] "
                 "[--library PATH] [--fork-ms MS] [--affinity-ms MS] [--warm-up-s S] "
                 "[--stall-s S] [--seed S] [--progress-s S] [--json PATH]\n");
    return 2;
  }
  // Operands of 1 MiB and more are mapped and unmapped each call, never parked in the heap,
  // so that the RSS reflects what the library keeps rather than the allocator's high-water
  // mark of this driver's own buffers.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  std::string error;
  std::unique_ptr<Backend> abi = open_abi(o.library, error);
  if (abi == nullptr) {
    std::fprintf(stderr, "soak: %s: %s\n", o.library.c_str(), error.c_str());
    return 2;
  }
  EngineConfig config;
  std::unique_ptr<CpuEngine> shared;
  try {
    config = EngineConfig::from_env();
    config.mode = teamla::engine::parse_mode(o.mode, "--mode");
    shared = std::make_unique<CpuEngine>(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak: %s\n", e.what());
    return 2;
  }
  CpuEngine& engine = *shared;
  std::unique_ptr<Backend> on_engine = engine_backend(engine);

  Result r;
  r.threads = o.threads;
  r.seed = o.seed;
  r.engine_mode = o.mode;
  const char* abi_mode = std::getenv("TEAMLA_MODE");
  r.abi_mode = abi_mode != nullptr ? abi_mode : "held";
  r.library = o.library;
  r.host = machine();
  std::printf("soak: %.0f s, %d threads, engine %s (width %zu), abi %s, seed %llu\n", o.seconds,
              o.threads, o.mode.c_str(), engine.width(), r.abi_mode.c_str(),
              (unsigned long long)o.seed);
  std::fflush(stdout);

  Run run;
  run.stats.last_progress_ns.store(now_ns());
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) {
    run.trackers.push_back(std::make_unique<Tracker>());
    run.trackers.back()->stats = &run.stats;
  }
  for (int t = 0; t < o.threads; ++t) {
    const bool through_abi = t >= o.threads / 2;
    threads.emplace_back(application_thread, std::ref(run),
                         std::ref(through_abi ? *abi : *on_engine), through_abi,
                         std::ref(*run.trackers[t]), o.seed + 1000003ULL * std::uint64_t(t));
  }
  if (o.fork_ms > 0) {
    threads.emplace_back(fork_loop, std::cref(run.stop), std::ref(run.stats), std::ref(*abi),
                         std::cref(config), o.fork_ms);
  }
  if (o.affinity_ms > 0) {
    threads.emplace_back(affinity_loop, std::cref(run.stop), std::ref(run.stats), o.affinity_ms);
  }

  const std::uint64_t started = run.started_ns = now_ns();
  const int warm_up_ms = int(std::min(o.warm_up_s, o.seconds / 2) * 1000);
  if (!watch(run, o, r, warm_up_ms) || !quiet_rss(run, o, r, r.rss_start, r.heap_start, false)) {
    fire(run, o, r, engine);
  }
  r.rss_max = std::max(r.rss_max, r.rss_start);
  r.rss_bound = std::max<std::uint64_t>(64ULL << 20, r.rss_start / 4);
  const std::uint64_t end = started + std::uint64_t(o.seconds * 1e9);
  const auto progress_ns = std::uint64_t(o.progress_s * 1e9);
  for (std::uint64_t next_line = started + progress_ns; now_ns() < end;) {
    if (!watch(run, o, r, 100)) fire(run, o, r, engine);
    if (now_ns() >= next_line) {
      progress_line(run, started);
      next_line += progress_ns;
    }
  }
  if (!quiet_rss(run, o, r, r.rss_end, r.heap_end, true)) fire(run, o, r, engine);
  for (auto& thread : threads) thread.join();
  r.seconds = double(now_ns() - started) / 1e9;
  r.counters = engine.counters();
  print_table(run.stats, r);
  if (!o.json.empty() && !write_json(o.json, run.stats, r)) {
    std::fprintf(stderr, "soak: cannot write %s\n", o.json.c_str());
    return 1;
  }
  return passed(run.stats, r) ? 0 : 1;
}
