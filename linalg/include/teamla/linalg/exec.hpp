// SPDX-License-Identifier: Apache-2.0
// exec.hpp: where a kernel runs (a team or inline), its workspace, and what it reports.
//
// An Exec is passed to every routine. With team == nullptr the routine runs serially on the
// calling thread. With a team, each parallel region picks the narrowest width that pays
// (width.hpp) up to min(team->width(), max_width); width 1 runs inline and never touches the
// pool. `stats` reports what the last call did, for benches and tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace teamla::team {
class Team;
}

namespace teamla::linalg {

class Workspace;

struct ExecStats {
  std::size_t max_width_used = 0;   // widest section the call ran (1: all inline)
  std::size_t sections = 0;         // sections of width > 1 the call opened
  std::size_t inline_regions = 0;   // regions the cost model ran at width 1
  std::size_t width_cap = 0;        // min(team, max_width, usable CPUs) at the last region
  double section_cost_ns = 0;       // the team's measured section cost (width.hpp)
  std::size_t learned_regions = 0;  // regions whose width a calibrated decision decided
  // regions the process CPU budget capped below the team's cap (team/cpu_budget.hpp)
  std::size_t budget_limited_regions = 0;

  // add(): folds in the stats of a later call of the same routine (a routine built from
  // others, each of which resets exec.stats): counts summed, the widest width kept, the cap
  // and section cost the latest.
  void add(const ExecStats& s) {
    max_width_used = max_width_used > s.max_width_used ? max_width_used : s.max_width_used;
    sections += s.sections;
    inline_regions += s.inline_regions;
    width_cap = s.width_cap;
    section_cost_ns = s.section_cost_ns;
    learned_regions += s.learned_regions;
    budget_limited_regions += s.budget_limited_regions;
  }
};

// WidthRule: how a region's width is decided (width.hpp).
enum class WidthRule {
  // The cost model, the penalty observed under foreign load, and the calibrated decisions
  // for the close calls: the default.
  observed,
  // The cost model alone, with nothing observed or calibrated: how threadteam 0.1.3 planned,
  // for the benches that reproduce it.
  model,
};

struct Exec {
  team::Team* team = nullptr;      // nullptr: serial
  Workspace* workspace = nullptr;  // nullptr: a thread-local workspace
  std::size_t max_width = 0;       // 0: the team's width
  WidthRule width_rule = WidthRule::observed;
  ExecStats stats;  // reset and filled by each call
};

}  // namespace teamla::linalg
