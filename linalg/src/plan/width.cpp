// SPDX-License-Identifier: Apache-2.0
// width.cpp: the dispatch cost table and the width choice (see width.hpp).
#include "teamla/linalg/width.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>

#include "isa_dispatch.hpp"
#include "plan/width_internal.hpp"
#include "teamla/team/cpu_budget.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

// Section dispatch+join cost at width 2, in ns, per kind: the fallback table of width.hpp,
// chosen from empty sections on a held team (benches/gemm_dispatch_cost):
//   hot: above the measured p50, libgomp's region cost as a safe upper bound of a quiet one;
//   after_gap: the cost of a member that has left its spin for a short sleep;
//   parked: a futex wake of a parked member.
// The figures: docs/perf/blocking.md. The heavy tails under foreign load are handled by the
// observed penalty below, not here.
constexpr double kHotNs = 3100;
constexpr double kAfterGapNs = 20000;
constexpr double kParkedNs = 66000;
// Each member beyond the first adds one wake and one join arrival; taken as a third of the
// width-2 cost. An estimate, not a measurement (docs/perf/blocking.md).
constexpr double kPerExtraMemberFraction = 1.0 / 3.0;

double base_cost(DispatchKind kind) {
  switch (kind) {
    case DispatchKind::hot:
      return kHotNs;
    case DispatchKind::after_gap:
      return kAfterGapNs;
    case DispatchKind::parked:
      return kParkedNs;
  }
  return kParkedNs;
}

}  // namespace

std::size_t detail::choose_with_cost(double serial_estimate_ns, std::size_t sections,
                                     std::size_t max_width, double base_cost_ns, double extra_ns) {
  if (sections == 0) {
    sections = 1;
  }
  std::size_t best_width = 1;
  double best_time = serial_estimate_ns;
  const auto n_sections = static_cast<double>(sections);
  for (std::size_t w = 2; w <= max_width; ++w) {
    const double cost =
        base_cost_ns + base_cost_ns * kPerExtraMemberFraction * static_cast<double>(w - 2);
    const double dispatch = n_sections * (cost + extra_ns);
    if (serial_estimate_ns < 3.0 * dispatch) {
      continue;  // the dispatches would cost more than a third of the work
    }
    const double time = serial_estimate_ns / static_cast<double>(w) + dispatch;
    if (time < best_time * (1.0 - kWidthTieTolerance)) {
      best_time = time;
      best_width = w;
    }
  }
  return best_width;
}

