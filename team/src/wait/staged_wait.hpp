// SPDX-License-Identifier: Apache-2.0
// staged_wait.hpp: the one wait every thread of a pool uses: a member between sections, the
// leader in join, and a participant in a barrier.
//
// wait_until(pool, site, parker, done) returns once done() is true; `pool` is the pool as
// its waits see it (wait_context.hpp). Under the pool's policy:
//  - staged: spin at most spin_budget polls (spin_time converted into polls, or spin_polls;
//    one PAUSE each), or throttled_polls when the pool is oversubscribed or under warm-up
//    pressure; then yield up to yield_polls times, ending early after a yield that took
//    longer than `slow_yield`; then sleep on `parker`. Every phase is bounded, so no wait
//    spins forever.
//  - passive: sleep at once.
//  - legacy (threadteam 0.1.3's waits): a member spins 200 ms of wall time (64 polls
//    when oversubscribed) and then sleeps; join and barrier never sleep: a PAUSE per poll, or
//    when oversubscribed 100 PAUSEs and then a yield per poll.
// The waker's side is always: make done() true with a seq_cst RMW, then parker.wake().
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "budget.hpp"
#include "platform/affinity.hpp"
#include "platform/thread.hpp"
#include "teamla/team/machine.hpp"
#include "wait/wait_context.hpp"

namespace teamla::team {

enum class WaitSite : std::uint8_t { member, join, barrier };

namespace detail {

// 0.1.3's idle_spin: a legacy member spins this long before it parks.
inline constexpr std::uint64_t kLegacyMemberSpinNs = 200'000'000;
// 0.1.3's oversubscribed limits: members park after 64 polls; join/barrier pause ~100 times.
inline constexpr std::uint32_t kLegacyOversubscribedMemberPolls = 64;
inline constexpr std::uint32_t kLegacyOversubscribedPauses = 100;
// A spinning waiter reads the clock once per this many polls (a power of two).
inline constexpr std::uint32_t kClockStride = 64;
// A stacked waiter (its partner shares its CPU) yields at most this many times before it
// falls back to the short spin and the sleep: a yield may hand the partner a whole scheduler
// slice, so this bounds the phase at 16 slices (docs/perf/waits.md, "Wait primitives").
inline constexpr std::uint32_t kStackedYields = 16;
// A yield that returns within this long found nobody else queued on the CPU (a yield to
// nobody is one system call; a yield to a partner lasts the partner's slice): the partner
// has moved to another CPU (or is asleep), and spinning is right again.
inline constexpr std::uint64_t kAloneYieldNs = 2'000;

inline void count_sleep(CounterCells& counters, WaitSite site) {
  switch (site) {
    case WaitSite::member:
      counters.member_parks.fetch_add(1, std::memory_order_relaxed);
      break;
    case WaitSite::join:
      counters.join_sleeps.fetch_add(1, std::memory_order_relaxed);
      break;
    case WaitSite::barrier:
      counters.barrier_sleeps.fetch_add(1, std::memory_order_relaxed);
      break;
  }
}

// spin_phase() polls done() at most the budget's count; true if done() became true. With
// avoid_cpu >= 0 (a member between sections: the CPU its leader last ran on), a spinner that
// finds itself on that CPU, where it only takes time from its leader, moves to another CPU of
// its set once (platform::step_off_cpu) and spins on there, or ends the spin if it cannot.
// Sleeping alone would not help where the scheduler places a woken thread on its waker's CPU:
// the next wake puts it back (docs/team.md, "Stacked waits").
// A member (`member`) also ends its spin when every usable CPU runs library work
// (cpu_budget.hpp): its spin would take a CPU from a thread that has work.
template <class Done>
bool spin_phase(const WaitContext& pool, Done& done, bool after_wake, int avoid_cpu, bool member) {
  const WaitTuning& tuning = pool.tuning;
  std::uint32_t budget = pool.oversubscribed ? tuning.throttled_polls : pool.spin_budget;
  if (after_wake) budget = std::min(budget, tuning.after_wake_polls);
  PressureMonitor& pressure = pool.pressure;
  bool watch = pressure.watching();
  std::uint64_t last_ns = 0;
  if (watch) {
    last_ns = monotonic_ns();
    watch = pressure.still_watching(last_ns);
    if (watch && pressure.throttled_at(last_ns) && budget > tuning.throttled_polls) {
      budget = tuning.throttled_polls;
    }
  }
  for (std::uint32_t poll = 0; poll < budget; ++poll) {
    if (done()) return true;
    cpu_relax();
    if (member && (poll % kClockStride) == kClockStride - 1 &&
        budget::all_cpus_taken(pool.members_granted.load(std::memory_order_relaxed))) {
      break;
    }
    if (avoid_cpu >= 0 && (poll % kClockStride) == kClockStride - 1 &&
        platform::current_cpu() == avoid_cpu) {
      pool.counters.stacked_waits.fetch_add(1, std::memory_order_relaxed);
      if (!platform::step_off_cpu(avoid_cpu)) break;
      pool.counters.cpu_moves.fetch_add(1, std::memory_order_relaxed);
      avoid_cpu = -1;  // once per wait
    }
    if (watch && (poll % kClockStride) == kClockStride - 1) {
      const std::uint64_t now_ns = monotonic_ns();
      if (now_ns - last_ns > pressure.preempt_gap_ns()) {
        pool.counters.preemptions.fetch_add(1, std::memory_order_relaxed);
        if (pressure.observe_preemption(now_ns)) {
          pool.counters.throttle_activations.fetch_add(1, std::memory_order_relaxed);
        }
        break;  // it was descheduled while spinning: stop holding the CPU
      }
      if (pressure.throttled_at(now_ns) && budget > tuning.throttled_polls) {
        budget = tuning.throttled_polls;
      }
      last_ns = now_ns;
    }
  }
  return done();
}

// yield_phase() yields between polls; a yield slower than `slow_yield` ends it early.
template <class Done>
bool yield_phase(const WaitContext& pool, Done& done) {
  const WaitTuning& tuning = pool.tuning;
  const auto slow_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(tuning.slow_yield).count());
  for (std::uint32_t poll = 0; poll < tuning.yield_polls; ++poll) {
    if (done()) return true;
    const std::uint64_t before_ns = slow_ns != 0 ? monotonic_ns() : 0;
    platform::yield_now();
    if (slow_ns != 0 && monotonic_ns() - before_ns > slow_ns) break;
  }
  return done();
}

// stacked_phase() yields to a partner queued on this CPU until done() or until a yield comes
// back at once (the partner left this CPU). Sleeping instead would hide the imbalance from
// the scheduler: a sleeper is not runnable, so nothing is moved to the idle CPU, and the wake
// that ends the sleep often places the sleeper on its waker's CPU again (docs/team.md,
// "Stacked waits"). Returns 1 if done, 0 if the partner left, -1 if the yields ran out.
template <class Done>
int stacked_phase(Done& done) {
  for (std::uint32_t yield = 0; yield < kStackedYields; ++yield) {
    if (done()) return 1;
    const std::uint64_t before_ns = monotonic_ns();
    platform::yield_now();
    if (monotonic_ns() - before_ns < kAloneYieldNs) return done() ? 1 : 0;
  }
  return done() ? 1 : -1;
}

// legacy_wait() reproduces 0.1.3; true if done, false if a member should now park.
template <class Done>
bool legacy_wait(const WaitContext& pool, WaitSite site, Done& done) {
  if (site == WaitSite::member) {
    if (pool.oversubscribed) {
      for (std::uint32_t poll = 0; poll < kLegacyOversubscribedMemberPolls; ++poll) {
        if (done()) return true;
        cpu_relax();
      }
      return done();
    }
    const std::uint64_t start_ns = monotonic_ns();
    for (std::uint32_t poll = 1;; ++poll) {
      if (done()) return true;
      cpu_relax();
      if (poll % kClockStride == 0 && monotonic_ns() - start_ns > kLegacyMemberSpinNs) {
        return done();
      }
    }
  }
  for (std::uint32_t poll = 0;; ++poll) {  // join and barrier never sleep
    if (done()) return true;
    if (pool.oversubscribed && poll >= kLegacyOversubscribedPauses) {
      platform::yield_now();
    } else {
      cpu_relax();
    }
  }
}

}  // namespace detail

