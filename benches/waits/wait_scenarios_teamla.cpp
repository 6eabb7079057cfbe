// SPDX-License-Identifier: Apache-2.0
// wait_scenarios_teamla.cpp: the wait scenarios on a teamla pool under one wait policy
// (legacy: the base that reproduces the slow mode; staged: the fix).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"
#include "teamla/team/wait_policy.hpp"
#include "wait_scenarios_common.hpp"

namespace teamla::bench {
namespace {

using team::Pool;
using team::Section;
using team::Team;
using team::WaitCounters;

RowCounters to_row_counters(const WaitCounters& c) {
  return {c.join_sleeps, c.barrier_sleeps,       c.member_parks,
          c.preemptions, c.throttle_activations, c.sections};
}

void add(RowCounters& into, const WaitCounters& c) {
  into.join_sleeps += c.join_sleeps;
  into.barrier_sleeps += c.barrier_sleeps;
  into.member_parks += c.member_parks;
  into.preemptions += c.preemptions;
  into.throttle_activations += c.throttle_activations;
  into.sections += c.sections;
}

Team acquire_full(Pool& pool, std::size_t width) {
  Team team = pool.acquire(width);
  if (team.width() != width)
    throw std::runtime_error("wait_scenarios: could not reserve a full team");
  return team;
}

void run_sections(Team& team, const Work& work, std::size_t count, double work_us) {
  for (std::size_t i = 0; i < count; ++i) team.run([&](Section&) { work.run(work_us); });
}

class TeamlaArm {
 public:
  TeamlaArm(const ScenarioOptions& options, team::WaitPolicy policy, std::vector<Row>& rows)
      : options_(options), policy_(policy), rows_(rows) {}

  void run() {
    pool_ = build();
    // The held rows measure a pool past its warm-up, as an application's held pool is for
    // all but its first 200 ms; the new-pool rows measure the warm-up itself.
    std::this_thread::sleep_for(pool_->tuning().warm_up + std::chrono::milliseconds(50));
    std::optional<Team> team(acquire_full(*pool_, options_.width));
    if (options_.wants("sections")) sections(*team);
    if (options_.wants("gaps")) gaps(*team);
    if (options_.wants("nested")) nested(*team);
    if (options_.wants("acquire")) {
      held_team(*team);
      team.reset();
      held_pool();
      pool_.reset();
      new_pool();
    }
  }

 private:
  std::unique_ptr<Pool> build() const {
    team::WaitTuning tuning;
    if (options_.spin_polls >= 0)
      tuning.spin_polls = static_cast<std::uint32_t>(options_.spin_polls);
    if (options_.throttled_polls >= 0)
      tuning.throttled_polls = static_cast<std::uint32_t>(options_.throttled_polls);
    if (options_.yield_polls >= 0)
      tuning.yield_polls = static_cast<std::uint32_t>(options_.yield_polls);
    if (options_.warm_up_ms >= 0) tuning.warm_up = std::chrono::milliseconds(options_.warm_up_ms);
    if (options_.pressure_events >= 0)
      tuning.pressure_events = static_cast<std::uint32_t>(options_.pressure_events);
    if (options_.preempt_gap_us >= 0)
      tuning.preempt_gap = std::chrono::microseconds(options_.preempt_gap_us);
    return Pool::builder().threads(options_.width).policy(policy_).tuning(tuning).build();
  }

  // begin_row() appends a row; hold its index, not a reference, across further rows.
  Row& begin_row(std::string scenario, std::string param, double ideal_work_us) {
    Row& row = rows_.emplace_back();
    row.scenario = std::move(scenario);
    row.param = std::move(param);
    row.ideal_us = ideal_work_us * options_.stacking;
    row.has_counters = true;
    return row;
  }

  // Times `calls` calls of `call()` into a new row, with the pool's counters over them.
  template <class Call>
  void timed_row(std::string scenario, std::string param, double ideal_work_us, std::size_t calls,
                 Call&& call) {
    Row& row = begin_row(std::move(scenario), std::move(param), ideal_work_us);
    WaitCounters before;
    repeat(options_, calls, [&](bool timed) {
      if (!timed) {
        call();
        before = pool_->counters();
        return;
      }
      const double start = now_us();
      call();
      row.samples_us.push_back(now_us() - start);
    });
    row.counters = to_row_counters(pool_->counters() - before);
  }

