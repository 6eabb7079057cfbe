// SPDX-License-Identifier: Apache-2.0
// process_engine.cpp: the process's one engine, its leases, and its fork and exit hooks.
//
// Memory ordering: `in_flight` and `closed` form a store-buffering pair, both seq_cst. A
// lease increments in_flight, then reads closed; the exit handler sets closed, then reads
// in_flight. In the single total order one of the two sees the other: either the lease sees
// closed (and runs serially) or the handler sees the lease (and leaves the engine alive).
// `engine` is published with release after construction and read with acquire.
#include "process_engine.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <type_traits>

#include "call_log.hpp"
#include "teamla/team/process.hpp"

namespace teamla::blas {
namespace {

struct ProcessEngine {
  std::mutex creation;  // held to create or destroy the engine, and across fork()
  std::atomic<engine::CpuEngine*> engine{nullptr};
  std::atomic<int> in_flight{0};
  std::atomic<bool> closed{false};
  bool creation_failed = false;  // guarded by `creation`: serial from then on
  bool hooks_installed = false;  // guarded by `creation`
};

// Constant-initialised and trivially destructible (never destroyed), so it is valid in every
// exit handler and in calls made from other libraries' destructors.
static_assert(std::is_trivially_destructible_v<ProcessEngine>);
constinit ProcessEngine g_process;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

// positive_count(): the leading positive integer of `text` ("4", "4,2" for OMP's nested
// list), or 0.
std::size_t positive_count(const char* text) {
  if (text == nullptr) return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || value <= 0) return 0;
  return static_cast<std::size_t>(value);
}

void before_fork() { g_process.creation.lock(); }
void after_fork_in_parent() { g_process.creation.unlock(); }
void after_fork_in_child() {
  g_process.engine.store(nullptr, std::memory_order_relaxed);
  g_process.in_flight.store(0, std::memory_order_relaxed);
  g_process.creation.unlock();
}

void print_counters(const engine::CpuEngine& engine) {
  const engine::EngineCounters counters = engine.counters();
  std::fprintf(stderr,
               "teamla_blas: engine at exit: %llu calls, %llu on the team, %llu contended; "
               "%llu sections, %llu join sleeps, %llu barrier sleeps, %llu member parks, "
               "%llu preemptions, %llu throttle activations\n",
               static_cast<unsigned long long>(counters.calls),
               static_cast<unsigned long long>(counters.team_calls),
               static_cast<unsigned long long>(counters.contended_calls),
               static_cast<unsigned long long>(counters.waits.sections),
               static_cast<unsigned long long>(counters.waits.join_sleeps),
               static_cast<unsigned long long>(counters.waits.barrier_sleeps),
               static_cast<unsigned long long>(counters.waits.member_parks),
               static_cast<unsigned long long>(counters.waits.preemptions),
               static_cast<unsigned long long>(counters.waits.throttle_activations));
  if (counters.threads_unavailable + counters.serial_fallbacks + counters.memory_fallbacks != 0) {
    std::fprintf(stderr,
                 "teamla_blas: shortfalls: %llu threads refused, %llu calls serial for lack of "
                 "a pool, %llu calls with small stack blocks for lack of workspace\n",
                 static_cast<unsigned long long>(counters.threads_unavailable),
                 static_cast<unsigned long long>(counters.serial_fallbacks),
                 static_cast<unsigned long long>(counters.memory_fallbacks));
  }
}

void close_at_exit() {
  std::lock_guard lock(g_process.creation);
  if (verbosity() > 0) {
    if (const auto* current = g_process.engine.load(std::memory_order_acquire)) {
      print_counters(*current);
    }
  }
  g_process.closed.store(true, std::memory_order_seq_cst);
  if (g_process.in_flight.load(std::memory_order_seq_cst) == 0) {
    delete g_process.engine.exchange(nullptr, std::memory_order_acq_rel);
  }
}

engine::EngineConfig config_from_env() {
  engine::EngineConfig base;
  base.threads =
      threads_from_env(std::getenv("TEAMLA_NUM_THREADS"), std::getenv("OPENBLAS_NUM_THREADS"),
                       std::getenv("OMP_NUM_THREADS"));
  try {
    // TEAMLA_NUM_THREADS and the other TEAMLA_* settings, applied over the base.
    return engine::EngineConfig::from_env(base);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: ignoring the TEAMLA_* environment: %s\n", error.what());
    return base;
  }
}

engine::CpuEngine* create_engine() {
  std::lock_guard lock(g_process.creation);
  if (g_process.closed.load(std::memory_order_seq_cst) || g_process.creation_failed) {
    return nullptr;
  }
  if (auto* existing = g_process.engine.load(std::memory_order_acquire)) return existing;
  if (!g_process.hooks_installed) {
    team::on_fork(before_fork, after_fork_in_parent, after_fork_in_child);
  }
  engine::CpuEngine* created = nullptr;
  try {
    created = new engine::CpuEngine(config_from_env());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: no thread team (%s); running serially\n", error.what());
    g_process.creation_failed = true;
    return nullptr;
  }
  if (!g_process.hooks_installed) {
    // Registered after the engine's construction initialised whatever statics it uses, so
    // the handler runs before their destructors.
    std::atexit(close_at_exit);
    g_process.hooks_installed = true;
  }
  g_process.engine.store(created, std::memory_order_release);
  return created;
}

}  // namespace

std::size_t threads_from_env(const char* teamla, const char* openblas, const char* omp) {
  for (const char* text : {teamla, openblas, omp}) {
    if (const std::size_t count = positive_count(text)) return count;
  }
  return 0;
}

EngineLease::EngineLease() {
  g_process.in_flight.fetch_add(1, std::memory_order_seq_cst);
  if (g_process.closed.load(std::memory_order_seq_cst)) {
    engine_ = nullptr;
    return;
  }
  engine_ = g_process.engine.load(std::memory_order_acquire);
  if (engine_ == nullptr) engine_ = create_engine();
}

EngineLease::~EngineLease() { g_process.in_flight.fetch_sub(1, std::memory_order_seq_cst); }

void describe_engine(char* text, std::size_t size) {
  // Held like a lease (without creating the engine), so the exit handler cannot destroy the
  // engine under us.
  g_process.in_flight.fetch_add(1, std::memory_order_seq_cst);
  const bool closed = g_process.closed.load(std::memory_order_seq_cst);
  const engine::CpuEngine* current =
      closed ? nullptr : g_process.engine.load(std::memory_order_acquire);
  if (current == nullptr) {
    std::snprintf(text, size,
                  closed ? "serially on the caller: the engine is closed"
                         : "the engine starts at the first call with work");
  } else {
    const std::string_view mode = engine::to_string(current->mode());
    const std::string_view isa = current->isa();
    std::snprintf(text, size, "engine %.*s, width %zu, isa %.*s", static_cast<int>(mode.size()),
                  mode.data(), current->width(), static_cast<int>(isa.size()), isa.data());
  }
  g_process.in_flight.fetch_sub(1, std::memory_order_seq_cst);
}

}  // namespace teamla::blas
