// SPDX-License-Identifier: Apache-2.0
// wait_context.hpp: what a wait reads and counts of the pool it waits in.
//
// The wait code (staged_wait.hpp) sees a pool only through a WaitContext, which
// Pool::Impl::waits() builds for each wait, and sleeps on a Parker; CounterCells are the
// pool's counters, which waits and sections count into and Pool::counters() reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "sync/parker.hpp"
#include "sync/std_sync.hpp"
#include "teamla/team/wait_policy.hpp"
#include "wait/pressure.hpp"

namespace teamla::team {

// Parker: where a pool's threads sleep (a worker on its own, leaders and barriers on the
// pool's shared one).
using Parker = sync::Parker<sync::StdSync>;

// CounterCells: the cells behind WaitCounters. Relaxed RMWs; sleeps are rare and a section's
// increment is one uncontended RMW by its leader.
struct CounterCells {
  std::atomic<std::uint64_t> join_sleeps{0};
  std::atomic<std::uint64_t> barrier_sleeps{0};
  std::atomic<std::uint64_t> member_parks{0};
  std::atomic<std::uint64_t> preemptions{0};
  std::atomic<std::uint64_t> throttle_activations{0};
  std::atomic<std::uint64_t> stacked_waits{0};
  std::atomic<std::uint64_t> sections{0};
  std::atomic<std::uint64_t> members_left_out{0};
  std::atomic<std::uint64_t> idle_arrivals{0};
  std::atomic<std::uint64_t> late_joins{0};
  std::atomic<std::uint64_t> cpu_moves{0};
  std::atomic<std::uint64_t> wakes_ahead{0};
  std::atomic<std::uint64_t> budget_narrowed{0};
  std::atomic<std::uint64_t> budget_leaves{0};
};

// WaitContext: a pool as its waits see it. The policy, tuning, spin budget and
// `oversubscribed` are fixed when the pool is built; the rest is shared by its threads and
// lives as long as the pool.
struct WaitContext {
  WaitPolicy policy;
  const WaitTuning& tuning;
  // The staged spin phase in polls: tuning.spin_polls, or tuning.spin_time / spin_poll_ns().
  std::uint32_t spin_budget;
  // More pool threads than CPUs in the builder's affinity set: waits use the throttled budget.
  bool oversubscribed;
  PressureMonitor& pressure;
  CounterCells& counters;
  // The members the process budget has granted the pool's sections and not yet had back
  // (cpu_budget.hpp): a waiting member subtracts them from the budget's count.
  const std::atomic<std::size_t>& members_granted;
};

}  // namespace teamla::team
