// SPDX-License-Identifier: Apache-2.0
// process_engine.cpp: the process's one engine, its leases, and its fork and exit hooks.
//
// Memory ordering: `in_flight` and `closed` form a store-buffering pair, both seq_cst. A
// lease increments in_flight, then reads closed; the exit handler sets closed, then reads
// in_flight. In the single total order one of the two sees the other: either the lease sees
// closed (and runs serially) or the handler sees the lease (and leaves the engine alive).
// `engine` is stored and read seq_cst, which makes a second such pair with in_flight for
// retired engines: a replacement stores the new engine before the reaper (after the mutex)
// reads in_flight == 0, so a lease that increments in_flight after that read loads the new
// engine, and no lease can still reach a retired one.
#include "process_engine.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"
#include "verbosity.hpp"

namespace teamla::blas {
namespace {

// RetiredEngine: an engine replaced by a wider one, waiting for no call to be in flight.
struct RetiredEngine {
  engine::CpuEngine* engine;
  RetiredEngine* next;
};

struct ProcessEngine {
  std::mutex creation;  // held to create, replace or destroy the engine, and across fork()
  std::atomic<engine::CpuEngine*> engine{nullptr};
  std::atomic<int> in_flight{0};
  std::atomic<bool> closed{false};
  // The largest count the current engine was judged to serve (its configured threads, or a
  // larger request that the usable CPUs capped), so that the calls of a thread whose count
  // is above the engine's width take the creation mutex once, not at every call.
  std::atomic<std::size_t> serves{0};
  std::atomic<int> process_threads{0};  // 0: unset, the engine's width
  // Set (for good) when a thread first sets its own count: until then no thread has one, and
  // caller_runs_one_thread() need not look it up. A thread sets it before its own count, so
  // that thread's relaxed load sees it; no other thread needs to.
  std::atomic<bool> thread_counts_set{false};
  // The current engine's width (0: none), for caller_runs_one_thread(), which reads it without a
  // lease.
  std::atomic<std::size_t> width{0};
  std::atomic<bool> has_retired{false};
  RetiredEngine* retired = nullptr;  // guarded by `creation`
  bool creation_failed = false;      // guarded by `creation`: serial from then on
  bool growth_failed = false;        // guarded by `creation`: the engine stays as it is
  bool exit_hook_installed = false;  // guarded by `creation`
};

// Constant-initialised and trivially destructible (never destroyed), so it is valid in every
// exit handler and in calls made from other libraries' destructors.
static_assert(std::is_trivially_destructible_v<ProcessEngine>);
constinit ProcessEngine g_process;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

// The calling thread's own count (0: unset) and learned_inline_calls()'s counter.
struct ThreadState {
  int threads = 0;
  unsigned learned_inline_calls = 0;
};
constinit thread_local ThreadState t_state;

void before_fork() { g_process.creation.lock(); }
void after_fork_in_parent() { g_process.creation.unlock(); }
void after_fork_in_child() {
  // The counts set in the parent stay, as OpenBLAS's do; its engines, retired ones
  // included, are abandoned.
  g_process.engine.store(nullptr, std::memory_order_relaxed);
  g_process.in_flight.store(0, std::memory_order_relaxed);
  g_process.serves.store(0, std::memory_order_relaxed);
  g_process.width.store(0, std::memory_order_relaxed);
  g_process.retired = nullptr;
  g_process.has_retired.store(false, std::memory_order_relaxed);
  g_process.creation.unlock();
}

// The fork hooks are registered when the library is loaded, before any call can take
// `creation`: registered by a call, under the mutex, they would leave a window in which a fork()
// copies the mutex taken with no hook to release it in the child, whose first call would then
// wait for good (docs/team.md, "Fork").
[[maybe_unused]] const bool g_fork_hooked =
    team::on_fork(before_fork, after_fork_in_parent, after_fork_in_child);

// take_retired(): the retired engines, when no call is in flight; the caller holds
// `creation` and deletes them.
RetiredEngine* take_retired() {
  if (g_process.in_flight.load(std::memory_order_seq_cst) != 0) return nullptr;
  g_process.has_retired.store(false, std::memory_order_relaxed);
  return std::exchange(g_process.retired, nullptr);
}

void delete_retired(RetiredEngine* list) {
  while (list != nullptr) {
    delete list->engine;
    delete std::exchange(list, list->next);
  }
}

// reap_retired(): at the end of the last call in flight. It never waits for the mutex: a
// holder is creating or replacing the engine (and will retire into the list), so a later
// lease reaps.
void reap_retired() {
  std::unique_lock lock(g_process.creation, std::try_to_lock);
  if (!lock.owns_lock()) return;
  RetiredEngine* list = take_retired();
  lock.unlock();
  // Unreachable by any lease now; destroying joins their threads, outside the mutex.
  delete_retired(list);
}

// Figure: one count of the exit report, and what it counts ("calls", "on the team").
struct Figure {
  std::uint64_t count;
  const char* what;
};
using Figures = std::initializer_list<Figure>;

// print_figures(): one line of the exit report, "teamla_blas: <heading> 3 calls, 1 on the
// team; 7 sections", its groups of figures separated by ';' and written with one call, so that
// the line stays whole beside other threads' output.
void print_figures(const char* heading, std::initializer_list<Figures> groups) {
  char line[512];
  int used = std::snprintf(line, sizeof line, "teamla_blas: %s", heading);
  const char* separator = " ";
  for (const Figures& group : groups) {
    for (const Figure& figure : group) {
      if (used < 0 || static_cast<std::size_t>(used) >= sizeof line) break;
      used += std::snprintf(line + used, sizeof line - static_cast<std::size_t>(used), "%s%llu %s",
                            separator, static_cast<unsigned long long>(figure.count), figure.what);
      separator = ", ";
    }
    separator = "; ";
  }
  std::fprintf(stderr, "%s\n", line);
}

void print_counters(const engine::CpuEngine& engine) {
  const engine::EngineCounters counters = engine.counters();
  const team::WaitCounters& waits = counters.waits;
  print_figures("engine at exit:", {{{counters.calls, "calls"},
                                     {counters.team_calls, "on the team"},
                                     {counters.contended_calls, "contended"}},
                                    {{waits.sections, "sections"},
                                     {waits.join_sleeps, "join sleeps"},
                                     {waits.barrier_sleeps, "barrier sleeps"},
                                     {waits.member_parks, "member parks"},
                                     {waits.preemptions, "preemptions"},
                                     {waits.throttle_activations, "throttle activations"}}});
  print_figures("members:", {{{waits.members_left_out, "left out of a claimed section"},
                              {waits.late_joins, "late joins"},
                              {waits.idle_arrivals, "idle arrivals"},
                              {waits.stacked_waits, "stacked waits"},
                              {waits.cpu_moves, "CPU moves"},
                              {waits.wakes_ahead, "wakes ahead"}}});
  print_figures("CPU budget:",
                {{{counters.budget_limited_calls, "calls narrowed by other calls' CPUs"},
                  {waits.budget_narrowed, "sections granted fewer members"},
                  {waits.budget_leaves, "members left an over-committed section"}}});
  const linalg::WidthCacheStatus cache = linalg::width_cache_status();
  if (!cache.directory.empty()) {
    std::fprintf(stderr,
                 "teamla_blas: width cache %s: %zu decisions loaded, %zu files rejected, %zu "
                 "writes, %zu writes failed\n",
                 cache.directory.c_str(), cache.loaded, cache.rejected, cache.stored,
                 cache.write_failures);
  }
  if (counters.threads_unavailable + counters.serial_fallbacks + counters.memory_fallbacks != 0) {
    print_figures(
        "shortfalls:",
        {{{counters.threads_unavailable, "threads refused"},
          {counters.serial_fallbacks, "calls serial for lack of a pool"},
          {counters.memory_fallbacks, "calls with small stack blocks for lack of workspace"}}});
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
    g_process.width.store(0, std::memory_order_relaxed);
    delete g_process.engine.exchange(nullptr, std::memory_order_seq_cst);
    delete_retired(take_retired());
  }
}

// config_from_env(): the engine's configuration by the environment's rule (docs/blas.md,
// "Threads"), an invalid TEAMLA_* variable said on stderr.
engine::EngineConfig config_from_env() {
  std::string invalid;
  engine::EngineConfig config = engine::EngineConfig::from_blas_env(invalid);
  if (!invalid.empty()) {
    std::fprintf(stderr, "teamla_blas: ignoring the TEAMLA_* environment: %s\n", invalid.c_str());
  }
  return config;
}

// resolved_threads(): the width an engine built from `config` gets (0: the affinity set).
std::size_t resolved_threads(const engine::EngineConfig& config) {
  return config.threads != 0 ? config.threads : team::affinity_cpu_count();
}

// width_for(): the width an engine gets for a count of `wanted`: no wider than the usable
// CPUs, since no section can be wider.
std::size_t width_for(std::size_t wanted) {
  return std::min<std::size_t>(wanted, std::max(1U, team::usable_cpu_count()));
}

// first_config(): the environment's configuration, at least as wide as the first call's
// count allows, so that a count set before the first call needs no second engine.
engine::EngineConfig first_config(std::size_t wanted) {
  engine::EngineConfig config = config_from_env();
  config.threads = std::max(resolved_threads(config), width_for(wanted));
  return config;
}

// publish(): makes `created` the process engine, serving counts up to `serves`; the engine
// it replaces is retired. The caller holds `creation`.
void publish(engine::CpuEngine* created, std::size_t serves) {
  engine::CpuEngine* old = g_process.engine.exchange(created, std::memory_order_seq_cst);
  g_process.serves.store(serves, std::memory_order_relaxed);
  g_process.width.store(created->width(), std::memory_order_relaxed);
  if (old == nullptr) return;
  g_process.retired = new RetiredEngine{old, g_process.retired};
  g_process.has_retired.store(true, std::memory_order_relaxed);
}

engine::CpuEngine* create_first(std::size_t wanted) {
  engine::CpuEngine* created = nullptr;
  try {
    created = new engine::CpuEngine(first_config(wanted));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: no thread team (%s); running serially\n", error.what());
    g_process.creation_failed = true;
    return nullptr;
  }
  if (!g_process.exit_hook_installed) {
    // Registered after the engine's construction initialised whatever statics it uses, so
    // the handler runs before their destructors.
    std::atexit(close_at_exit);
    g_process.exit_hook_installed = true;
  }
  publish(created, std::max(created->config().threads, wanted));
  return created;
}

// grow(): `current`, or a wider engine that replaces it, for a call wanting `wanted`
// threads; never in serial mode. A wider engine that cannot be built leaves `current`
// serving, narrower.
engine::CpuEngine* grow(engine::CpuEngine* current, std::size_t wanted) {
  const std::size_t target = width_for(wanted);
  if (current->mode() == engine::Mode::serial || g_process.growth_failed ||
      target <= current->config().threads) {
    g_process.serves.store(std::max(g_process.serves.load(std::memory_order_relaxed), wanted),
                           std::memory_order_relaxed);
    return current;
  }
  engine::EngineConfig config = current->config();
  config.threads = target;
  engine::CpuEngine* wider = nullptr;
  try {
    wider = new engine::CpuEngine(config);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: no wider team (%s); staying at width %zu\n", error.what(),
                 current->width());
    g_process.growth_failed = true;
    return current;
  }
  publish(wider, wanted);
  return wider;
}

// acquire_engine(): the engine for a call wanting `wanted` threads (0: any), created or
// replaced by a wider one under the creation mutex; null when calls run serially.
engine::CpuEngine* acquire_engine(std::size_t wanted) {
  std::lock_guard lock(g_process.creation);
  if (g_process.closed.load(std::memory_order_seq_cst) || g_process.creation_failed) {
    return nullptr;
  }
  engine::CpuEngine* current = g_process.engine.load(std::memory_order_seq_cst);
  if (current == nullptr) return create_first(wanted);
  if (wanted <= g_process.serves.load(std::memory_order_relaxed)) return current;
  return grow(current, wanted);
}

// capped_by_openblas(): `count` (0: the engine's width) capped by the count of an OpenBLAS
// loaded beside this library (followed_openblas_count()); 0 again when that cap is no lower
// than the engine's width.
int capped_by_openblas(int count) {
  const int followed = followed_openblas_count();
  if (followed <= 0) return count;
  if (count > 0) return std::min(count, followed);
  std::size_t width = g_process.width.load(std::memory_order_relaxed);
  if (width == 0) width = resolved_threads(config_from_env());  // before the engine exists
  return static_cast<std::size_t>(followed) < width ? followed : 0;
}

// wanted_threads(): the calling thread's count, 0 when none is set.
std::size_t wanted_threads(const ThreadState& state) {
  int count = state.threads;
  if (count <= 0) {
    count = capped_by_openblas(g_process.process_threads.load(std::memory_order_relaxed));
  }
  return static_cast<std::size_t>(std::max(count, 0));
}
std::size_t wanted_threads() { return wanted_threads(t_state); }

// engine_threads(): the width calls get with no count set: the engine's, or before it exists
// (or after exit closed it) the width the environment's rule gives.
int engine_threads() {
  g_process.in_flight.fetch_add(1, std::memory_order_seq_cst);
  std::size_t width = 0;
  if (!g_process.closed.load(std::memory_order_seq_cst)) {
    if (const auto* current = g_process.engine.load(std::memory_order_seq_cst)) {
      width = current->width();
    }
  }
  g_process.in_flight.fetch_sub(1, std::memory_order_seq_cst);
  if (width == 0) width = resolved_threads(config_from_env());
  return static_cast<int>(std::min<std::size_t>(width, kMaxThreadCount));
}

int clamped(int count) { return std::min(count, kMaxThreadCount); }

}  // namespace

