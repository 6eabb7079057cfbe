// SPDX-License-Identifier: Apache-2.0
// width_learn.cpp: plan_region() and record_region(): the width a region runs at, from the
// measured section cost and the decisions calibrated on the regions this machine ran
// (width.hpp), kept in the width cache.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "plan/width_cache.hpp"
#include "plan/width_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

// kSamples: each arm's samples of one calibration, kCalibrationBlock - 1 per block.
constexpr unsigned kSamples = (kCalibrationBlock - 1) * kCalibrationBlocks / 2;
constexpr unsigned kCalibrationRegions = kCalibrationBlock * kCalibrationBlocks;

enum Decision : std::uint32_t { kUndecided = 0, kInline = 1, kWide = 2 };

// Cell: one kind, scalar size and size class. Every field is a relaxed atomic written by
// plain loads and stores, not read-modify-writes: threads that plan regions of one class at
// once may lose a count or a sample, which only moves a calibration's blocks by a region.
struct Cell {
  std::atomic<std::uint32_t> decision{kUndecided};
  std::atomic<std::uint32_t> wide_width{0};  // the width the wide arm runs (and was decided) at
  std::atomic<float> serial{0.0F};           // the decided rates, ns per flop (medians)
  std::atomic<float> wide{0.0F};
  // The regions of the calibration under way (its blocks), or since the decision (its check).
  std::atomic<std::uint64_t> regions{0};
  std::atomic<bool> calibrating{true};
  std::atomic<std::uint64_t> decided_ns{0};  // when it was last decided (coarse clock)
  std::array<std::atomic<float>, kSamples> inline_samples{};
  std::array<std::atomic<float>, kSamples> wide_samples{};
  std::atomic<std::uint32_t> inline_count{0};
  std::atomic<std::uint32_t> wide_count{0};
};

constexpr unsigned kKinds = 5;     // RegionKind's values
constexpr unsigned kScalars = 2;   // double, float
constexpr unsigned kClasses = 48;  // floor(log2(flops))
constexpr unsigned kCells = kKinds * kScalars * kClasses;
std::array<Cell, kCells> g_cells;
std::atomic<std::uint64_t> g_recheck_ns{kRecheckNs};

// The classes of each kind and scalar size (bit c: class c) whose next region the planner
// runs inline without seeing it (learned_inline()). A bit changes only when a class's answer
// does; callers read the word with one load.
static_assert(kClasses <= 64);
std::array<std::atomic<std::uint64_t>, kKinds * kScalars> g_inline_classes{};

// The width cache: its directory and counts, and whether its file has been read into the
// cells. Guarded by g_cache_mutex, which only decisions and use_width_cache() take.
std::mutex g_cache_mutex;
WidthCacheStatus g_cache;
std::atomic<bool> g_cache_pending{false};  // a directory is set and not yet read

// Calls never wait for g_cache_mutex: they try it, and a busy cache is left for a later
// region (or, for a write, to the next decision, which writes every decision). A fork() while
// another thread writes the file copies the mutex held into the child, which then runs without
// the cache rather than waiting for good; and no lock order with the ABI's creation mutex
// (held while an engine is built, and by its fork hook) can deadlock (docs/team.md, "Fork").
using CacheLock = std::unique_lock<std::mutex>;

// size_class(): floor(log2(flops)) from the exponent's bits (ilogb() is a call into libm, on
// the path of every BLAS call the planner runs inline), clamped to the classes.
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

// publish_inline(): whether the next region of cell `index` is one the planner runs inline
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

// Quartiles: the median of an arm's samples, and whether they agree (the upper quartile within
// kQuietSpread of the lower).
struct Quartiles {
  double median = 0;
  bool tight = false;
};

// kQuietSpread: a calibration is kept in the width cache only if each arm's samples agree this
// well. On a busy machine (other processes on the CPUs, a test suite run in parallel) a wide
// region's time depends on whether the member got its CPU, and the wide arm's samples spread
// over 2x and more; a decision made from them holds in the process but must not be handed to
// every later one.
constexpr double kQuietSpread = 1.25;

