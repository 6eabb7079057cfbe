// SPDX-License-Identifier: Apache-2.0
// pressure.cpp: PressureMonitor (see pressure.hpp).
#include "wait/pressure.hpp"

#include <algorithm>
#include <chrono>

namespace teamla::team {
namespace {
std::uint64_t to_ns(std::chrono::nanoseconds d) {
  return d.count() > 0 ? static_cast<std::uint64_t>(d.count()) : 0;
}
}  // namespace

void PressureMonitor::start(const WaitTuning& tuning, std::uint64_t now_ns) {
  preempt_gap_ns_ = to_ns(tuning.preempt_gap);
  window_ns_ = to_ns(tuning.pressure_window);
  hold_ns_ = to_ns(tuning.throttle_hold);
  events_needed_ = std::max<std::uint32_t>(tuning.pressure_events, 1);
  warm_up_ns_ = to_ns(tuning.warm_up);
  restart(now_ns);
}

void PressureMonitor::restart(std::uint64_t now_ns) {
  watch_until_ns_.store(now_ns + warm_up_ns_, std::memory_order_relaxed);
  watching_.store(warm_up_ns_ > 0, std::memory_order_relaxed);
}

bool PressureMonitor::still_watching(std::uint64_t now_ns) {
  if (now_ns < watch_until_ns_.load(std::memory_order_relaxed) || throttled_at(now_ns)) {
    return true;
  }
  watching_.store(false, std::memory_order_relaxed);
  return false;
}

bool PressureMonitor::observe_preemption(std::uint64_t now_ns) {
  std::lock_guard lock(window_mutex_);
  if (window_events_ == 0 || now_ns - window_start_ns_ > window_ns_) {
    window_start_ns_ = now_ns;
    window_events_ = 0;
  }
  if (++window_events_ < events_needed_) return false;
  window_events_ = 0;
  const std::uint64_t until = now_ns + hold_ns_;
  std::uint64_t current = throttled_until_ns_.load(std::memory_order_relaxed);
  while (current < until &&
         !throttled_until_ns_.compare_exchange_weak(current, until, std::memory_order_relaxed)) {
  }
  return true;
}

}  // namespace teamla::team
