// SPDX-License-Identifier: Apache-2.0
// claim_board.hpp: the units of a claimed section, handed out one at a time, and their count.
//
// A claimed section is `units` numbered pieces of work. Every participant claims the next
// unit until none is left; the leader's join waits until every unit has *finished*, never for
// a participant: a member that arrives late (not yet scheduled, preempted before its first
// claim) finds nothing to claim and touches nothing of the section.
//
// The board outlives every section that uses it (it sits in a pool's worker slot), because a
// late member reads it after the section it was posted to may be long over. Its one word
// `next_` packs a generation (the section) and the next unit:
//   next_ = generation << kUnitBits | next unit
// open() starts generation g+1 at unit 0; claim(g) is a CAS that moves the unit on only while
// the word still names g, so a member holding an old generation can never take (and so never
// run or count) a unit of a newer section. The leader opens a generation only after the
// previous one's units have all finished, so `finished_` belongs to one generation at a time.
//
// Memory ordering:
//  - open() writes `units_` and resets `finished_` (relaxed), then stores `next_` with release;
//    a claimer's successful CAS (acq_rel) reads from that store or from a later claimer's CAS
//    in its release sequence, so it sees `units_`, the reset, and everything the leader wrote
//    before opening (the section's shared state).
//  - finish() is a seq_cst fetch_add on `finished_` after the unit's last access to the
//    section, then parker.wake(): the leader's acquire load that reads `units_` finished
//    synchronizes with every finish (one release sequence), so every unit's writes are visible
//    after the join; the RMW precedes wake() as parker.hpp requires of a waker.
//  - A stale claimer may read `units_` of a newer generation; its CAS then fails because
//    `next_` changed, and it re-reads.
// Model-checked by tests/team/model_test.cpp (ClaimModel): a late claimer of an old
// generation never takes a unit of the next, every unit runs once, the join sees every unit's
// write, and the models with the generation check or the wake removed fail.
#pragma once

#include <cstdint>

namespace teamla::team::sync {

template <class Sync>
class ClaimBoard {
 public:
  // kUnitBits: up to 2^24 units per section (gemm's finest split stays far below); the
  // remaining 40 bits of generation wrap after ~10^12 sections.
  static constexpr unsigned kUnitBits = 24;
  static constexpr std::uint64_t kUnitMask = (std::uint64_t{1} << kUnitBits) - 1;
  static constexpr std::uint32_t kMaxUnits = static_cast<std::uint32_t>(kUnitMask);

  // open() starts the next generation with `units` units (<= kMaxUnits) and returns it.
  // Leader only, and only once every unit of the previous generation has finished.
  std::uint64_t open(std::uint32_t units) {
    const std::uint64_t generation = (next_().load(Sync::relaxed) >> kUnitBits) + 1;
    units_().store(units, Sync::relaxed);
    finished_().store(0, Sync::relaxed);
    next_().store(generation << kUnitBits, Sync::release);
    return generation;
  }

  // claim() takes the next unit of `generation`; false once it has none left or is over.
  bool claim(std::uint64_t generation, std::uint32_t& unit) {
    std::uint64_t word = next_().load(Sync::acquire);
    for (;;) {
      if ((word >> kUnitBits) != generation) return false;
      const auto next = static_cast<std::uint32_t>(word & kUnitMask);
      if (next >= units_().load(Sync::relaxed)) return false;
      if (next_().compare_exchange_weak(word, word + 1, Sync::acq_rel, Sync::acquire)) {
        unit = next;
        return true;
      }
    }
  }

  // finish() counts one claimed unit done and wakes `parker` (the join's and dependency
  // waits' parker). Call it after the unit's last access to the section's state.
  template <class ParkerT>
  void finish(ParkerT& parker) {
    finished_().fetch_add(1, Sync::seq_cst);
    parker.wake();
  }

  // all_finished() is the leader's join condition for the generation it opened.
  [[nodiscard]] bool all_finished() const {
    return finished_().load(Sync::acquire) == units_().load(Sync::relaxed);
  }

 protected:  // the model checks derive a board with the generation check removed
  typename Sync::template Atomic<std::uint64_t> next_{0};
  typename Sync::template Atomic<std::uint32_t> units_{0};
  typename Sync::template Atomic<std::uint32_t> finished_{0};
};

}  // namespace teamla::team::sync