Quartiles quartiles(const std::array<std::atomic<float>, kSamples>& samples, std::uint32_t count) {
  std::array<float, kSamples> values{};
  count = std::min<std::uint32_t>(count, kSamples);
  for (std::uint32_t i = 0; i < count; ++i) values[i] = samples[i].load(std::memory_order_relaxed);
  std::sort(values.begin(), values.begin() + count);
  const double lower = values[count / 4];
  const double upper = values[(3 * count) / 4 < count ? (3 * count) / 4 : count - 1];
  return {values[count / 2], upper <= kQuietSpread * lower};
}

void start_calibration(Cell& cell) {
  cell.inline_count.store(0, std::memory_order_relaxed);
  cell.wide_count.store(0, std::memory_order_relaxed);
  cell.regions.store(0, std::memory_order_relaxed);
  cell.calibrating.store(true, std::memory_order_relaxed);
}

// store_decisions(): every decided cell into the cache's file. The caller holds g_cache_mutex.
void store_decisions() {
  std::vector<detail::CachedDecision> decisions;
  for (unsigned index = 0; index < kCells; ++index) {
    const Cell& cell = g_cells[index];
    const std::uint32_t decision = cell.decision.load(std::memory_order_relaxed);
    if (decision == kUndecided) continue;
    decisions.push_back({index, cell.wide_width.load(std::memory_order_relaxed), decision == kWide,
                         cell.serial.load(std::memory_order_relaxed),
                         cell.wide.load(std::memory_order_relaxed)});
  }
  if (detail::write_width_cache(g_cache.directory, decisions)) {
    ++g_cache.stored;
  } else {
    ++g_cache.write_failures;
  }
}

// load_decisions(): the cache's decisions into the cells still undecided. The caller holds
// g_cache_mutex.
void load_decisions() {
  std::vector<detail::CachedDecision> decisions;
  const detail::CacheRead read = detail::read_width_cache(g_cache.directory, kCells, decisions);
  if (read == detail::CacheRead::rejected) ++g_cache.rejected;
  const std::uint64_t now = team::coarse_monotonic_ns();
  for (const detail::CachedDecision& cached : decisions) {
    Cell& cell = g_cells[cached.cell];
    if (cell.decision.load(std::memory_order_relaxed) != kUndecided) continue;
    cell.wide_width.store(cached.width, std::memory_order_relaxed);
    cell.serial.store(cached.serial_ns_per_flop, std::memory_order_relaxed);
    cell.wide.store(cached.wide_ns_per_flop, std::memory_order_relaxed);
    cell.regions.store(0, std::memory_order_relaxed);
    cell.decided_ns.store(now, std::memory_order_relaxed);
    cell.calibrating.store(false, std::memory_order_relaxed);
    cell.decision.store(cached.wide ? kWide : kInline, std::memory_order_relaxed);
    publish_inline(cached.cell, !cached.wide);
    ++g_cache.loaded;
  }
}

void load_cache_once() {
  if (!g_cache_pending.load(std::memory_order_acquire)) return;
  const CacheLock lock(g_cache_mutex, std::try_to_lock);
  if (!lock.owns_lock() || !g_cache_pending.load(std::memory_order_relaxed)) return;
  load_decisions();
  g_cache_pending.store(false, std::memory_order_release);
}

// decide(): the end of a calibration of cell `index`: the medians decide it. A first
// calibration takes the faster arm (within the tie tolerance, inline); a check changes a
// decision only when the other arm is faster by more than kRecheckMargin. A decision made on a
// busy machine (an arm's samples spread past kQuietSpread, or the observed penalty on) holds in
// this process but is not kept in the cache.
void decide(unsigned index, Cell& cell) {
  const std::uint32_t inline_count = cell.inline_count.load(std::memory_order_relaxed);
  const std::uint32_t wide_count = cell.wide_count.load(std::memory_order_relaxed);
  cell.regions.store(0, std::memory_order_relaxed);
  cell.decided_ns.store(team::coarse_monotonic_ns(), std::memory_order_relaxed);
  cell.calibrating.store(false, std::memory_order_relaxed);
  const std::uint32_t previous = cell.decision.load(std::memory_order_relaxed);
  if (inline_count == 0 || wide_count == 0) {
    if (previous == kUndecided) start_calibration(cell);  // no sample of an arm: again
    return;
  }
  const Quartiles inline_arm = quartiles(cell.inline_samples, inline_count);
  const Quartiles wide_arm = quartiles(cell.wide_samples, wide_count);
  const double serial = inline_arm.median;
  const double wide = wide_arm.median;
  std::uint32_t decision = wide < serial * (1.0 - kWidthTieTolerance) ? kWide : kInline;
  if (previous != kUndecided && decision != previous) {
    const bool clear = decision == kWide ? wide < serial * (1.0 - kRecheckMargin)
                                         : serial < wide * (1.0 - kRecheckMargin);
    if (!clear) decision = previous;
  }
  cell.serial.store(static_cast<float>(serial), std::memory_order_relaxed);
  cell.wide.store(static_cast<float>(wide), std::memory_order_relaxed);
  cell.decision.store(decision, std::memory_order_relaxed);
  publish_inline(index, decision == kInline);
  const bool quiet = inline_arm.tight && wide_arm.tight && observed_section_penalty_ns() <= 0;
  if (decision == previous || !quiet) return;
  const CacheLock lock(g_cache_mutex, std::try_to_lock);
  if (lock.owns_lock() && !g_cache.directory.empty()) store_decisions();
}

