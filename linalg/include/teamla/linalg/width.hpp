// SPDX-License-Identifier: Apache-2.0
// width.hpp: the cost model that decides how many threads a parallel region uses.
//
// The rule (threadteam's, made measurable): a region of serial estimate S, made of
// `sections` sections (each one dispatch and one join), runs on w > 1 threads only if
//     S >= 3 * sections * dispatch_cost(w),
// i.e. the dispatches cost at most a third of the serial work, so that the parallel run
// can gain. Among the widths that qualify, the narrowest whose estimated time
// (S / w + sections * dispatch_cost(w)) is within kWidthTieTolerance of the best wins.
// On 2 CPUs that is simply "2 if it qualifies, else 1". Width 1 runs inline and never
// touches the pool.
//
// The kernels call plan_region() (below), which applies this rule with the section cost the
// team measured on the machine at hand and, for close calls, the rates learned from the
// regions run. The table functions (dispatch_cost_ns, choose_width, choose_width_observed)
// keep fixed costs per kind of wake (hot, after_gap, parked; docs/perf/blocking.md); they
// remain the model's fallback when nothing measured may enter (observation off) and are what
// the rule's own tests exercise. Under foreign load a section can cost far more
// than any table (a preempted member returns a scheduler slice later), so record_section()
// keeps the excess that recent wide regions showed; that penalty halves every
// kPenaltyHalfLifeNs. All functions are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "teamla/linalg/exec.hpp"