namespace {

std::size_t choose_with_extra(double serial_estimate_ns, std::size_t sections,
                              std::size_t max_width, DispatchKind kind, double extra_ns) {
  return detail::choose_with_cost(serial_estimate_ns, sections, max_width, base_cost(kind),
                                  extra_ns);
}

// The observed penalty: value (ns, as of stamp) and the monotonic stamp, each a relaxed
// atomic. The two are read and written without a common lock: a racing reader may pair a
// new value with an old stamp (or the reverse), which only shifts the decay by the time
// between two records; the penalty is a heuristic, never a correctness input.
std::atomic<double> g_penalty_ns{0.0};
std::atomic<std::uint64_t> g_penalty_stamp_ns{0};
std::atomic<bool> g_observe{true};
// The last wide sections, newest in bit 0: 1 = lost against the serial estimate.
std::atomic<std::uint32_t> g_loss_bits{0};
// The wide sections since the last stall, up to kStallRecurSections, or kNoStallYet (a relaxed
// load and store: a racing count only shifts the threshold).
constexpr std::uint32_t kNoStallYet = ~std::uint32_t{0};
std::atomic<std::uint32_t> g_sections_since_stall{kNoStallYet};
// kLossesToPenalise: the penalty applies only while at least 2 of the last 4 wide sections
// lost. A single outlier (a fresh pool's first wake, one unlucky preemption) must not keep
// every later call inline: in the gemm bench (one short process per shape) a single outlier
// kept 2 threads at width 1 up to n = 384.
constexpr int kLossesToPenalise = 2;
constexpr std::uint32_t kLossWindow = 0xF;
// kStallFactor: a wide region that waited for its members twice its inline time (so took 3x
// it) lost a scheduler slice to foreign load: under `foreign_load --load 2:10` a few 2-thread
// dgemm 128 calls in a hundred take ten times their time (docs/perf/calls.md,
// docs/perf/blocking.md). Each such stall keeps the
// following small regions inline while the penalty decays (half-life 20 ms).
constexpr double kStallFactor = 3.0;
// kSliceLossNs: and a stall waited at least this long: a member that lost its CPU to another
// runnable task is gone for a scheduler slice (Linux's base slice is 0.75 ms), while a quiet
// machine's own pauses make the leader wait a few tenths of a millisecond at most.
// 0.5 ms: below every stall under foreign load and above every quiet pause measured
// (docs/perf/blocking.md; docs/gemm.md, "What a wide region is charged for").
constexpr double kSliceLossNs = 500e3;
// kStallWeight: a stall moves the penalty half way to its excess (a 1 ms stall keeps a 0.1 ms
// region inline for ~60 ms).
// 0.5: with 1/8 the per-call p99 under foreign load stayed as high (docs/perf/blocking.md).
constexpr double kStallWeight = 0.5;
// kStallRecurSections: a stall is evidence on its own only when it comes within this many wide
// sections of the one before: stalls in more than 1 section in 200 reach a p99, which staying
// inline protects, and under foreign load they come every few dozen sections. A rarer stall,
// the process's first included, is a loss like any other: a quiet machine's own services take
// a member's CPU for a few ms now and then, thousands of sections apart, and taken alone each
// would keep a class decided wide inline for ~100 ms, so that fresh processes would run one
// call at different widths (docs/gemm.md, "What a wide region is charged for";
// docs/perf/stability.md).
constexpr std::uint32_t kStallRecurSections = 200;

double decayed(double value, std::uint64_t stamp, std::uint64_t now) {
  if (value <= 0.0 || now <= stamp) {
    return value;
  }
  return value * std::exp2(-static_cast<double>(now - stamp) / kPenaltyHalfLifeNs);
}

}  // namespace

namespace {

// PenaltyRead: this thread's last reading of the penalty. Every region's plan reads it, and
// while the wide arm's re-runs lose (a class that runs inline, at 2 threads) it is on: a
// monotonic clock read and an exp2 per call then cost a visible share of a dgemm 48 x 48 x 48 at 2
// threads (docs/gemm.md, "The width a region runs at"; docs/perf/blocking.md). It is decayed to the
// coarse clock instead (4 ms ticks against the 20 ms half-life; the tick lags the record's stamp by
// less than one, which only delays the decay by as much) and recomputed when the tick or the
// penalty changed.
struct PenaltyRead {
  double value = -1.0;
  std::uint64_t stamp = 0;
  std::uint64_t tick = 0;
  double decayed = 0.0;
};
constinit thread_local PenaltyRead t_penalty_read;

}  // namespace

double observed_section_penalty_ns() {
  if (std::popcount(g_loss_bits.load(std::memory_order_relaxed) & kLossWindow) <
      kLossesToPenalise) {
    return 0.0;
  }
  const double value = g_penalty_ns.load(std::memory_order_relaxed);
  const std::uint64_t stamp = g_penalty_stamp_ns.load(std::memory_order_relaxed);
  const std::uint64_t tick = team::coarse_monotonic_ns();
  PenaltyRead& read = t_penalty_read;
  if (value != read.value || stamp != read.stamp || tick != read.tick) {
    read = PenaltyRead{value, stamp, tick, decayed(value, stamp, tick)};
  }
  return read.decayed;
}