// note_wide_plan(): what record_region() compares after a wide region: the leader's waits and
// the members its posts found not running.
void note_wide_plan(RegionPlan& plan) {
  plan.leader_wait_at_plan_ns = team::leader_wait_ns();
  plan.not_running_at_plan = team::members_not_running();
  plan.woken_at_plan = team::members_woken();
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

// plan_calibration(): the width of region `region` of a calibration of `cell` (blocks of
// kCalibrationBlock alternating inline and wide, the first inline), whether it is a sample, and
// the members' wake before a wide block and park after the last.
void plan_calibration(std::uint64_t region, std::size_t wide_width, Exec& exec, RegionPlan& plan) {
  const std::uint64_t block = region / kCalibrationBlock;
  const std::uint64_t position = region % kCalibrationBlock;
  const bool wide_block = block % 2 == 1;
  plan.width = wide_block ? wide_width : 1;
  plan.timed = position != 0;
  const bool block_ends = position + 1 == kCalibrationBlock;
  if (!wide_block && block_ends && block + 1 < kCalibrationBlocks) {
    exec.team->wake_members(wide_width);
    plan.woke_members = true;
  }
  // After the last wide block the decision may be inline: the members sleep rather than spin
  // through their budget beside inline regions (a wide decision wakes them again at once).
  plan.park_members_after = wide_block && block_ends && block + 2 >= kCalibrationBlocks;
}

}  // namespace

void detail::set_recheck_ns(std::uint64_t gap_ns) {
  g_recheck_ns.store(gap_ns, std::memory_order_relaxed);
}

void detail::reset_learned_rates() {
  for (Cell& cell : g_cells) {
    cell.decision.store(kUndecided, std::memory_order_relaxed);
    cell.wide_width.store(0, std::memory_order_relaxed);
    cell.serial.store(0, std::memory_order_relaxed);
    cell.wide.store(0, std::memory_order_relaxed);
    cell.decided_ns.store(0, std::memory_order_relaxed);
    start_calibration(cell);
  }
  for (std::atomic<std::uint64_t>& word : g_inline_classes)
    word.store(0, std::memory_order_relaxed);
  g_recheck_ns.store(kRecheckNs, std::memory_order_relaxed);
  const CacheLock lock(g_cache_mutex);  // tests only, with no call in flight
  g_cache_pending.store(!g_cache.directory.empty(), std::memory_order_release);
}

void use_width_cache(const std::string& directory) {
  // Tried for a while (another thread may be writing the file), never waited for: a mutex a
  // fork copied held never comes free, and the cache is then off.
  CacheLock lock(g_cache_mutex, std::try_to_lock);
  for (int attempt = 0; attempt < 1000 && !lock.owns_lock(); ++attempt) {
    std::this_thread::yield();
    (void)lock.try_lock();
  }
  if (!lock.owns_lock() || directory == g_cache.directory) return;
  g_cache = WidthCacheStatus{};
  g_cache.directory = directory;
  g_cache_pending.store(!directory.empty(), std::memory_order_release);
}

WidthCacheStatus width_cache_status() {
  const CacheLock lock(g_cache_mutex, std::try_to_lock);
  return lock.owns_lock() ? g_cache : WidthCacheStatus{};
}

bool learned_inline(RegionKind kind, std::size_t scalar_bytes, double flops) {
  const std::uint64_t word =
      g_inline_classes[class_row(kind, scalar_bytes)].load(std::memory_order_relaxed);
  return ((word >> size_class(flops)) & 1U) != 0;
}

