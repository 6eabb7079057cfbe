// SPDX-License-Identifier: Apache-2.0
// column_slices.hpp (internal): how TRSM, TRMM, SYRK and SYR2K run a planned region: its
// output split into column slices, claimed, so that a late participant's slices are taken by
// the others.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "level3/level3_internal.hpp"
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

// run_rhs_slices(): run_column_slices() over n right-hand sides (TRSM, TRMM): slices of at
// least min_cols columns, at most per_participant per participant of the plan, on multiples of
// 16 columns (slice_edge()). cols(c0, c1) computes the columns [c0, c1).
template <class Cols>
std::size_t run_rhs_slices(const RegionPlan& plan, index_t n, index_t min_cols,
                           std::size_t per_participant, Exec& exec, Cols&& cols) {
  const std::size_t slices = std::min<std::size_t>(
      static_cast<std::size_t>((n + min_cols - 1) / min_cols), per_participant * plan.width);
  return run_column_slices(plan, slices, exec, [&](std::size_t u, std::size_t count) {
    const index_t c0 = slice_edge(n, u, count);
    const index_t c1 = slice_edge(n, u + 1, count);
    if (c1 > c0) cols(c0, c1);
  });
}

// run_triangle_ranges(): run_column_slices() over the n columns of a lower triangle (SYRK,
// SYR2K): per_participant ranges per participant of the plan, of equal triangle area
// (balanced_split()). cols(c0, c1) computes the columns [c0, c1).
template <class Cols>
std::size_t run_triangle_ranges(const RegionPlan& plan, index_t n, std::size_t per_participant,
                                Exec& exec, Cols&& cols) {
  return run_column_slices(plan, per_participant * plan.width, exec,
                           [&](std::size_t u, std::size_t count) {
                             const index_t c0 = balanced_split(n, u, count, 16);
                             const index_t c1 = balanced_split(n, u + 1, count, 16);
                             if (c1 > c0) cols(c0, c1);
                           });
}

}  // namespace teamla::linalg::level3_detail