namespace teamla::linalg {

enum class DispatchKind : unsigned char { hot, after_gap, parked };

// kWidthTieTolerance: a wider width must be estimated faster by more than this fraction to be
// chosen over a narrower one (the benches' goal: never slower than a narrower one by more).
inline constexpr double kWidthTieTolerance = 0.03;

// dispatch_cost_ns() is the table's cost of opening and joining one section of `width`
// participants (0 for width <= 1): fixed per kind, not measured on the machine at hand.
double dispatch_cost_ns(std::size_t width, DispatchKind kind = DispatchKind::hot);

// choose_width() returns the width to run a region at (1 .. max(1, max_width)).
std::size_t choose_width(double serial_estimate_ns, std::size_t sections, std::size_t max_width,
                         DispatchKind kind = DispatchKind::hot);

// kPenaltyHalfLifeNs: 20 ms, with the newest section weighted 1/8 (kPenaltyWeight): one
// outlier (a fresh pool's first wake) keeps short calls inline only briefly, while a persistent
// slow mode under foreign load is still probed now and then instead of paid on every call
// (the record: docs/perf/load.md).
inline constexpr double kPenaltyHalfLifeNs = 20e6;
inline constexpr double kPenaltyWeight = 1.0 / 8.0;

// choose_width_observed() is choose_width() with each dispatch cost raised by the current
// observed penalty (observed_section_penalty_ns()).
std::size_t choose_width_observed(double serial_estimate_ns, std::size_t sections,
                                  std::size_t max_width, DispatchKind kind = DispatchKind::hot);

// record_section() reports one wide region: its wall time, the time it must beat (the
// kernels pass the serial estimate: a wide run slower than running inline lost) and the time
// its leader waited for members (team::leader_wait_ns() over the region). The loss, capped by
// that wait, feeds the penalty (an exponential average, kPenaltyWeight for the newest region):
// a region slow because the whole machine was would have been as slow inline.
void record_section(double wall_ns, double expected_ns, double waited_ns);

// observed_section_penalty_ns() is the current penalty (decayed to now); 0 on a quiet machine,
// and 0 unless at least 2 of the last 4 wide sections lost (one outlier is not a pattern).
double observed_section_penalty_ns();

// serial_estimate_ns() converts a flop count and a serial rate (Gflop/s: flops per ns) into
// nanoseconds.
inline double serial_estimate_ns(double flops, double gflops_per_s) {
  return gflops_per_s > 0 ? flops / gflops_per_s : 0.0;
}

// gemm_serial_gflops() is the serial rate of the active gemm kernel for scalar size
// `scalar_bytes` (8: double, 4: float): its ISA table's serial_gflops.
double gemm_serial_gflops(std::size_t scalar_bytes);

// ---- The width a region runs at, on the machine at hand --------------------------------
//
// plan_region() is what the kernels call. Its inputs are measured on the machine that runs
// it, never taken from another one:
//  - the cap: min(team width, exec.max_width, team::usable_cpu_count(), 1 + the CPUs the
//    process budget has free) (team/cpu_budget.hpp; `taskset -c 0` gives 1, and the region
//    runs inline);
//  - the section cost: Team::section_cost_ns(), timed on the pool itself;
//  - calibrated decisions, for regions whose serial time lies between kLearnFloorCosts section
//    costs and kLearnCeilingNs (where the choice is close): per kind, scalar size and size
//    class (a power of two of flops), the first kCalibrationBlocks x kCalibrationBlock regions
//    of the class run in blocks that alternate inline and wide, each block's first region
//    untimed (it pays for the switch: C's lines in the other core's cache, a member's wake).
//    The medians of the two arms' samples decide the class, for good: the same call then runs
//    at the same width call after call, and, with the width cache, in every process. The last
//    region of an inline block wakes the members, so that they are running when the wide block
//    starts. A decided class is calibrated again after kRecheckRegions regions and kRecheckNs,
//    and the decision changes only when the other arm is faster by more than kRecheckMargin:
//    evidence that survives the machine's noise.
// Below the floor (where a section of the measured cost cannot pay) a region runs inline
// untimed, so the small-call path pays nothing; above the ceiling the model's width is taken,
// because there a section costs a negligible fraction on any machine. Under foreign load the
// observed penalty (above) can still send a class decided wide inline.

// gemm_batch is decided apart from gemm: a batch of small items runs at a lower rate per flop
// than one product of the same flops. level2 is the memory-bound matrix-vector routines
// (blas2.hpp), whose regions are planned on weighted flops (level2/level2_plan.hpp).
enum class RegionKind : unsigned char { gemm, trsm, syrk, gemm_batch, level2 };

inline constexpr double kLearnFloorCosts = 2.0;
inline constexpr double kLearnCeilingNs = 250e3;
inline constexpr unsigned kCalibrationBlock = 4;
inline constexpr unsigned kCalibrationBlocks = 8;
inline constexpr std::uint64_t kRecheckRegions = 4096;
inline constexpr std::uint64_t kRecheckNs = 2'000'000'000;
inline constexpr double kRecheckMargin = 0.10;

// RegionPlan: the decision, and what record_region() needs to learn from the region's time.
struct RegionPlan {
  std::size_t width = 1;
  double flops = 0;
  double must_beat_ns = 0;  // the inline time a wide run is judged against (the penalty)
  bool timed = false;       // a calibration sample: the caller times it for record_region()
  unsigned cell = 0;        // the calibrated decisions' cell
  std::uint64_t leader_wait_at_plan_ns = 0;  // team::leader_wait_ns() when planned wide
  std::uint64_t not_running_at_plan = 0;     // team::members_not_running() when planned wide
  std::uint64_t woken_at_plan = 0;           // team::members_woken() when planned wide
  // The last wide region of a calibration that decided inline: no wide region follows soon, so
  // the members park after it (team::Team::Linger::park) instead of spinning beside the
  // inline regions.
  bool park_members_after = false;
  // The last region of an inline calibration block, followed by a wide one: plan_region() has
  // woken the members (team::Team::wake_members) so that they are running when it comes.
  bool woke_members = false;
};

// plan_region() chooses the width of one region of `flops` (one section when wide); it fills
// exec.stats' width_cap and section_cost_ns.
RegionPlan plan_region(RegionKind kind, std::size_t scalar_bytes, double flops, Exec& exec);

// inline_floor_flops(): the floor of the last region planned on a team whose section cost
// was measured, in flops (per scalar size: 8 or 4 bytes): below it no section can pay
// (kLearnFloorCosts section costs of serial time), so a region runs inline on any team of
// that cost. 0 until such a region was planned. One relaxed load, for callers that skip
// their own dispatch below it (the BLAS ABI: docs/engine.md, "Cost of a call").
double inline_floor_flops(std::size_t scalar_bytes);

// learned_inline(): whether the next region of this kind and size class is one the planner
// runs inline without needing to see it: its class is decided inline (or the model decides it,
// inline) and no calibration is due. False before the class is decided, so that a caller that
// skips its own dispatch for such regions brings a calibration's regions to plan_region(). It
// must still plan some of the others, so that the planner counts them towards the next check
// (the BLAS ABI plans one in kEnginePassEvery: docs/engine.md, "Cost of a call"). One relaxed
// load.
bool learned_inline(RegionKind kind, std::size_t scalar_bytes, double flops);

// record_region() reports how long a planned region took (only if plan.timed or wide).
void record_region(const RegionPlan& plan, double wall_ns);

// ---- The width cache --------------------------------------------------------------------
//
// Calibrated decisions are kept per machine in a directory (as FFTW keeps its wisdom): a
// process finds the decisions an earlier one made and runs every class at the same width from
// its first call. The file is keyed by the CPU, the usable CPUs, the kernels' ISA, the OS kernel
// and the teamla version; any change of them means calibrating again. A missing, corrupt or
// foreign file means calibrating; an unwritable directory means keeping the decisions in the
// process only. Nothing about the cache ever fails a call; what happened is counted in
// width_cache_status().

// use_width_cache(): keep decisions in `directory` from now on, and take those kept there ("":
// no cache, the default). Decisions already made in the process are kept.
void use_width_cache(const std::string& directory);

struct WidthCacheStatus {
  std::string directory;     // "" when off
  std::size_t loaded = 0;    // decisions taken from the file
  std::size_t rejected = 0;  // files not used: corrupt, or another machine's
  std::size_t stored = 0;    // writes of the file
  std::size_t write_failures = 0;
};
WidthCacheStatus width_cache_status();

}  // namespace teamla::linalg
