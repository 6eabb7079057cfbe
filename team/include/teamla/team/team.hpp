// SPDX-License-Identifier: Apache-2.0
// team.hpp: a team (a leader and reserved members) and the sections it runs.
//
// A Team is acquired from a Pool by the thread that will lead it, and is held across calls:
// its members stay reserved, waiting for the next section under the pool's wait policy. A
// Team is move-only and used by its leader thread only; destroying it releases its members.
//
//   team.run(w, body)  runs body(Section&) on w participants (w <= width()): the leader as
//                      rank 0 on the calling thread, members as ranks 1..w-1. It returns once
//                      every participant has returned (join is the only barrier at the end).
//                      Width 1 runs inline and never touches the pool. A narrow section wakes
//                      only the members it uses, the most recently active first.
//   section.barrier()  an in-section barrier of the section's participants.
//   team.run_claimed(w, units, body)
//                      a claimed section: body(Section&, unit) runs once for each unit in
//                      [0, units), on whichever of up to w participants claims it first (in
//                      unit order). The join waits for the units, never for a participant: a
//                      member that starts late finds nothing left and touches nothing, and a
//                      member still busy with an earlier job is left out. A unit may
//                      section.wait_for(ready) on what earlier units produce (never a barrier).
//                      Under the legacy policy the units are dealt out statically and the join
//                      waits for every participant, as threadteam 0.1.3 did (faer#107).
//   team.fork(ws, f)   splits the team into child teams of widths ws (sum <= width()) that
//                      run concurrently: f(child_index, child_team) runs on each child's
//                      leader, which can run sections of its own on child_team.
//
// Exceptions: an exception thrown by any participant is captured, the section is cancelled
// (a barrier then throws SectionCancelled in the other participants, waking any sleeper), and
// the leader rethrows the first exception after the join. The team stays usable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace teamla::team {

class Pool;
struct SectionShared;  // a section's shared state (runtime-private)

// leader_wait_ns() is the time the calling thread has spent, as the leader (rank 0) of the
// sections it ran, waiting for other participants: in-section waits and joins that were not
// already satisfied when reached. It only grows; a caller takes the difference over a region.
// The width model charges a wide region for this time only (linalg/width.hpp): a region that
// was slow because the whole machine was (the leader's own work took longer) is not the
// section's fault.
std::uint64_t leader_wait_ns();

// members_not_running() counts the members that the calling thread's posts, as a leader, found
// not running: asleep (the post woke it, and it needs a time slice to start) or still on its
// way to an earlier job (left out of a claimed section). It only grows. linalg's width planner
// takes no calibration sample from a wide region during which it grew: that region measured a
// member's wake, not the width (docs/gemm.md, "The width a region runs at"). A member preempted
// while it spins is not counted: the load that keeps it off its CPU is the width's to measure.
std::uint64_t members_not_running();

// members_woken() counts the part of members_not_running() that the calling thread's posts
// found asleep and woke. It only grows. linalg's width planner charges no loss to a wide region
// during which it grew: the wait was a member's wake after a pause in the calls, which the
// inline regions the loss would bring about make longer, not foreign load.
std::uint64_t members_woken();

// SectionCancelled is thrown by Section::barrier() once another participant has thrown.
class SectionCancelled : public std::runtime_error {
 public:
  SectionCancelled() : std::runtime_error("teamla: section cancelled by another participant") {}
};

class Section {
 public:
  [[nodiscard]] std::size_t rank() const { return rank_; }
  [[nodiscard]] std::size_t width() const { return width_; }
  // barrier() returns once all width() participants have called it (staged wait). Not in a
  // claimed section (std::logic_error): a participant there may never arrive.
  void barrier();
  // wait_for(ready) returns once ready() is true: in a claimed section, a unit waits for
  // earlier units (claimed before it, so held by running participants) to produce its input.
  // Throws SectionCancelled if a unit has thrown, and std::logic_error when the section runs
  // inline and ready() is false (no other participant could ever make it true).
  template <class Ready>
  void wait_for(Ready&& ready) {
    if (ready()) return;
    using R = std::remove_reference_t<Ready>;
    wait_erased([](const void* ctx) { return static_cast<bool>((*static_cast<const R*>(ctx))()); },
                static_cast<const void*>(&ready));
  }

  Section(SectionShared* shared, std::size_t rank, std::size_t width)
      : shared_(shared), rank_(rank), width_(width) {}

 private:
  void wait_erased(bool (*ready)(const void*), const void* ctx);

  SectionShared* shared_;
  std::size_t rank_;
  std::size_t width_;
};

