// SPDX-License-Identifier: Apache-2.0
// pressure.hpp: warm-up detection of preempted spinners, and the pool-wide throttle it drives.
//
// A new pool's threads are often placed on busy CPUs before the scheduler knows their load, and
// spinning members then never leave a CPU idle for a stacked thread to move to (threadteam's
// finding). For `warm_up` after the pool is built, a spinning waiter reads the clock every 64
// polls; a gap over `preempt_gap` means it was descheduled while it spun, and it reports that here.
// `pressure_events` reports within `pressure_window` throttle every wait of the pool to
// `throttled_polls` for `throttle_hold`. Once the warm-up and any hold are over, watching()
// turns false for good, and waits stop reading the clock: detection then costs one relaxed
// load per wait and nothing in the poll loop.
//
// Thread-safety: every member function may be called from any thread. The event window is
// guarded by a mutex, taken only on a detected preemption (rare, and only while warming up).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "teamla/team/wait_policy.hpp"

namespace teamla::team {

class PressureMonitor {
 public:
  void start(const WaitTuning& tuning, std::uint64_t now_ns);
  // restart() begins a new warm-up with the tuning of start(): a reused pool's (pool.hpp,
  // reuse_threads) own detection. Safe while waiters spin.
  void restart(std::uint64_t now_ns);

  // watching() is true while a waiter should read the clock as it spins.
  [[nodiscard]] bool watching() const { return watching_.load(std::memory_order_relaxed); }
  // still_watching() re-evaluates at `now_ns` and turns watching() off once it is over.
  bool still_watching(std::uint64_t now_ns);
  [[nodiscard]] bool throttled_at(std::uint64_t now_ns) const {
    return now_ns < throttled_until_ns_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t preempt_gap_ns() const { return preempt_gap_ns_; }

  // observe_preemption() records one detection; true when it switched the throttle on.
  bool observe_preemption(std::uint64_t now_ns);

 private:
  std::atomic<bool> watching_{false};
  std::atomic<std::uint64_t> throttled_until_ns_{0};
  std::atomic<std::uint64_t> watch_until_ns_{0};
  std::uint64_t warm_up_ns_ = 0;
  std::uint64_t preempt_gap_ns_ = 0;
  std::uint64_t window_ns_ = 0;
  std::uint64_t hold_ns_ = 0;
  std::uint32_t events_needed_ = 0;

  std::mutex window_mutex_;
  std::uint64_t window_start_ns_ = 0;
  std::uint32_t window_events_ = 0;
};

}  // namespace teamla::team