void record_section(double wall_ns, double expected_ns, double waited_ns) {
  if (!g_observe.load(std::memory_order_relaxed)) {
    return;
  }
  const std::uint64_t now = team::monotonic_ns();
  // The excess charged to the section: what it lost against running inline, but no more than
  // its leader spent waiting for members. A region that was slow because the whole machine
  // paused (the leader's own work took longer) would have been as slow inline.
  const double excess = std::clamp(wall_ns - expected_ns, 0.0, std::max(waited_ns, 0.0));
  const std::uint32_t bits = g_loss_bits.load(std::memory_order_relaxed);
  // A stall (a member descheduled with a unit in hand) that recurs is evidence on its own and
  // moves the penalty half way to its excess; milder losses, and a rare stall, must repeat (2
  // of the last 4), and one within the tie tolerance is no loss.
  const bool stall = excess >= std::max((kStallFactor - 1.0) * expected_ns, kSliceLossNs);
  const std::uint32_t since_stall = g_sections_since_stall.load(std::memory_order_relaxed);
  const bool recurring = stall && since_stall < kStallRecurSections;
  if (stall || since_stall < kStallRecurSections) {
    g_sections_since_stall.store(stall ? 0 : since_stall + 1, std::memory_order_relaxed);
  }
  const bool lost = excess > kWidthTieTolerance * expected_ns;
  g_loss_bits.store(recurring ? kLossWindow : (bits << 1) | (lost ? 1u : 0u),
                    std::memory_order_relaxed);
  const double current = decayed(g_penalty_ns.load(std::memory_order_relaxed),
                                 g_penalty_stamp_ns.load(std::memory_order_relaxed), now);
  const double weight = recurring ? kStallWeight : kPenaltyWeight;
  g_penalty_ns.store((1.0 - weight) * current + weight * excess, std::memory_order_relaxed);
  g_penalty_stamp_ns.store(now, std::memory_order_relaxed);
}

std::size_t choose_width_observed(double serial_estimate_ns, std::size_t sections,
                                  std::size_t max_width, DispatchKind kind) {
  if (max_width <= 1) {
    return 1;
  }
  // Never wider than the CPUs the process can run on now (affinity set, cgroup quota): under
  // `taskset -c 0` a second participant could only run by preempting the first.
  max_width = std::min<std::size_t>(max_width, team::usable_cpu_count());
  if (max_width <= 1) {
    return 1;
  }
  return choose_with_extra(serial_estimate_ns, sections, max_width, kind,
                           observed_section_penalty_ns());
}

bool detail::section_observation() { return g_observe.load(std::memory_order_relaxed); }

void detail::set_section_observation(bool enabled) {
  g_observe.store(enabled, std::memory_order_relaxed);
  reset_learned_rates();
  g_penalty_ns.store(0.0, std::memory_order_relaxed);
  g_loss_bits.store(0, std::memory_order_relaxed);
  g_sections_since_stall.store(kNoStallYet, std::memory_order_relaxed);
}

double dispatch_cost_ns(std::size_t width, DispatchKind kind) {
  if (width <= 1) {
    return 0.0;
  }
  const double base = base_cost(kind);
  return base + base * kPerExtraMemberFraction * static_cast<double>(width - 2);
}

std::size_t choose_width(double serial_estimate_ns, std::size_t sections, std::size_t max_width,
                         DispatchKind kind) {
  return choose_with_extra(serial_estimate_ns, sections, max_width, kind, 0.0);
}

std::size_t detail::region_cap(Exec& exec) {
  if (exec.team == nullptr) return 1;
  std::size_t cap = exec.team->width();
  if (exec.max_width != 0) cap = std::min(cap, exec.max_width);
  if (cap <= 1) return cap;
  cap = std::min<std::size_t>(cap, team::usable_cpu_count());
  const std::size_t budget = 1 + team::free_cpus();
  if (budget < cap) {
    ++exec.stats.budget_limited_regions;
    cap = budget;
  }
  return cap;
}

double gemm_serial_gflops(std::size_t scalar_bytes) {
  const detail::IsaTable& table = detail::active_table();
  return scalar_bytes == 8 ? table.d.blocking.serial_gflops : table.s.blocking.serial_gflops;
}

}  // namespace teamla::linalg
