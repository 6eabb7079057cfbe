// SPDX-License-Identifier: Apache-2.0
// workspace_units.hpp: the buffers a claimed unit packs into, whichever thread runs it.
//
// A claimed section's units land on whichever participant claims them. Were a unit to pack into
// its own thread's workspace, a thread would grow its buffers the first time it took a large
// unit, however long after warm-up: a worker late for every early call (foreign load, a slow
// start) would have grown nothing, and "calls after the first allocate nothing" would fail.
// So units pack into the leader's workspace, in the slots of the rank that runs them, and the
// leader evens the ranks' slots out after each section (Workspace::try_equalize): once a
// call of a given shape has run wide, none of its later units allocates, whoever takes them.
#pragma once

#include <cstddef>

#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/home_units.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg::detail {

// RankBuffers: one rank's slots of a workspace.
struct RankBuffers {
  Workspace* ws = nullptr;
  std::size_t rank = 0;
};

// running_unit(): inside a unit of run_claimed_units(), that unit's rank of the leader's
// workspace; elsewhere none (ws null).
RankBuffers running_unit() noexcept;

// unit_buffers(): running_unit(), or outside a unit this thread's own workspace, rank 0.
RankBuffers unit_buffers() noexcept;

// exec_buffers(): exec's workspace (rank 0) where it has one, else unit_buffers().
inline RankBuffers exec_buffers(const Exec& exec) noexcept {
  return exec.workspace != nullptr ? RankBuffers{exec.workspace, 0} : unit_buffers();
}

// UnitScope: makes unit_buffers() answer `buffers` on this thread until destroyed.
class UnitScope {
 public:
  explicit UnitScope(RankBuffers buffers) noexcept;
  ~UnitScope();
  UnitScope(const UnitScope&) = delete;
  UnitScope& operator=(const UnitScope&) = delete;

 private:
  RankBuffers saved_;
};

// run_claimed_units(): team.run_claimed() whose units find `ws`'s slots of their rank through
// unit_buffers(), and whose ranks' slots are evened out afterwards. Without the memory for
// the ranks' slots, the units use their own threads' workspaces (they may then allocate).
template <class Body>
void run_claimed_units(team::Team& team, std::size_t width, std::size_t units, Workspace& ws,
                       Body&& body, team::Team::Linger linger = team::Team::Linger::spin) {
  const bool ranked = ws.try_prepare(width);
  team.run_claimed(
      width, units,
      [&](team::Section& s, std::size_t unit) {
        const UnitScope scope(ranked ? RankBuffers{&ws, s.rank()} : RankBuffers{});
        body(s, unit);
      },
      linger);
  if (ranked) (void)ws.try_equalize(width);
}

// run_home_units(): run_claimed_units() whose units are handed out home first
// (teamla/team/home_units.hpp): each rank computes the same units call after call, so a
// product called again on the same operands finds its rows where that rank's core left them.
// body(section, unit). For units that do not wait on one another: a rank takes its home run
// in order before any other's.
template <class Body>
void run_home_units(team::Team& team, std::size_t width, std::size_t units, Workspace& ws,
                    Body&& body, team::Team::Linger linger = team::Team::Linger::spin) {
  team::HomeUnits home(units, width);
  run_claimed_units(
      team, width, units, ws,
      [&](team::Section& s, std::size_t /*claim*/) { body(s, home.take(s.rank())); }, linger);
}

}  // namespace teamla::linalg::detail
