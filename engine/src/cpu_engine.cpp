// SPDX-License-Identifier: Apache-2.0
// cpu_engine.cpp: CpuEngine's construction, the per-call team, bookkeeping and introspection.
#include <new>
#include <optional>
#include <string>

#include "cpu_engine_impl.hpp"
#include "teamla/linalg/isa.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/process.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::engine {
namespace {

// kMaxThreads: a sanity bound on EngineConfig::threads, far above any machine teamla runs
// on, so that a typo (or -1 cast to size_t) is an error rather than an attempt to start
// billions of threads.
constexpr std::size_t kMaxThreads = 4096;

void check_config(const EngineConfig& config) {
  if (config.mode != Mode::held && config.mode != Mode::per_call && config.mode != Mode::serial) {
    throw ConfigError("mode", "mode = " + std::to_string(static_cast<int>(config.mode)) +
                                  " is not held, per_call or serial");
  }
  if (config.threads > kMaxThreads) {
    throw ConfigError("threads", "threads = " + std::to_string(config.threads) + " is more than " +
                                     std::to_string(kMaxThreads));
  }
  if (config.warm_up.count() < 0) {
    throw ConfigError("warm_up",
                      "warm_up = " + std::to_string(config.warm_up.count()) + " ms is negative");
  }
}

// The calling thread's ThreadWidthLimit (0: none). Constant-initialised, so reading it
// costs a TLS load on every call.
constinit thread_local std::size_t t_width_limit = 0;

const bool kHaveTsc = team::read_tsc() != 0;

// nanoseconds_per_tick() converts now_ticks() units, calibrated once per process against
// the monotonic clock over kCalibration (the first last_call() pays it; calls never do).
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit team::ProcessNumber<double> g_nanoseconds_per_tick;

double nanoseconds_per_tick() {
  return g_nanoseconds_per_tick.get([] {
    if (!kHaveTsc) return 1.0;
    constexpr std::uint64_t kCalibration = 2'000'000;  // 2 ms: the rate to about 1 part in 10^4
    const std::uint64_t ns0 = team::monotonic_ns(), tsc0 = team::read_tsc();
    std::uint64_t ns1 = ns0, tsc1 = tsc0;
    while (ns1 - ns0 < kCalibration) {
      ns1 = team::monotonic_ns();
      tsc1 = team::read_tsc();
    }
    return tsc1 > tsc0 ? double(ns1 - ns0) / double(tsc1 - tsc0) : 1.0;
  });
}

}  // namespace

ThreadWidthLimit::ThreadWidthLimit(std::size_t width) : previous_(t_width_limit) {
  t_width_limit = width;
}
ThreadWidthLimit::~ThreadWidthLimit() { t_width_limit = previous_; }
std::size_t ThreadWidthLimit::current() { return t_width_limit; }

NotPositiveDefinite::NotPositiveDefinite(index_t column)
    : std::runtime_error("teamla::solve_spd: A is not positive definite: the pivot of column " +
                         std::to_string(column) + " is not positive"),
      column_(column) {}

SingularMatrix::SingularMatrix(index_t column)
    : std::runtime_error("teamla::solve: A is singular: U(" + std::to_string(column) + ", " +
                         std::to_string(column) + ") is exactly zero"),
      column_(column) {}

CpuEngine::Impl::Impl(const EngineConfig& requested) : config(requested) {
  check_config(config);
  if (!config.width_cache.empty()) linalg::use_width_cache(config.width_cache);
  if (config.threads == 0) config.threads = team::affinity_cpu_count();
  width = config.mode == Mode::serial ? 1 : config.threads;
  team::WaitTuning tuning;
  tuning.spin_polls = config.spin_polls;
  tuning.warm_up = config.warm_up;
  // per_call builds a Pool per call; its workers are reused from the previous call's pool
  // (team/src/reservoir.hpp), except under legacy, whose arm measures a spawn and join per call
  // (docs/waits.md).
  builder_.threads(config.threads)
      .policy(config.wait_policy)
      .tuning(tuning)
      .thread_name("teamla")
      .reuse_threads(config.mode == Mode::per_call &&
                     config.wait_policy != team::WaitPolicy::legacy);
  if (config.mode == Mode::held) build_held_team();
}

