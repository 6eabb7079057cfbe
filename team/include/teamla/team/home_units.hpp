// SPDX-License-Identifier: Apache-2.0
// home_units.hpp: the units of a claimed section handed out home first. Each rank runs the
// units of its own contiguous run, in order, and then takes what is left of the others' runs.
//
// A claimed section hands its k-th claim the unit numbered k, so which participant computes
// which items changes from call to call with the order of the claims, and a batch called again
// on the same operands finds its items in the other participant's cache. One unit per
// participant would fix the placement but make the leader wait for a member preempted inside
// its unit. Here a claim is only a ticket: the rank that holds it takes the next unit of its
// home run, so the split is one run per participant while the others still take over the run
// of a late or preempted member, a unit at a time (docs/perf/batch.md).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>

namespace teamla::team {

class HomeUnits {
 public:
  // kMaxRuns: the most home runs (ranks beyond share them: rank r's run is r * runs / width).
  // One cache line each, on the leader's stack.
  static constexpr std::size_t kMaxRuns = 16;

  // `units` units for a section of `width` participants (ranks 0 to width - 1). Built by the
  // leader before it opens the section; the section's open publishes it to the members.
  HomeUnits(std::size_t units, std::size_t width)
      : width_(std::max<std::size_t>(width, 1)), runs_(std::min(width_, kMaxRuns)) {
    for (std::size_t r = 0; r < runs_; ++r) {
      run_[r].next.store(r * units / runs_, std::memory_order_relaxed);
      run_[r].end = (r + 1) * units / runs_;
    }
  }

  // take(): a unit for the holder of one claim, of rank `rank`: the next of its home run, else
  // the next left in the runs after it. Called once per claim of a section with `units`
  // units, it always finds one: a run only ever loses units, so a run seen empty stays empty,
  // and were every run empty, the other claims (fewer than `units`, each taking at most one
  // unit) would have taken them all.
  std::size_t take(std::size_t rank) {
    const std::size_t home = std::min(rank, width_ - 1) * runs_ / width_;
    for (std::size_t i = 0;; ++i) {
      Run& run = run_[(home + i) % runs_];
      if (run.next.load(std::memory_order_relaxed) >= run.end) continue;
      const std::size_t unit = run.next.fetch_add(1, std::memory_order_relaxed);
      if (unit < run.end) return unit;
    }
  }

 private:
  struct alignas(64) Run {
    std::atomic<std::size_t> next{0};
    std::size_t end = 0;
  };
  std::size_t width_;
  std::size_t runs_;
  std::array<Run, kMaxRuns> run_{};
};

}  // namespace teamla::team