double inline_floor_flops(std::size_t scalar_bytes) {
  return g_inline_floor[scalar_bytes == 8 ? 0 : 1].load(std::memory_order_relaxed);
}

namespace {

// The section cost at width 2, the model's base (width.cpp adds a third of it per further
// member), from the team's cost measured at `cap`. With observation off (tests on a loaded
// machine) nothing measured enters: the fallback.
struct SectionCost {
  double measured_ns = 0;  // at the cap; 0: not measured
  double base_ns = detail::kFallbackSectionNs;
  bool known = false;  // measured with every member present, not provisional
};

SectionCost section_cost(std::size_t cap, Exec& exec) {
  SectionCost cost;
  cost.measured_ns = detail::section_observation() ? exec.team->section_cost_ns(cap) : 0.0;
  if (cost.measured_ns > 0) {
    cost.base_ns =
        cap == 2 ? cost.measured_ns : cost.measured_ns / (1.0 + static_cast<double>(cap - 2) / 3.0);
  }
  // A provisional cost (no member came to the measurement) is measured again soon.
  cost.known = cost.measured_ns > 0 && exec.team->section_cost_measured(cap);
  return cost;
}

// Publishes the floor below which no section can pay: the calling thread's (the tiny-call
// path of plan_region()) and the process's (inline_floor_flops()). The tiny path must not keep
// a provisional cost, or every later small region would stay inline for good; only a measured
// cost is published process-wide, since the fallback is another machine's.
void publish_floors(unsigned scalar, std::size_t scalar_bytes, const SectionCost& cost,
                    const Exec& exec) {
  const double floor_flops = kLearnFloorCosts * cost.base_ns * gemm_serial_gflops(scalar_bytes);
  if (exec.max_width == 0) {
    TinyFloor& floor = t_floor;
    if (floor.team != exec.team) floor = TinyFloor{exec.team, {0, 0}};  // nothing stale
    floor.flops[scalar] = cost.measured_ns <= 0 || cost.known ? floor_flops : 0.0;
  }
  // Stored only when it changed, so that threads planning at once do not pass the line
  // between them each region.
  const double published = cost.known ? floor_flops : 0.0;
  if (g_inline_floor[scalar].load(std::memory_order_relaxed) != published) {
    g_inline_floor[scalar].store(published, std::memory_order_relaxed);
  }
}

// The calibrated decision of a close call's class, its calibration regions included.
void plan_calibrated(double model_serial, double base_ns, double penalty, std::size_t cap,
                     Exec& exec, RegionPlan& plan) {
  load_cache_once();
  Cell& cell = g_cells[plan.cell];
  ++exec.stats.learned_regions;
  const std::size_t wide_width = std::min(
      cap, std::max<std::size_t>(2, detail::choose_with_cost(model_serial, 1, cap, base_ns, 0.0)));
  std::uint32_t decision = cell.decision.load(std::memory_order_relaxed);
  if (decision != kUndecided && cell.wide_width.load(std::memory_order_relaxed) != wide_width) {
    // Decided at another width (a changed cap): calibrate again at this one.
    cell.decision.store(kUndecided, std::memory_order_relaxed);
    decision = kUndecided;
    start_calibration(cell);
  }
  if (cell.wide_width.load(std::memory_order_relaxed) != wide_width) {
    cell.wide_width.store(static_cast<std::uint32_t>(wide_width), std::memory_order_relaxed);
  }
  const std::uint64_t region = cell.regions.load(std::memory_order_relaxed);
  cell.regions.store(region + 1, std::memory_order_relaxed);
  if (cell.calibrating.load(std::memory_order_relaxed)) {
    if (region < kCalibrationRegions) {
      plan_calibration(region, wide_width, exec, plan);
      publish_inline(plan.cell, false);
      return;
    }
    decide(plan.cell, cell);  // a sample lost to a race: decide on what came
    decision = cell.decision.load(std::memory_order_relaxed);
  } else if (region >= kRecheckRegions &&
             team::coarse_monotonic_ns() - cell.decided_ns.load(std::memory_order_relaxed) >=
                 g_recheck_ns.load(std::memory_order_relaxed)) {
    start_calibration(cell);  // the check: the next regions calibrate again
  }
  const double serial_ns =
      static_cast<double>(cell.serial.load(std::memory_order_relaxed)) * plan.flops;
  plan.must_beat_ns = serial_ns > 0 ? serial_ns : model_serial;
  if (decision == kWide) {
    // The decision stands, but under foreign load the observed penalty can make the wide arm
    // lose for now.
    const double wide_ns =
        static_cast<double>(cell.wide.load(std::memory_order_relaxed)) * plan.flops;
    plan.width = penalty > 0 && wide_ns + penalty >= plan.must_beat_ns ? 1 : wide_width;
  }
  publish_inline(plan.cell,
                 decision == kInline && !cell.calibrating.load(std::memory_order_relaxed));
}

}  // namespace