class Team {
 public:
  Team(Team&& other) noexcept;
  Team& operator=(Team&& other) noexcept;
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team();

  // width() is the widest section this team can run (its leader plus reserved members).
  [[nodiscard]] std::size_t width() const { return width_; }
  [[nodiscard]] Pool& pool() const { return *pool_; }

  // section_cost_ns(w) is the measured cost of one claimed section of width w (<= width(),
  // members hot) in which every participant takes part: the fastest of up to 15 timed within
  // ~1 ms (foreign load is left to the width model's penalty), measured once per pool
  // and width (the first time it is asked; a reused pool keeps it) and 0 for w <= 1. The width
  // model weighs work against it (linalg/width.hpp).
  double section_cost_ns(std::size_t width);
  // section_cost_measured(w): whether section_cost_ns(w) now holds a measurement, rather than
  // the provisional 200 us it gives when no member joined the measurement's sections (it is
  // then measured again after 10 ms, doubling with each failure in a row).
  [[nodiscard]] bool section_cost_measured(std::size_t width) const;

  template <class Body>
  void run(std::size_t width, Body&& body) {
    if (width == 1) {  // inline: no pool, no atomics
      Section solo(nullptr, 0, 1);
      body(solo);
      return;
    }
    using B = std::remove_reference_t<Body>;
    run_erased(
        width, [](void* ctx, Section& s) { (*static_cast<B*>(ctx))(s); },
        const_cast<void*>(static_cast<const void*>(&body)));
  }
  template <class Body>
  void run(Body&& body) {
    run(width_, std::forward<Body>(body));
  }

  // Linger: what the members of a claimed section do once it is over. `spin` (the default):
  // they wait for the next section through the policy's whole spin budget, which catches
  // sections that follow closely. `park`: they spin only briefly (after_wake_polls) and then
  // sleep. The leader passes it when it knows no section follows soon: linalg's width planner
  // after the last wide block of a calibration, which may decide inline (docs/team.md,
  // "Claimed sections").
  enum class Linger : unsigned char { spin, park };

  // wake_members(w): the members a section of width w would use (ranks 1 to w - 1) wake now
  // and wait for it through their whole spin budget, with nothing to run. For a leader that
  // knows a section comes soon after a stretch without one: a parked member takes a wake and
  // a time slice's start to reach the next section, and would otherwise miss the first few of
  // them (linalg's width planner, before a calibration's wide block: docs/team.md, "Claimed
  // sections", "Linger and waking ahead").
  // A member that has not yet taken an earlier job is already on its way and is left alone.
  // Does nothing under WaitPolicy::legacy (threadteam 0.1.3 had no such call).
  void wake_members(std::size_t width);

  // run_claimed(): see the top of this file. width 1 (or one unit) runs inline.
  template <class Body>
  void run_claimed(std::size_t width, std::size_t units, Body&& body,
                   Linger linger = Linger::spin) {
    using B = std::remove_reference_t<Body>;
    run_claimed_erased(
        width, units,
        [](void* ctx, Section& s, std::size_t unit) { (*static_cast<B*>(ctx))(s, unit); },
        const_cast<void*>(static_cast<const void*>(&body)), linger);
  }

  template <class Body>
  void fork(std::span<const std::size_t> widths, Body&& body) {
    using B = std::remove_reference_t<Body>;
    fork_erased(
        widths,
        [](void* ctx, std::size_t child, Team& team) { (*static_cast<B*>(ctx))(child, team); },
        const_cast<void*>(static_cast<const void*>(&body)));
  }
  template <class Body>
  void fork(std::initializer_list<std::size_t> widths, Body&& body) {
    fork(std::span<const std::size_t>(widths.begin(), widths.size()), std::forward<Body>(body));
  }

  struct Members;  // runtime-private reservation
  Team(Pool* pool, Members* members, std::size_t width)
      : pool_(pool), members_(members), width_(width) {}

 private:
  using SectionFn = void (*)(void*, Section&);
  using UnitFn = void (*)(void*, Section&, std::size_t);
  using ForkFn = void (*)(void*, std::size_t, Team&);
  void run_erased(std::size_t width, SectionFn fn, void* ctx);
  void run_claimed_erased(std::size_t width, std::size_t units, UnitFn fn, void* ctx,
                          Linger linger);
  void fork_erased(std::span<const std::size_t> widths, ForkFn fn, void* ctx);

  Pool* pool_ = nullptr;
  Members* members_ = nullptr;
  std::size_t width_ = 0;
};

}  // namespace teamla::team
