// SPDX-License-Identifier: Apache-2.0
// column_slices.hpp (internal): how TRSM, TRMM, SYRK and SYR2K run a planned region: its
// output split into column slices, claimed, so that a late participant's slices are taken by
// the others.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {

// run_column_slices(): runs the region `plan` planned as `slices` slices; slice(u, count)
// computes slice u of count. Inline on the caller as one slice when the plan is width 1 or
// there is one slice, timed for the planner if the plan asks (a wide plan that ran inline
// teaches nothing about either width); else one claimed section of min(plan.width, slices)
// participants, timed. Fills exec.stats; returns the width it ran at.
template <class Slice>
std::size_t run_column_slices(const RegionPlan& plan, std::size_t slices, Exec& exec,
                              Slice&& slice) {
  if (plan.width <= 1 || slices <= 1) {
    ++exec.stats.inline_regions;
    exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
    const bool learn = plan.timed && plan.width <= 1;
    const std::uint64_t inline_start_ns = learn ? team::monotonic_ns() : 0;
    slice(std::size_t{0}, std::size_t{1});
    if (learn) record_region(plan, static_cast<double>(team::monotonic_ns() - inline_start_ns));
    return 1;
  }
  const std::size_t width = std::min(plan.width, slices);
  ++exec.stats.sections;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  const std::uint64_t start_ns = team::monotonic_ns();
  detail::run_claimed_units(*exec.team, width, slices, *detail::exec_buffers(exec).ws,
                            [&](team::Section&, std::size_t u) { slice(u, slices); });
  record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  return width;
}

}  // namespace teamla::linalg::level3_detail