  void sections(Team& team) {
    for (double work_us : kSectionWorkUs) {
      timed_row("sections", std::to_string(static_cast<int>(work_us)) + " us x 200",
                work_us * kSectionsPerCall, 20,
                [&] { run_sections(team, options_.work, kSectionsPerCall, work_us); });
    }
  }

  // The leader works alone for the gap (serial application code between two parallel calls),
  // then the call starts; the first section's time is the members' wake latency.
  void gaps(Team& team) {
    for (double gap_us : kGapUs) {
      begin_row("gaps (first section)", gap_label(gap_us), kGapSectionWorkUs);
      const std::size_t first_index = rows_.size() - 1;
      std::optional<std::size_t> call_index;
      if (gap_us == kGapUs[3]) {
        begin_row("gaps (call)", gap_label(gap_us), kGapSectionWorkUs * kGapSectionsPerCall);
        call_index = rows_.size() - 1;
      }
      WaitCounters before = pool_->counters();
      repeat(options_, 40, [&](bool timed) {
        options_.work.run(gap_us);
        const double start = now_us();
        run_sections(team, options_.work, 1, kGapSectionWorkUs);
        const double first_done = now_us();
        run_sections(team, options_.work, kGapSectionsPerCall - 1, kGapSectionWorkUs);
        const double done = now_us();
        if (!timed) {
          before = pool_->counters();
          return;
        }
        rows_[first_index].samples_us.push_back(first_done - start);
        if (call_index) rows_[*call_index].samples_us.push_back(done - start);
      });
      const RowCounters counters = to_row_counters(pool_->counters() - before);
      rows_[first_index].counters = counters;
      if (call_index) rows_[*call_index].counters = counters;
    }
  }

  void nested(Team& team) {
    const std::vector<std::size_t> widths = nested_child_widths(options_.width);
    timed_row("nested", "pairs, 100 x 20 us", kNestedWorkUs * kNestedSplitsPerCall, 20, [&] {
      for (std::size_t split = 0; split < kNestedSplitsPerCall; ++split) {
        team.fork(std::span<const std::size_t>(widths), [&](std::size_t, Team& child) {
          child.run([&](Section&) { options_.work.run(kNestedWorkUs); });
        });
      }
    });
  }

  void held_team(Team& team) {
    timed_row(
        "acquire", "team held, token per call", kAcquireSectionWorkUs * kAcquireSectionsPerCall, 30,
        [&] { run_sections(team, options_.work, kAcquireSectionsPerCall, kAcquireSectionWorkUs); });
  }

  void held_pool() {
    timed_row("acquire", "pool held, members per call",
              kAcquireSectionWorkUs * kAcquireSectionsPerCall, 30, [&] {
                Team team = acquire_full(*pool_, options_.width);
                run_sections(team, options_.work, kAcquireSectionsPerCall, kAcquireSectionWorkUs);
              });
  }

  // faer's with_team: a pool built for one call. "call" excludes the build and the drop (the
  // threads may not have started yet); "build to drop" is everything the caller waits for.
  void new_pool() {
    const double ideal_work_us = kAcquireSectionWorkUs * kAcquireSectionsPerCall;
    begin_row("acquire", "new pool per call (call)", ideal_work_us);
    const std::size_t call_index = rows_.size() - 1;
    begin_row("acquire", "new pool per call (build to drop)", ideal_work_us);
    const std::size_t whole_index = rows_.size() - 1;
    RowCounters counters;
    repeat(options_, 20, [&](bool timed) {
      const double start = now_us();
      std::unique_ptr<Pool> pool = build();
      const double built = now_us();
      {
        Team team = acquire_full(*pool, options_.width);
        run_sections(team, options_.work, kAcquireSectionsPerCall, kAcquireSectionWorkUs);
      }
      const double ran = now_us();
      const WaitCounters pool_counters = pool->counters();
      pool.reset();
      const double dropped = now_us();
      if (!timed) return;
      add(counters, pool_counters);
      rows_[call_index].samples_us.push_back(ran - built);
      rows_[whole_index].samples_us.push_back(dropped - start);
    });
    rows_[call_index].counters = counters;
    rows_[whole_index].counters = counters;
  }

  const ScenarioOptions& options_;
  team::WaitPolicy policy_;
  std::vector<Row>& rows_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace

void run_teamla_arm(const ScenarioOptions& options, const std::string& policy,
                    std::vector<Row>& rows) {
  TeamlaArm(options, team::parse_wait_policy(policy), rows).run();
}

}  // namespace teamla::bench