// brief_spin(): under the staged policy, polls done() at most after_wake_polls times and says
// whether it became true; other policies only poll once. Waiters call it before working out
// a WaitHint, so that a hot wait, which ends within those polls, never pays for the hint
// (reading each member's CPU costs the leader one cache line per member).
template <class Done>
bool brief_spin(const WaitContext& pool, Done& done) {
  if (pool.policy == WaitPolicy::staged) {
    for (std::uint32_t poll = 0; poll < pool.tuning.after_wake_polls; ++poll) {
      if (done()) return true;
      cpu_relax();
    }
  }
  return done();
}

// WaitHint: what the waiter knows about the thread it waits for.
//  - none: nothing; the full staged wait.
//  - after_wake: a sleep and a wake just happened between this thread and another (it woke a
//    sleeper, or it was itself woken), so the other may be queued on this very CPU; the spin
//    is then at most `after_wake_polls`.
//  - stacked: the other shares this CPU (a CPU number it published); it cannot run while
//    this thread spins, so this thread yields to it first (stacked_phase()).
enum class WaitHint : std::uint8_t { none, after_wake, stacked };

// wait_until() returns true if this wait slept.
template <class Done>
bool wait_until(const WaitContext& pool, WaitSite site, Parker& parker, Done&& done,
                WaitHint hint = WaitHint::none, int avoid_cpu = -1) {
  if (done()) return false;
  switch (pool.policy) {
    case WaitPolicy::staged: {
      bool short_spin = hint == WaitHint::after_wake;
      if (hint == WaitHint::stacked) {
        pool.counters.stacked_waits.fetch_add(1, std::memory_order_relaxed);
        const int stacked = detail::stacked_phase(done);
        if (stacked > 0) return false;
        short_spin = stacked < 0;
      }
      const bool member = site == WaitSite::member;
      if (detail::spin_phase(pool, done, short_spin, avoid_cpu, member)) return false;
      const bool cpus_taken =
          member && budget::all_cpus_taken(pool.members_granted.load(std::memory_order_relaxed));
      if (!cpus_taken && detail::yield_phase(pool, done)) return false;
      break;
    }
    case WaitPolicy::legacy:
      if (detail::legacy_wait(pool, site, done)) return false;
      break;
    case WaitPolicy::passive:
      break;
  }
  bool slept = false;
  parker.block_until(done, [&] {
    detail::count_sleep(pool.counters, site);
    slept = true;
  });
  return slept;
}

}  // namespace teamla::team
