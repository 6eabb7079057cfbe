// SPDX-License-Identifier: Apache-2.0
// width_learn.cpp: plan_region() and record_region(): the width a region runs at, from the
// measured section cost and the rates learned from the regions this process ran (width.hpp).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>

#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"
#include "width_internal.hpp"

namespace teamla::linalg {
namespace {

// The learned rate moves a quarter of the way to each new sample, and a sample is clipped to
// [1/2, 2] x the current rate. A sample over kOutlier x the rate counts only when the arm's
// sample before it was one too: a single slow region is an outlier, two in a row a change.
// Learned at once, one inline region that the VM paused (25-100 us, often enough:
// docs/perf/calls.md) raised the inline rate by 25 %, past the wide one, and dgemm 48 x 48 x 48
// at 2 threads ran wide at 0.85x inline for hundreds of regions every few hundred ms until
// re-runs of the inline arm brought the rate back (regions logged by a temporary build;
// docs/gemm.md, "The width a region runs at"). A tighter clip instead (1.25) kept the rates
// from converging: a wide rate first learned high came down by 5 % per re-run, one re-run
// every 100 ms.
constexpr double kLearnWeight = 0.25;
constexpr double kClip = 2.0;
constexpr double kOutlier = 1.5;
constexpr std::uint32_t kTimedInlineEvery = 4;

// Cell: what regions of one kind, scalar size and size class took, in ns per flop (0: none
// yet). `wide_width` is the width the wide rate was measured at.
struct Cell {
  std::atomic<float> serial{0.0F};
  std::atomic<float> wide{0.0F};
  std::atomic<std::uint32_t> wide_width{0};
  // The regions planned in this cell, and the first region of the next run of kExploreRun
  // that re-runs the arm not chosen. Both are a relaxed load and store, not a read-modify-write
  // (racing callers may lose a count, which only shifts a run).
  std::atomic<std::uint64_t> regions{0};
  std::atomic<std::uint64_t> explore_at{kExplorePeriod - kExploreRun};
  // The arm the rates chose at the cell's last region (true: wide).
  std::atomic<bool> chose_wide{false};
  std::atomic<std::uint32_t> last_width{0};  // the width the cell's last region was planned at
  // While inline is the faster arm: when the wide arm was last re-run, and whether the current
  // run of kExploreRun regions may go wide (kWideExploreGapNs).
  std::atomic<std::uint64_t> wide_explored_ns{0};
  std::atomic<bool> wide_explore_due{false};
  // Bit 0 (inline) and bit 1 (wide): the arm's first timed region has been seen. That one is
  // not learned: it pays for first touches (the workspace's pages, cold caches). Measured:
  // 2048 x 16 x 16 dgemm's first inline region took 1.0 ms against 23 us after; learned, it put
  // the class above kLearnCeilingNs for good, where the model's width 2 ran at 0.6-0.8x inline.
  std::atomic<std::uint32_t> warmed{0};
  // The same bits: the arm's last sample was over kOutlier x its rate (learn()).
  std::atomic<std::uint32_t> high{0};
};

constexpr unsigned kKinds = 4;     // RegionKind's values
constexpr unsigned kScalars = 2;   // double, float
constexpr unsigned kClasses = 48;  // floor(log2(flops))
std::array<Cell, kKinds * kScalars * kClasses> g_cells;
std::atomic<std::uint64_t> g_wide_explore_gap_ns{kWideExploreGapNs};

// The classes of each kind and scalar size (bit c: class c) whose next region the learner will
// run inline by choice (learned_inline()). A bit changes only when a class's answer does (a
// locked OR or AND a few times per explore run); callers read the word with one load.
static_assert(kClasses <= 64);
std::array<std::atomic<std::uint64_t>, kKinds * kScalars> g_inline_classes{};

// size_class(): floor(log2(flops)) from the exponent's bits (ilogb() is a call into libm, on
// the path of every BLAS call the learner runs inline), clamped to the classes.
unsigned size_class(double flops) {
  if (!(flops >= 1)) return 0;
  const auto exponent = static_cast<int>((std::bit_cast<std::uint64_t>(flops) >> 52) & 0x7FF);
  return static_cast<unsigned>(std::min(exponent - 1023, int{kClasses} - 1));
}

unsigned class_row(RegionKind kind, std::size_t scalar_bytes) {
  return static_cast<unsigned>(kind) * kScalars + (scalar_bytes == 8 ? 0U : 1U);
}

unsigned cell_index(RegionKind kind, std::size_t scalar_bytes, double flops) {
  return class_row(kind, scalar_bytes) * kClasses + size_class(flops);
}

// publish_inline(): whether the next region of cell `index` is one the learner runs inline
// without needing to see it (learned_inline()).
void publish_inline(unsigned index, bool runs_inline) {
  std::atomic<std::uint64_t>& word = g_inline_classes[index / kClasses];
  const std::uint64_t bit = std::uint64_t{1} << (index % kClasses);
  if (((word.load(std::memory_order_relaxed) & bit) != 0) == runs_inline) return;
  if (runs_inline) {
    word.fetch_or(bit, std::memory_order_relaxed);
  } else {
    word.fetch_and(~bit, std::memory_order_relaxed);
  }
}

// learn(): `high` is the cell's bit of this arm's last sample: over kOutlier x the rate.
void learn(std::atomic<float>& rate, double sample, std::atomic<std::uint32_t>& high_bits,
           std::uint32_t arm) {
  const auto current = static_cast<double>(rate.load(std::memory_order_relaxed));
  if (current <= 0) {
    rate.store(static_cast<float>(sample), std::memory_order_relaxed);
    return;
  }
  const std::uint32_t bits = high_bits.load(std::memory_order_relaxed);
  const bool high = sample > kOutlier * current;
  if (high != ((bits & arm) != 0)) {
    high_bits.store(high ? bits | arm : bits & ~arm, std::memory_order_relaxed);
  }
  if (high && (bits & arm) == 0) return;  // alone so far: an outlier
  const double clipped = std::clamp(sample, current / kClip, current * kClip);
  rate.store(static_cast<float>(current + kLearnWeight * (clipped - current)),
             std::memory_order_relaxed);
}

// note_wide_plan(): what record_region() compares after a wide region: the leader's waits and
// the members its posts found not running.
void note_wide_plan(RegionPlan& plan) {
  plan.leader_wait_at_plan_ns = team::leader_wait_ns();
  plan.not_running_at_plan = team::members_not_running();
}

}  // namespace

void detail::set_wide_explore_gap_ns(std::uint64_t gap_ns) {
  g_wide_explore_gap_ns.store(gap_ns, std::memory_order_relaxed);
}

void detail::reset_learned_rates() {
  for (Cell& cell : g_cells) {
    cell.serial.store(0, std::memory_order_relaxed);
    cell.wide.store(0, std::memory_order_relaxed);
    cell.wide_width.store(0, std::memory_order_relaxed);
    cell.regions.store(0, std::memory_order_relaxed);
    cell.explore_at.store(kExplorePeriod - kExploreRun, std::memory_order_relaxed);
    cell.chose_wide.store(false, std::memory_order_relaxed);
    cell.last_width.store(0, std::memory_order_relaxed);
    cell.wide_explored_ns.store(0, std::memory_order_relaxed);
    cell.wide_explore_due.store(false, std::memory_order_relaxed);
    cell.warmed.store(0, std::memory_order_relaxed);
    cell.high.store(0, std::memory_order_relaxed);
  }
  for (std::atomic<std::uint64_t>& word : g_inline_classes)
    word.store(0, std::memory_order_relaxed);
}

// The floor of the last team this thread planned for, in flops (per scalar size): a region
// below it runs inline after two loads and a compare, the cost a tiny call can afford. It is a
// copy of what the full path computes (the model's serial time under kLearnFloorCosts section
// costs), refreshed whenever that path runs; another team's values are dropped.
struct TinyFloor {
  const team::Team* team = nullptr;
  double flops[2] = {0, 0};
};
thread_local TinyFloor t_floor;

// The floors of inline_floor_flops(), per scalar size; written where t_floor is.
std::atomic<double> g_inline_floor[2] = {0.0, 0.0};

bool learned_inline(RegionKind kind, std::size_t scalar_bytes, double flops) {
  const std::uint64_t word =
      g_inline_classes[class_row(kind, scalar_bytes)].load(std::memory_order_relaxed);
  return ((word >> size_class(flops)) & 1U) != 0;
}

double inline_floor_flops(std::size_t scalar_bytes) {
  return g_inline_floor[scalar_bytes == 8 ? 0 : 1].load(std::memory_order_relaxed);
}

RegionPlan plan_region(RegionKind kind, std::size_t scalar_bytes, double flops, Exec& exec) {
  RegionPlan plan;
  plan.flops = flops;
  if (exec.team == nullptr) return plan;
  const unsigned scalar = scalar_bytes == 8 ? 0U : 1U;
  // One look-up of the thread-local floor (in a shared library each is a call).
  TinyFloor& floor = t_floor;
  if (exec.team == floor.team && exec.max_width == 0 && flops < floor.flops[scalar]) {
    return plan;  // the tiny-call path
  }
  const std::size_t cap = detail::region_cap(exec);
  exec.stats.width_cap = cap;
  const double model_serial = serial_estimate_ns(flops, gemm_serial_gflops(scalar_bytes));
  plan.must_beat_ns = model_serial;
  if (cap <= 1) return plan;
  // The team's section cost, measured at the cap (an atomic load once measured); the model's
  // base is the width-2 cost (width.cpp adds a third of it per further member).
  // With observation off (tests on a loaded machine) nothing measured enters: the fallback.
  const double cost = detail::section_observation() ? exec.team->section_cost_ns(cap) : 0.0;
  exec.stats.section_cost_ns = cost;
  double base = detail::kFallbackSectionNs;
  if (cost > 0) base = cap == 2 ? cost : cost / (1.0 + static_cast<double>(cap - 2) / 3.0);
  // A region too small for any section to pay runs inline before anything else is read (the
  // small-call path: no learned cell, no clock).
  // A provisional cost (no member came to the measurement) is measured again soon: the tiny
  // path must not keep it, or every later small region would stay inline for good.
  const bool cost_known = cost > 0 && exec.team->section_cost_measured(cap);
  const double floor_flops = kLearnFloorCosts * base * gemm_serial_gflops(scalar_bytes);
  if (exec.max_width == 0) {
    if (floor.team != exec.team) floor = TinyFloor{exec.team, {0, 0}};  // nothing stale
    floor.flops[scalar] = cost <= 0 || cost_known ? floor_flops : 0.0;
  }
  // Only a measured cost is published: the fallback cost is another machine's. Stored only when
  // it changed, so that threads planning at once do not pass the line between them each region.
  const double published = cost_known ? floor_flops : 0.0;
  if (g_inline_floor[scalar].load(std::memory_order_relaxed) != published) {
    g_inline_floor[scalar].store(published, std::memory_order_relaxed);
  }
  if (model_serial < kLearnFloorCosts * base) return plan;
  // The legacy arm reproduces threadteam 0.1.3, which had no observed penalty and learned
  // nothing: the model alone, so the A/B against it differs in the waits only.
  const bool legacy = exec.team->pool().policy() == team::WaitPolicy::legacy;
  const double penalty = legacy ? 0.0 : observed_section_penalty_ns();
  plan.cell = cell_index(kind, scalar_bytes, flops);
  Cell& cell = g_cells[plan.cell];
  const double learned_serial =
      static_cast<double>(cell.serial.load(std::memory_order_relaxed)) * flops;
  const double serial = learned_serial > 0 ? learned_serial : model_serial;
  const std::size_t model_width = detail::choose_with_cost(serial, 1, cap, base, penalty);
  if (legacy || !detail::section_observation() || serial < kLearnFloorCosts * base ||
      serial > kLearnCeilingNs) {
    plan.width = model_width;
    if (plan.width > 1) note_wide_plan(plan);
    // The model's choice stands until the rates or the cost change (the legacy arm keeps
    // every region on the planner, as threadteam 0.1.3 did).
    publish_inline(plan.cell, !legacy && model_width == 1);
    return plan;
  }
  // The close calls: measure both arms and take the faster.
  plan.must_beat_ns = serial;
  ++exec.stats.learned_regions;
  const std::size_t wide_width = model_width > 1 ? model_width : std::min<std::size_t>(cap, 2);
  const bool wide_known = cell.wide_width.load(std::memory_order_relaxed) == wide_width &&
                          cell.wide.load(std::memory_order_relaxed) > 0;
  const double wide =
      wide_known ? static_cast<double>(cell.wide.load(std::memory_order_relaxed)) * flops + penalty
                 : serial / static_cast<double>(wide_width) + base + penalty;
  // Until the inline rate is known, a close call runs inline (and is timed): the model's serial
  // rate comes from another machine, and going wide on it cost small sizes most.
  const bool go_wide = learned_serial > 0 && wide < serial * (1.0 - kWidthTieTolerance);
  const std::uint64_t region = cell.regions.load(std::memory_order_relaxed);
  cell.regions.store(region + 1, std::memory_order_relaxed);
  // Once a run is over, the next is scheduled a period later. Re-running the slower arm costs
  // (ratio - 1) of a region for each of its kExploreRun regions, and switching back up to
  // kSwitchBackRegions more: the period keeps that under kExploreShare of the cell's time. It is
  // computed once a period, not per region: its divisions, and a locked increment of the
  // count, were a third of plan_region() (perf, sgemm 48 x 48 x 48 at 2 threads).
  std::uint64_t run_start = cell.explore_at.load(std::memory_order_relaxed);
  // When the rates change their choice, the arm left is re-run within kExplorePeriod regions:
  // a choice made on a rate learned in a slow patch of the VM's (inline regions at 2x for tens
  // of us) is then undone in a few runs, where the period of the ratio took hundreds of wide
  // regions at 0.85x inline (dgemm 48 x 48 x 48 at 2 threads, regions logged by a temporary
  // build; docs/gemm.md, "The width a region runs at").
  if (cell.chose_wide.load(std::memory_order_relaxed) != go_wide) {
    cell.chose_wide.store(go_wide, std::memory_order_relaxed);
    run_start = std::min(run_start, region + kExplorePeriod - kExploreRun);
    cell.explore_at.store(run_start, std::memory_order_relaxed);
  }
  // A run of the wide arm (inline the faster, or the wide rate unknown) is one region longer:
  // its first region runs inline and wakes the members (Team::wake_members), so that the wide
  // regions after it are timed with the members there. Without it a member parked since the
  // last run missed them (woken, it was not running yet): the leader ran every unit alone, the
  // wide arm looked slower than inline, and dgemm 128 x 128 x 128 at 2 threads stayed inline
  // at 1.0x the 1-thread calls where wide runs 1.3x (docs/gemm.md, "The width a region runs
  // at").
  const bool wide_run = !go_wide;
  const unsigned run_length = kExploreRun + (wide_run ? 1U : 0U);
  if (region >= run_start + run_length) {
    std::uint32_t period = kExplorePeriod;
    if (wide_known && learned_serial > 0) {
      const double ratio = std::max(wide / serial, serial / wide);
      const double period_for_share =
          ((ratio - 1.0) * kExploreRun + kSwitchBackRegions) / kExploreShare;
      period = static_cast<std::uint32_t>(
          std::clamp<double>(period_for_share, kExplorePeriod, kQuietExplorePeriod));
    }
    run_start = region + period - kExploreRun;
    cell.explore_at.store(run_start, std::memory_order_relaxed);
  }
  bool explore = region >= run_start;
  bool wake_members = false;
  if (explore && wide_run) {
    // Re-running the wide arm wakes the members: at most every kWideExploreGapNs, decided
    // by the run's first region for the whole run.
    if (wide_known) {
      if (region == run_start) {
        const std::uint64_t now = team::monotonic_ns();
        const bool due = now - cell.wide_explored_ns.load(std::memory_order_relaxed) >=
                         g_wide_explore_gap_ns.load(std::memory_order_relaxed);
        if (due) cell.wide_explored_ns.store(now, std::memory_order_relaxed);
        cell.wide_explore_due.store(due, std::memory_order_relaxed);
      }
      explore = cell.wide_explore_due.load(std::memory_order_relaxed);
    }
    wake_members = explore && region == run_start;
    if (wake_members) explore = false;  // the run's first region: inline, members woken
  }
  plan.width = go_wide != explore ? wide_width : 1;
  plan.park_members_after = plan.width > 1 && explore && region + 1 == run_start + run_length;
  plan.woke_members = wake_members;
  if (wake_members) exec.team->wake_members(wide_width);
  if (plan.width > 1) note_wide_plan(plan);
  const auto width = static_cast<std::uint32_t>(plan.width);
  // A load and, on a switch only, a store: no read-modify-write on the common path.
  plan.switched = cell.last_width.load(std::memory_order_relaxed) != width;
  if (plan.switched) cell.last_width.store(width, std::memory_order_relaxed);
  // Every wide region is timed (the join already reads the clock); an inline one when it
  // explores, every kTimedInlineEvery-th, and whenever its rate is unknown, so two clock reads
  // stay off most small calls.
  plan.timed = plan.width > 1 || learned_serial <= 0 || explore || region % kTimedInlineEvery == 0;
  // A caller may skip planning the next region only if it would run inline and is no explore
  // run's: a run's regions then come here one after another, as the run needs (its first
  // wakes the members for the wide regions after it).
  publish_inline(plan.cell, !go_wide && learned_serial > 0 && region + 1 < run_start);
  return plan;
}

void record_region(const RegionPlan& plan, double wall_ns) {
  if (plan.width > 1) {
    record_section(wall_ns, plan.must_beat_ns,
                   static_cast<double>(team::leader_wait_ns() - plan.leader_wait_at_plan_ns));
  }
  if (!plan.timed || plan.flops <= 0 || !detail::section_observation()) return;
  Cell& cell = g_cells[plan.cell];
  const std::uint32_t arm = plan.width == 1 ? 1U : 2U;
  if ((cell.warmed.fetch_or(arm, std::memory_order_relaxed) & arm) == 0) return;
  if (plan.switched) return;
  // A wide region whose section found a member not running (asleep after a pause longer than
  // the members' spin, or still waking from that) measured the member's wake, not the width.
  // After each pause the first two wide regions of dgemm 128 x 128 x 128 at 2 threads took
  // 125-207 us against 55-120 us for the rest: two slow samples in a row, which learn() takes
  // for a change (docs/gemm.md, "The width a region runs at").
  if (plan.width > 1 && team::members_not_running() != plan.not_running_at_plan) return;
  const double rate = wall_ns / plan.flops;
  if (plan.width == 1) {
    learn(cell.serial, rate, cell.high, arm);
    return;
  }
  const auto width = static_cast<std::uint32_t>(plan.width);
  if (cell.wide_width.exchange(width, std::memory_order_relaxed) != width) {
    cell.wide.store(0, std::memory_order_relaxed);  // measured at another width: start again
  }
  learn(cell.wide, rate, cell.high, arm);
}

}  // namespace teamla::linalg
