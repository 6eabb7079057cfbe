// SPDX-License-Identifier: Apache-2.0
// cpu_engine_impl.hpp: CpuEngine's state and the dispatch every routine goes through.
// Internal to engine/ (tests may include it to inject faults through dispatch()).
//
// The concurrency rule is implemented here, by `lead_`: a call that wins try_lock() leads
// the team (held: the engine's team; per_call: a pool it builds) with the engine's
// workspace; a call that loses runs serially on its own thread with that thread's
// workspace (linalg::thread_local_workspace). try_lock never blocks, so no caller waits
// behind another caller's kernel. The mutex also orders the uses of the team and the
// workspace between successive leaders: unlock by one leader happens-before the next
// successful try_lock, so the next leader sees the team and buffers as the last one left
// them. The tallies and last_call are guarded by `stats_mutex_`, held only for a copy.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/cpu_budget.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"

namespace teamla::engine {

struct CpuEngine::Impl {
  explicit Impl(const EngineConfig& config);

  // dispatch() runs kernel(exec) under the concurrency rule, with exec set up for the team
  // (or serial), and records the call. It returns what the kernel returns.
  template <class Kernel>
  auto dispatch(std::string_view routine, Kernel&& kernel) {
    // The caller's CPU counts in the process budget for the call's length: regions of this and
    // every concurrent call are granted members only from the CPUs left (team/cpu_budget.hpp).
    const team::CallerSlot slot;
    CallStats stats;
    stats.routine = routine;
    const std::uint64_t start = now_ticks();
    const std::uint64_t memory_shortfalls = team::shortfalls(team::Shortfall::memory);
    linalg::Exec exec;
    exec.max_width = ThreadWidthLimit::current();
    exec.width_rule = config.width_rule;
    std::unique_lock lead(lead_, std::try_to_lock);
    stats.contended = !lead.owns_lock();
    if (lead.owns_lock()) exec.workspace = &workspace_;

    using Result = decltype(kernel(exec));
    if constexpr (std::is_void_v<Result>) {
      run_as(lead.owns_lock(), exec, stats, kernel);
      stats.memory_fallback = team::shortfalls(team::Shortfall::memory) != memory_shortfalls;
      finish(stats, exec, start);
    } else {
      Result result = run_as(lead.owns_lock(), exec, stats, kernel);
      stats.memory_fallback = team::shortfalls(team::Shortfall::memory) != memory_shortfalls;
      finish(stats, exec, start);
      return result;
    }
  }

  EngineConfig config;
  std::size_t width = 1;

 private:
  // run_as(): the leader runs the kernel on a team (the held one, or a pool built for this
  // call in per_call mode); everyone else, and serial mode, runs it with no team.
  template <class Kernel>
  auto run_as(bool leader, linalg::Exec& exec, CallStats& stats, Kernel& kernel) {
    // A limit of 1 runs on the caller without touching the team (or building a pool).
    if (!leader || config.mode == Mode::serial || width == 1 || exec.max_width == 1) {
      return kernel(exec);
    }
    if (config.mode == Mode::held) {
      if (!team_) return kernel(exec);  // the pool could not be built: serial
      stats.on_team = true;
      exec.team = &*team_;
      return kernel(exec);
    }
    std::optional<PerCallTeam> fresh;
    // Without a pool, or with a pool the system gave no workers, the call runs inline.
    if (!build_per_call_team(fresh) || fresh->team.width() == 1) return kernel(exec);
    stats.on_team = true;
    exec.team = &fresh->team;
    return kernel(exec);
  }

  // PerCallTeam: a pool and team that live for one call (per_call mode); its wait counters
  // are added to the engine's when it ends, normally or by an exception.
  struct PerCallTeam {
    explicit PerCallTeam(Impl& impl);
    ~PerCallTeam();
    PerCallTeam(const PerCallTeam&) = delete;
    PerCallTeam& operator=(const PerCallTeam&) = delete;
    Impl& impl;
    std::unique_ptr<team::Pool> pool;
    team::Team team;
  };

  // build_per_call_team(): this call's pool and team, or nothing when the system cannot give
  // it a pool (no memory for its state): the call then runs serially, counted and reported.
  // Workers the system refuses only make the team narrower (team/shortfall.hpp).
  bool build_per_call_team(std::optional<PerCallTeam>& fresh);
  void build_held_team();
  void count_missing_threads(std::size_t missing);

  void finish(CallStats& stats, const linalg::Exec& exec, std::uint64_t start);
  // now_ticks() is the call clock: the TSC where there is one, being cheaper to read than
  // monotonic_ns() (two reads a call weigh on the smallest calls: docs/engine.md, "Cost of a
  // call"). Ticks become nanoseconds only when last_call() is read.
  static std::uint64_t now_ticks();

 public:
  [[nodiscard]] EngineCounters counters() const;
  [[nodiscard]] CallStats last_call() const;

 private:
  team::PoolBuilder builder_;
  std::unique_ptr<team::Pool> pool_;  // held mode only
  std::optional<team::Team> team_;    // held mode only
  linalg::Workspace workspace_;       // the leader's (guarded by lead_)
  std::mutex lead_;

  mutable std::mutex stats_mutex_;
  CallStats last_;                // wall_ns not yet converted: see last_ticks_
  std::uint64_t last_ticks_ = 0;  // the last call's duration in now_ticks() units
  EngineCounters tallies_;        // calls, and per_call's summed wait counters
};

}  // namespace teamla::engine
