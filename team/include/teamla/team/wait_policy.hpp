// SPDX-License-Identifier: Apache-2.0
// wait_policy.hpp: how the threads of a pool wait, and the counters that show it.
//
// Every wait of the staged policy is an episode of three phases: spin, then yield up to
// `yield_polls` times, then sleep on a futex. The spin budget is a time, `spin_time`, which a
// pool converts once, when it is built, into a count of polls (one load and one PAUSE each)
// through spin_poll_ns(), the cost of one poll measured once per process. A waiter counts its
// polls rather than reading the clock, so time it spends preempted in a run queue does not use
// up its budget. `spin_polls` sets the count directly. docs/waits.md ("Each knob and what
// decided it") says what chose each default here; the records are in docs/perf/waits.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

namespace teamla::team {

enum class WaitPolicy : unsigned char {
  // staged: spin for spin_time, yield, then sleep (the default; OpenMP-like).
  staged,
  // legacy: threadteam 0.1.3 exactly: members spin 200 ms of wall time then park; join and
  // barrier never sleep. Kept to reproduce the faer#107 slow mode in the same binary.
  legacy,
  // passive: no spin and no yield; every wait sleeps at once (OMP_WAIT_POLICY=passive).
  passive,
};

// WaitTuning: the knobs of the waits. The defaults are the documented ones; benches vary them.
struct WaitTuning {
  // The spin phase, a time as libomp's KMP_BLOCKTIME is: the same count of PAUSEs lasts
  // several times longer on some CPUs than on others (docs/perf/waits.md, "Wait primitives").
  // A pool converts it into polls through spin_poll_ns(). 20 ms: criterion (d)'s gap between
  // calls, with room for the timer's slack and the sections around it (docs/waits.md).
  std::chrono::microseconds spin_time{20000};
  // An explicit count of spin polls overrides spin_time (TEAMLA_SPIN_POLLS); the default
  // kSpinPollsFromTime converts spin_time.
  static constexpr std::uint32_t kSpinPollsFromTime = 0xFFFFFFFFU;
  std::uint32_t spin_polls = kSpinPollsFromTime;
  // Polls while throttled (statically oversubscribed, or a new pool under pressure): libgomp's
  // throttled spin count.
  std::uint32_t throttled_polls = 100;
  // Yields between the spin and the sleep. 0: beside a co-runner one yield can hand it a whole
  // slice, and with every thread on one CPU no yield did as well as any (docs/perf/waits.md,
  // "Runtime measurements", yield phase). 16 is the libgomp-like shape.
  std::uint32_t yield_polls = 0;
  // During the warm-up, a gap longer than this between two clock reads of a spinning waiter
  // (one read every 64 polls) means it was preempted. This and the four below: threadteam's
  // measurements (docs/waits.md, "Each knob and what decided it").
  std::chrono::microseconds preempt_gap{200};
  // How long a new pool watches for preemption. 0 turns detection off.
  std::chrono::milliseconds warm_up{200};
  // This many preemptions within `pressure_window` throttle the whole pool ...
  std::uint32_t pressure_events = 4;
  std::chrono::milliseconds pressure_window{100};
  // ... for this long.
  std::chrono::milliseconds throttle_hold{100};
  // With yield_polls > 0: a yield that takes longer than this ends the yield phase (it gave
  // the CPU away) and the waiter sleeps at once. 0 yields all `yield_polls` times. 20 us: of
  // the cuts measured, the faster (docs/perf/waits.md, "Runtime measurements", yield phase).
  std::chrono::microseconds slow_yield{20};
  // The spin budget of a join whose leader woke a parked member that has not started within
  // this many polls, and of a member's wait after a section run on its leader's CPU: the other
  // thread may be queued on this very CPU (the scheduler often places a wakee beside its
  // waker), and a full spin holds it off for the whole budget. 256: of the budgets measured,
  // the fastest dispatch to a parked member (docs/perf/waits.md, "Runtime measurements",
  // after-wake spin).
  std::uint32_t after_wake_polls = 256;

  bool operator==(const WaitTuning&) const = default;
};

// WaitCounters: a snapshot of a pool's wait counters. Cheap enough to stay on in release.
struct WaitCounters {
  std::uint64_t join_sleeps = 0;           // leader slept in join
  std::uint64_t barrier_sleeps = 0;        // a participant slept in a barrier
  std::uint64_t member_parks = 0;          // a member slept between sections
  std::uint64_t preemptions = 0;           // warm-up detections of a preempted spinner
  std::uint64_t throttle_activations = 0;  // times the pool switched to the throttled budget
  std::uint64_t sections = 0;              // sections dispatched to members (width > 1)
  std::uint64_t stacked_waits = 0;  // join/barrier waits that yielded to a partner on their CPU
  // Claimed sections: a member still busy with an earlier job was left out of a section, and
  // a member arrived after every unit had been claimed (it found nothing and left).
  std::uint64_t members_left_out = 0;
  std::uint64_t idle_arrivals = 0;
  // A member left out of a claimed section joined it late and ran at least one unit.
  std::uint64_t late_joins = 0;
  // A member found itself on its leader's CPU and moved itself to another CPU of its set.
  std::uint64_t cpu_moves = 0;
  // A member was woken ahead of a section (Team::wake_members).
  std::uint64_t wakes_ahead = 0;
  // The process CPU budget (cpu_budget.hpp) granted a claimed section fewer members than asked
  // (none: it ran inline), and a member left a section the budget over-committed.
  std::uint64_t budget_narrowed = 0;
  std::uint64_t budget_leaves = 0;

  WaitCounters& operator+=(const WaitCounters& o);
  WaitCounters& operator-=(const WaitCounters& o);
  friend WaitCounters operator-(WaitCounters a, const WaitCounters& b) { return a -= b; }
};

// to_string()/parse_wait_policy(): "staged", "legacy", "passive". parse throws
// std::invalid_argument naming the value and the accepted ones.
std::string_view to_string(WaitPolicy policy);
WaitPolicy parse_wait_policy(std::string_view text);

}  // namespace teamla::team
