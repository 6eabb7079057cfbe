// SPDX-License-Identifier: Apache-2.0
// width_internal.hpp (internal): the width model's shared pieces and its test hooks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace teamla::linalg {
struct Exec;
}

namespace teamla::linalg::detail {

// kFallbackSectionNs: the section cost when nothing measured may enter (observation off, the
// tests' deterministic widths): libgomp's region cost on 2 CPUs (docs/perf/blocking.md).
inline constexpr double kFallbackSectionNs = 3100;

// choose_with_cost(): the rule of width.hpp with a width-2 section cost of `base_cost_ns`
// (each further member adds a third of it) plus `extra_ns` per section.
std::size_t choose_with_cost(double serial_estimate_ns, std::size_t sections, std::size_t max_width,
                             double base_cost_ns, double extra_ns);

// region_cap(): the widest a region of `exec` may run at now: the team's width,
// exec.max_width, the usable CPUs (affinity set, cgroup quota) and what the process CPU budget
// has free besides the caller's own CPU (team/cpu_budget.hpp). 1 without a team. A cut by the
// budget is counted in exec.stats.budget_limited_regions.
std::size_t region_cap(Exec& exec);

// set_section_observation() turns the observed penalty and the calibrations on (default) or
// off. Off: both are cleared, record_section()/record_region() ignore their input, and widths
// come from the model alone (deterministic tests on a loaded machine). Not for concurrent use
// with running kernels.
void set_section_observation(bool enabled);
bool section_observation();

// reset_learned_rates() forgets every calibrated decision (tests); a width cache in use is
// read again.
void reset_learned_rates();

// set_recheck_ns() replaces kRecheckNs, the least time between two checks of a decided class
// (tests that feed regions faster than it; reset_learned_rates() restores the default).
void set_recheck_ns(std::uint64_t gap_ns);

}  // namespace teamla::linalg::detail
