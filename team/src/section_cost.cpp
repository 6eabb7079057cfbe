// SPDX-License-Identifier: Apache-2.0
// section_cost.cpp: Team::section_cost_ns(), the measured cost of one claimed section of a
// width, kept per pool and per process (team.hpp; docs/team.md, "Section cost and the leader's
// wait").
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "platform/thread.hpp"
#include "pool_impl.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"

namespace teamla::team {
namespace {

// The last measurement in the process: a pool built per call without reuse (the engine's
// per-call pools under the legacy policy) takes it instead of measuring again in every call.
std::atomic<double> g_section_cost_ns{0.0};
std::atomic<std::size_t> g_section_cost_width{0};
// After a failed measurement (below), no pool of the process measures again before
// g_section_cost_retry_ns: pools built per call would otherwise each spend a failed
// measurement's ~1 ms. g_section_cost_failures counts the failures in a row.
std::atomic<std::uint64_t> g_section_cost_retry_ns{0};
std::atomic<std::uint32_t> g_section_cost_failures{0};
// kRendezvousNs: a measuring section's unit waits at most this long for every unit to be
// claimed; a failed measurement reports it as the (provisional) cost.
constexpr std::uint64_t kRendezvousNs = 200'000;

// known_section_cost(): the cost of a section of `width` that needs no measurement now: the
// pool's own (unless its retry time has come), the process's last, or the provisional cost
// while a failed measurement's retry is pending.
std::optional<double> known_section_cost(const Pool::Impl& pool, std::size_t width) {
  if (pool.section_cost_width.load(std::memory_order_acquire) == width) {
    const std::uint64_t expires = pool.section_cost_expires_ns.load(std::memory_order_relaxed);
    if (expires == 0 || monotonic_ns() < expires) {
      return pool.section_cost_ns.load(std::memory_order_relaxed);
    }
  } else if (g_section_cost_width.load(std::memory_order_acquire) == width) {
    return g_section_cost_ns.load(std::memory_order_relaxed);
  } else if (monotonic_ns() < g_section_cost_retry_ns.load(std::memory_order_relaxed)) {
    return static_cast<double>(kRendezvousNs);  // provisional: failed moments ago
  }
  return std::nullopt;
}

// measure_section_cost(): the fastest complete section of `width` on `team`, or 0 if none
// completed. Each is a claimed section of `width` units, each of which spins (at most
// kRendezvousNs) until every unit has been claimed: every participant takes part, so the time
// is the dispatch, the rendezvous and the join. (An empty claimed section measures nothing:
// its leader claims every unit before a member arrives.) kTimed sections after kWarm untimed
// ones (the first wakes parked members), stopping at kBudgetNs. The fastest complete one is the
// cost of the mechanism itself: foreign load only inflates the others, and it is the width
// model's observed penalty that answers load (linalg/width.hpp), not a measurement kept for
// good.
double measure_section_cost(Team& team, const Pool::Impl& pool, std::size_t width) {
  constexpr int kWarm = 3;
  constexpr std::size_t kTimed = 15;
  constexpr std::uint64_t kBudgetNs = 1'000'000;
  // In the untimed ones the waiter yields after a short spin, so that a member woken onto
  // this very CPU gets to run (and moves off it, docs/team.md): the timed ones only spin.
  const auto section = [&](bool& complete, bool yield) {
    std::atomic<std::size_t> claimed{0};
    const std::uint64_t t0 = monotonic_ns();
    team.run_claimed(width, width, [&](Section&, std::size_t) {
      claimed.fetch_add(1, std::memory_order_acq_rel);
      for (std::uint32_t poll = 0;
           claimed.load(std::memory_order_acquire) < width && monotonic_ns() - t0 < kRendezvousNs;
           ++poll) {
        if (yield && poll >= pool.tuning.after_wake_polls) {
          platform::yield_now();
        } else {
          cpu_relax();
        }
      }
    });
    complete =
        claimed.load(std::memory_order_acquire) == width && monotonic_ns() - t0 < kRendezvousNs;
    return static_cast<double>(monotonic_ns() - t0);
  };
  bool complete = false;
  for (int i = 0; i < kWarm; ++i) section(complete, true);
  double cost = 0;
  const std::uint64_t start = monotonic_ns();
  for (std::size_t timed = 0; timed < kTimed && monotonic_ns() - start < kBudgetNs; ++timed) {
    // After a section that did not complete, the next one yields too: a member stacked on this
    // CPU would otherwise never run within the budget (under the legacy policy run_dealt's
    // static split has no claim to hand its unit to the leader, and its member never steps
    // off the CPU).
    const double sample = section(complete, !complete);
    if (complete && (cost == 0 || sample < cost)) cost = sample;
  }
  return cost;
}

// record_section_cost(): keeps the measured `cost` of `width` (0: none completed) for the pool
// and the process, and returns the cost section_cost_ns() answers. When no section completed
// (a member never came within kRendezvousNs: held elsewhere, stacked behind this thread, not
// started), the cost is taken as kRendezvousNs and measured again after kFirstRetryNs,
// doubling with each failure in a row up to kFirstRetryNs << kMaxRetryDoublings (~1.3 s): a
// member stacked behind a legacy leader, which spins in its join until preempted, spends one
// measurement's whole budget in one section, and the load balancer moves it within a few ms
// (docs/perf/calls.md, "Runtime figures").
double record_section_cost(Pool::Impl& pool, std::size_t width, double cost) {
  constexpr std::uint64_t kFirstRetryNs = 10'000'000;
  constexpr std::uint32_t kMaxRetryDoublings = 7;
  const bool measured = cost > 0;
  if (!measured) cost = static_cast<double>(kRendezvousNs);
  pool.section_cost_ns.store(cost, std::memory_order_relaxed);
  const std::uint32_t failures =
      measured ? 0 : g_section_cost_failures.fetch_add(1, std::memory_order_relaxed);
  if (measured) g_section_cost_failures.store(0, std::memory_order_relaxed);
  const std::uint64_t retry_ns =
      measured ? 0 : monotonic_ns() + (kFirstRetryNs << std::min(failures, kMaxRetryDoublings));
  pool.section_cost_expires_ns.store(retry_ns, std::memory_order_relaxed);
  g_section_cost_retry_ns.store(retry_ns, std::memory_order_relaxed);
  pool.section_cost_width.store(width, std::memory_order_release);
  if (measured) {
    g_section_cost_ns.store(cost, std::memory_order_relaxed);
    g_section_cost_width.store(width, std::memory_order_release);
  }
  return cost;
}

}  // namespace

bool Team::section_cost_measured(std::size_t width) const {
  width = std::min(width, width_);
  if (width <= 1) return true;
  const Pool::Impl& impl = pool_->impl();
  return impl.section_cost_width.load(std::memory_order_acquire) == width &&
         impl.section_cost_expires_ns.load(std::memory_order_relaxed) == 0;
}

double Team::section_cost_ns(std::size_t width) {
  width = std::min(width, width_);
  if (width <= 1) return 0.0;
  Pool::Impl& impl = pool_->impl();
  if (const std::optional<double> known = known_section_cost(impl, width)) return *known;
  return record_section_cost(impl, width, measure_section_cost(*this, impl, width));
}

}  // namespace teamla::team
