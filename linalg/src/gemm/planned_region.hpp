// SPDX-License-Identifier: Apache-2.0
// planned_region.hpp (internal): how a product runs the region plan_region() planned for it
// (width.hpp): wide on the team, or inline, timed for the planner.
#pragma once

#include <cstddef>
#include <cstdint>

#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg::detail {

// linger_of(): how the members wait after the plan's section.
inline team::Team::Linger linger_of(const RegionPlan& plan) {
  return plan.park_members_after ? team::Team::Linger::park : team::Team::Linger::spin;
}

// run_planned(): wide() when the plan is wide (true when it ran: false when it could not have
// its memory, and then serial() runs instead, `shortfall_bytes` noted as a memory shortfall),
// else serial(); fills exec.stats' width and sections, and reports the time to the planner.
// A wide region is judged against running inline: only a wide run slower than that (a member
// that came back a scheduler slice late) counts as a loss; foreign load that merely slows both
// threads is not the section's fault. Timed inline regions teach the serial rate.
template <class Wide, class Serial>
void run_planned(const RegionPlan& plan, Exec& exec, std::size_t shortfall_bytes, Wide&& wide,
                 Serial&& serial) {
  const std::uint64_t start_ns = plan.timed || plan.width > 1 ? team::monotonic_ns() : 0;
  const bool ran_wide = plan.width > 1 && wide();
  if (ran_wide) {
    exec.stats.max_width_used = plan.width;
    exec.stats.sections = 1;
  } else {
    if (plan.width > 1) team::note_shortfall(team::Shortfall::memory, shortfall_bytes);
    serial();
  }
  if (start_ns != 0 && (ran_wide || plan.width == 1)) {
    record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  }
}

}  // namespace teamla::linalg::detail