RegionPlan plan_region(RegionKind kind, std::size_t scalar_bytes, double flops, Exec& exec) {
  RegionPlan plan;
  plan.flops = flops;
  if (exec.team == nullptr) return plan;
  const unsigned scalar = scalar_bytes == 8 ? 0U : 1U;
  // One look-up of the thread-local floor (in a shared library each is a call).
  const TinyFloor& floor = t_floor;
  if (exec.team == floor.team && exec.max_width == 0 && flops < floor.flops[scalar]) {
    return plan;  // the tiny-call path
  }
  const std::size_t cap = detail::region_cap(exec);
  exec.stats.width_cap = cap;
  const double model_serial = serial_estimate_ns(flops, gemm_serial_gflops(scalar_bytes));
  plan.must_beat_ns = model_serial;
  if (cap <= 1) return plan;
  const SectionCost cost = section_cost(cap, exec);
  exec.stats.section_cost_ns = cost.measured_ns;
  publish_floors(scalar, scalar_bytes, cost, exec);
  // A region too small for any section to pay runs inline before anything else is read (the
  // small-call path: no cell, no clock).
  if (model_serial < kLearnFloorCosts * cost.base_ns) return plan;
  const bool observed = exec.width_rule == WidthRule::observed;
  const double penalty = observed ? observed_section_penalty_ns() : 0.0;
  plan.cell = cell_index(kind, scalar_bytes, flops);
  if (!observed || !detail::section_observation() || model_serial > kLearnCeilingNs) {
    // The model's choice stands. Under WidthRule::model every region stays on the model, and
    // no class is published as inline.
    plan.width = detail::choose_with_cost(model_serial, 1, cap, cost.base_ns, penalty);
    publish_inline(plan.cell, observed && plan.width == 1);
  } else {
    plan_calibrated(model_serial, cost.base_ns, penalty, cap, exec, plan);
  }
  if (plan.width > 1) note_wide_plan(plan);
  return plan;
}

void record_region(const RegionPlan& plan, double wall_ns) {
  // A section that woke a sleeping member is no evidence of foreign load: charged as a loss, it
  // would run the next regions inline, long enough for the members to fall asleep again, and
  // the next wide region would wake them again.
  if (plan.width > 1 && team::members_woken() == plan.woken_at_plan) {
    record_section(wall_ns, plan.must_beat_ns,
                   static_cast<double>(team::leader_wait_ns() - plan.leader_wait_at_plan_ns));
  }
  if (!plan.timed || plan.flops <= 0 || !detail::section_observation()) return;
  // A wide region whose section found a member not running (asleep after a pause longer than
  // the members' spin, or still waking from that) measured the member's wake, not the width.
  if (plan.width > 1 && team::members_not_running() != plan.not_running_at_plan) return;
  Cell& cell = g_cells[plan.cell];
  if (!cell.calibrating.load(std::memory_order_relaxed)) return;
  const auto rate = static_cast<float>(wall_ns / plan.flops);
  auto& samples = plan.width > 1 ? cell.wide_samples : cell.inline_samples;
  auto& count = plan.width > 1 ? cell.wide_count : cell.inline_count;
  const std::uint32_t taken = count.load(std::memory_order_relaxed);
  if (taken < kSamples) {
    samples[taken].store(rate, std::memory_order_relaxed);
    count.store(taken + 1, std::memory_order_relaxed);
  }
  // The last sample of the calibration decides it.
  if (cell.inline_count.load(std::memory_order_relaxed) +
          cell.wide_count.load(std::memory_order_relaxed) >=
      2 * kSamples) {
    decide(plan.cell, cell);
  }
}

}  // namespace teamla::linalg