void CpuEngine::Impl::build_held_team() {
  try {
    pool_ = builder_.build();
    team_.emplace(pool_->acquire(config.threads));
  } catch (const std::bad_alloc&) {
    // No memory for the pool's own state: the engine serves serially rather than failing.
    team_.reset();
    pool_.reset();
    count_missing_threads(config.threads - 1);
    width = 1;
    return;
  }
  width = team_->width();
  tallies_.pools_built = 1;
  tallies_.threads_unavailable = pool_->missing_threads();
}

bool CpuEngine::Impl::build_per_call_team(std::optional<PerCallTeam>& fresh) {
  try {
    fresh.emplace(*this);
  } catch (const std::bad_alloc&) {
    fresh.reset();
    count_missing_threads(width - 1);
    return false;
  }
  if (!fresh->pool->reused() && fresh->pool->missing_threads() != 0) {
    std::lock_guard lock(stats_mutex_);
    tallies_.threads_unavailable += fresh->pool->missing_threads();
  }
  return true;
}

void CpuEngine::Impl::count_missing_threads(std::size_t missing) {
  team::note_shortfall(team::Shortfall::threads, missing);
  std::lock_guard lock(stats_mutex_);
  tallies_.threads_unavailable += missing;
  ++tallies_.serial_fallbacks;
}

CpuEngine::Impl::PerCallTeam::PerCallTeam(Impl& owner)
    : impl(owner), pool(owner.builder_.build()), team(pool->acquire(owner.width)) {}

CpuEngine::Impl::PerCallTeam::~PerCallTeam() {
  const team::WaitCounters waits = pool->counters();
  std::lock_guard lock(impl.stats_mutex_);
  impl.tallies_.waits += waits;
  ++impl.tallies_.pools_built;
  if (pool->reused()) ++impl.tallies_.pools_reused;
}

void CpuEngine::Impl::finish(CallStats& stats, const linalg::Exec& exec, std::uint64_t start) {
  stats.exec = exec.stats;
  const std::uint64_t ticks = now_ticks() - start;
  std::lock_guard lock(stats_mutex_);
  last_ = stats;
  last_ticks_ = ticks;
  ++tallies_.calls;
  if (stats.exec.width_cap != 0) {
    tallies_.width_cap = stats.exec.width_cap;
    if (stats.exec.section_cost_ns > 0) tallies_.section_cost_ns = stats.exec.section_cost_ns;
  }
  if (stats.on_team) ++tallies_.team_calls;
  if (stats.memory_fallback) ++tallies_.memory_fallbacks;
  if (stats.contended) ++tallies_.contended_calls;
  if (stats.exec.budget_limited_regions != 0) ++tallies_.budget_limited_calls;
}

EngineCounters CpuEngine::Impl::counters() const {
  EngineCounters result;
  {
    std::lock_guard lock(stats_mutex_);
    result = tallies_;
  }
  if (pool_) result.waits += pool_->counters();
  return result;
}

std::uint64_t CpuEngine::Impl::now_ticks() {
  return kHaveTsc ? team::read_tsc() : team::monotonic_ns();
}

CallStats CpuEngine::Impl::last_call() const {
  std::uint64_t ticks = 0;
  CallStats stats;
  {
    std::lock_guard lock(stats_mutex_);
    stats = last_;
    ticks = last_ticks_;
  }
  stats.wall_ns = static_cast<std::uint64_t>(double(ticks) * nanoseconds_per_tick());
  return stats;
}

CpuEngine::CpuEngine() : CpuEngine(EngineConfig::from_env()) {}
CpuEngine::CpuEngine(const EngineConfig& config) : impl_(std::make_unique<Impl>(config)) {}
CpuEngine::~CpuEngine() = default;

Mode CpuEngine::mode() const { return impl_->config.mode; }
std::size_t CpuEngine::width() const { return impl_->width; }
std::string_view CpuEngine::isa() const { return linalg::active_isa(); }
const EngineConfig& CpuEngine::config() const { return impl_->config; }
EngineCounters CpuEngine::counters() const { return impl_->counters(); }
CallStats CpuEngine::last_call() const { return impl_->last_call(); }

}  // namespace teamla::engine