void set_process_threads(int count) {
  g_process.process_threads.store(count < 1 ? engine_threads() : clamped(count),
                                  std::memory_order_relaxed);
}

int set_thread_threads(int count) {
  const int previous = thread_threads();
  if (count >= 1) g_process.thread_counts_set.store(true, std::memory_order_relaxed);
  t_state.threads = count < 1 ? 0 : clamped(count);
  return previous;
}

int thread_threads() {
  const auto wanted = static_cast<int>(wanted_threads());
  return wanted > 0 ? wanted : engine_threads();
}

bool caller_runs_one_thread() {
  int count = 0;
  if (g_process.thread_counts_set.load(std::memory_order_relaxed)) count = t_state.threads;
  if (count <= 0) {
    count = capped_by_openblas(g_process.process_threads.load(std::memory_order_relaxed));
  }
  return count > 0 ? count == 1 : g_process.width.load(std::memory_order_relaxed) == 1;
}

unsigned& learned_inline_calls() { return t_state.learned_inline_calls; }

EngineLease::EngineLease() : limit_(wanted_threads()) {
  g_process.in_flight.fetch_add(1, std::memory_order_seq_cst);
  if (g_process.closed.load(std::memory_order_seq_cst)) {
    engine_ = nullptr;
    return;
  }
  engine_ = g_process.engine.load(std::memory_order_seq_cst);
  if (engine_ == nullptr || limit_ > g_process.serves.load(std::memory_order_relaxed)) {
    engine_ = acquire_engine(limit_);
  }
}

EngineLease::~EngineLease() {
  if (g_process.in_flight.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
      g_process.has_retired.load(std::memory_order_relaxed)) {
    reap_retired();
  }
}

std::size_t EngineLease::threads() const {
  if (engine_ == nullptr) return 1;
  return limit_ == 0 ? engine_->width() : std::min(limit_, engine_->width());
}

void describe_engine(char* text, std::size_t size) {
  // Held like a lease (without creating the engine), so the exit handler cannot destroy the
  // engine under this call.
  g_process.in_flight.fetch_add(1, std::memory_order_seq_cst);
  const bool closed = g_process.closed.load(std::memory_order_seq_cst);
  const engine::CpuEngine* current =
      closed ? nullptr : g_process.engine.load(std::memory_order_seq_cst);
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
