// SPDX-License-Identifier: Apache-2.0
// wait_scenarios_common.hpp: what the arms of wait_scenarios share: the calibrated work, the
// scenario options, the repetition loop, and the rows they report.
//
// Each arm (teamla legacy, teamla staged, libgomp) runs in a process of its own, so that one
// runtime's spinning threads never disturb another's numbers; scripts/bench-ab alternates the
// arms within every round. Single-threaded use: only the participants' bodies run concurrently,
// and they only call Work::run().
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace teamla::bench {

// Work: "N µs of work" as a fixed amount of computation, a dependent chain of multiply-adds
// whose iterations per µs are calibrated once (or passed in, so every arm of a run does the
// same work). Fixed work and not a spin on the clock: a participant that shares its CPU with
// another thread then takes longer, as a real kernel does; a clock spin would finish "for free"
// while descheduled and hide part of the cost of stacking. Thread-safe (const).
class Work {
 public:
  explicit Work(double iterations_per_us) : iterations_per_us_(iterations_per_us) {}
  // calibrate() takes the fastest of 30 runs of ~100 µs: the least disturbed one.
  static Work calibrate();
  [[nodiscard]] double iterations_per_us() const { return iterations_per_us_; }
  void run(double microseconds) const {
    chain(static_cast<std::uint64_t>(microseconds * iterations_per_us_));
  }
  static void chain(std::uint64_t iterations);

 private:
  double iterations_per_us_;
};

inline double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

// Counters of a row: the pool's wait counters over the row's calls (teamla arms only).
struct RowCounters {
  std::uint64_t join_sleeps = 0, barrier_sleeps = 0, member_parks = 0, preemptions = 0,
                throttle_activations = 0, sections = 0;
};

struct Row {
  std::string scenario;  // sections, gaps, acquire, nested
  std::string param;     // what varies within the scenario
  double ideal_us = 0;   // the work of one call on width CPUs, stacking counted
  std::vector<double> samples_us;
  bool has_counters = false;
  RowCounters counters;
};

struct ScenarioOptions {
  std::size_t width = 2;
  // How many participants must share a CPU at best: ceil(width / CPUs of the affinity set).
  // The ideal of a call is its work times this.
  std::size_t stacking = 1;
  std::vector<std::string> scenarios{"sections", "gaps", "acquire", "nested"};
  double row_seconds = 0.6;  // a row stops after this much time once it has min_calls
  std::size_t min_calls = 3;
  double calls_scale = 1.0;  // scales every row's call count (smoke runs use less)
  Work work{1.0};
  // Overrides of the teamla pool's WaitTuning (negative: keep the default), so that one binary
  // can measure the budgets docs/waits.md discusses.
  long long spin_polls = -1;
  long long throttled_polls = -1;
  long long yield_polls = -1;
  long long warm_up_ms = -1;
  long long pressure_events = -1;
  long long preempt_gap_us = -1;

  [[nodiscard]] bool wants(const std::string& name) const {
    return std::find(scenarios.begin(), scenarios.end(), name) != scenarios.end();
  }
};

// repeat() runs one warm-up call, then `calls` timed calls (scaled), stopping early once
// row_seconds have passed and min_calls are done. `call` records its own samples.
template <class Call>
void repeat(const ScenarioOptions& options, std::size_t calls, Call&& call) {
  call(false);
  const std::size_t target =
      std::max(options.min_calls, static_cast<std::size_t>(calls * options.calls_scale));
  const double start = now_us();
  for (std::size_t i = 0; i < target; ++i) {
    if (i >= options.min_calls && now_us() - start > options.row_seconds * 1e6) break;
    call(true);
  }
}

// The scenario constants, shared so every arm runs the same calls.
inline constexpr std::size_t kSectionsPerCall = 200;
inline constexpr double kSectionWorkUs[] = {5, 20, 50};
inline constexpr double kGapUs[] = {0, 100, 1000, 10000};
inline constexpr std::size_t kGapSectionsPerCall = 10;
inline constexpr double kGapSectionWorkUs = 5;
inline constexpr std::size_t kAcquireSectionsPerCall = 50;
inline constexpr double kAcquireSectionWorkUs = 20;
inline constexpr std::size_t kNestedSplitsPerCall = 100;
inline constexpr double kNestedWorkUs = 20;

std::string gap_label(double gap_us);
// nested_child_widths(): the split of a team of `width` into pairs (width 2 or 3: ones).
std::vector<std::size_t> nested_child_widths(std::size_t width);

// The arms. Each appends its rows.
void run_teamla_arm(const ScenarioOptions& options, const std::string& policy,
                    std::vector<Row>& rows);
void run_omp_arm(const ScenarioOptions& options, std::vector<Row>& rows);
bool omp_arm_available();

}  // namespace teamla::bench
