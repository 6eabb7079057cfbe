// SPDX-License-Identifier: Apache-2.0
// wait_scenarios.cpp: the faer#107 wait scenarios under one arm, as JSON.
// Not Google Benchmark: its output is a per-call distribution (p50/p99/max, slow share).
//
//   wait_scenarios --arm legacy|staged|passive|omp [--width W] [--scenarios a,b,...]
//                  [--iters-per-us X] [--row-seconds S] [--min-calls N] [--calls-scale F]
//                  [--json FILE]
//                  [--spin-polls N] [--throttled-polls N] [--yield-polls N] [--warm-ms N]
//                  [--pressure-events N] [--preempt-gap-us N]
//   wait_scenarios --calibrate        prints the work calibration (iterations per µs)
//   wait_scenarios --pause-cost       prints how long the staged spin budget (300000 polls of
//                                     one PAUSE) lasts here: best and median of 41 runs
//
// Scenarios (the same calls in every arm; see docs/waits.md):
//   sections  calls of 200 sections of 5, 20 and 50 µs of work per participant;
//   gaps      after the leader works alone for 0, 100 µs, 1 ms or 10 ms: the latency of the
//             first section (5 µs), and for 10 ms the whole call (10 sections of 5 µs);
//   acquire   50 sections of 20 µs, with the team held; the pool held and a team acquired per
//             call; a new pool per call (the call, and build to drop);
//   nested    100 splits of the team into pairs per call, each pair running 20 µs.
// Each row: median and p99 µs per call, the ideal, the fraction of calls slower than 10x the
// ideal (the slow mode), and the pool's wait counters over the row.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/args.hpp"
#include "common/stats.hpp"
#include "teamla/team/machine.hpp"
#include "wait_scenarios_common.hpp"

namespace teamla::bench {
namespace {

std::string json_number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string to_json(const std::string& arm, const ScenarioOptions& options, unsigned cpus,
                    const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "{\n  \"bench\": \"wait_scenarios\",\n  \"arm\": \"" << arm
      << "\",\n  \"width\": " << options.width << ",\n  \"affinity_cpus\": " << cpus
      << ",\n  \"stacking\": " << options.stacking
      << ",\n  \"iterations_per_us\": " << json_number(options.work.iterations_per_us())
      << ",\n  \"tuning\": {\"spin_polls\": " << options.spin_polls
      << ", \"throttled_polls\": " << options.throttled_polls
      << ", \"yield_polls\": " << options.yield_polls << ", \"warm_up_ms\": " << options.warm_up_ms
      << ", \"pressure_events\": " << options.pressure_events
      << ", \"preempt_gap_us\": " << options.preempt_gap_us << "}"
      << ",\n  \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const double slow_threshold = 10 * row.ideal_us;
    const auto slow = std::count_if(row.samples_us.begin(), row.samples_us.end(),
                                    [&](double s) { return s > slow_threshold; });
    out << (i ? ",\n" : "\n") << "    {\"scenario\": \"" << row.scenario << "\", \"param\": \""
        << row.param << "\", \"calls\": " << row.samples_us.size()
        << ", \"median_us\": " << json_number(median(row.samples_us))
        << ", \"p99_us\": " << json_number(nearest_rank(row.samples_us, 0.99))
        << ", \"max_us\": " << json_number(nearest_rank(row.samples_us, 1.0))
        << ", \"ideal_us\": " << json_number(row.ideal_us) << ", \"slow_fraction\": "
        << json_number(row.samples_us.empty() ? 0.0
                                              : static_cast<double>(slow) / row.samples_us.size());
    if (row.has_counters) {
      const RowCounters& c = row.counters;
      out << ", \"counters\": {\"join_sleeps\": " << c.join_sleeps
          << ", \"barrier_sleeps\": " << c.barrier_sleeps
          << ", \"member_parks\": " << c.member_parks << ", \"preemptions\": " << c.preemptions
          << ", \"throttle_activations\": " << c.throttle_activations
          << ", \"sections\": " << c.sections << "}";
    }
    out << "}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

// The wall time of the default spin budget, to compare with the gaps it must bridge.
void print_pause_cost() {
  constexpr int kPolls = 300000;
  std::vector<double> runs_ms;
  for (int run = 0; run < 41; ++run) {
    const double start = now_us();
    for (int poll = 0; poll < kPolls; ++poll) team::cpu_relax();
    runs_ms.push_back((now_us() - start) / 1000);
  }
  std::printf("%d polls: best %.2f ms (%.1f ns per poll), median %.2f ms\n", kPolls,
              nearest_rank(runs_ms, 0), nearest_rank(runs_ms, 0) * 1e6 / kPolls, median(runs_ms));
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "wait_scenarios: " << why
            << "\nusage: wait_scenarios --arm legacy|staged|passive|omp [--width W] "
               "[--scenarios sections,gaps,acquire,nested] [--iters-per-us X] "
               "[--row-seconds S] [--min-calls N] [--calls-scale F] [--json FILE] [--spin-polls N] "
               "[--throttled-polls N] [--yield-polls N] [--warm-ms N] [--pressure-events N] "
               "[--preempt-gap-us N]\n"
               "       wait_scenarios --calibrate | --pause-cost\n";
  std::exit(2);
}

int run(int argc, char** argv) {
  ScenarioOptions options;
  std::string arm, json_path;
  double iterations_per_us = 0;
  const unsigned cpus = team::affinity_cpu_count();
  options.width = cpus;
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    auto value = [&]() -> std::string {
      if (!cursor.has_value()) usage("missing value after " + arg);
      return cursor.value();
    };
    if (arg == "--pause-cost") {
      print_pause_cost();
      return 0;
    } else if (arg == "--calibrate") {
      std::printf("%.3f\n", Work::calibrate().iterations_per_us());
      return 0;
    } else if (arg == "--arm") {
      arm = value();
    } else if (arg == "--width") {
      options.width = std::stoul(value());
    } else if (arg == "--scenarios") {
      options.scenarios = split_list(value());
    } else if (arg == "--iters-per-us") {
      iterations_per_us = std::stod(value());
    } else if (arg == "--row-seconds") {
      options.row_seconds = std::stod(value());
    } else if (arg == "--min-calls") {
      options.min_calls = std::max<std::size_t>(1, std::stoul(value()));
    } else if (arg == "--calls-scale") {
      options.calls_scale = std::stod(value());
    } else if (arg == "--spin-polls") {
      options.spin_polls = std::stoll(value());
    } else if (arg == "--throttled-polls") {
      options.throttled_polls = std::stoll(value());
    } else if (arg == "--yield-polls") {
      options.yield_polls = std::stoll(value());
    } else if (arg == "--warm-ms") {
      options.warm_up_ms = std::stoll(value());
    } else if (arg == "--pressure-events") {
      options.pressure_events = std::stoll(value());
    } else if (arg == "--preempt-gap-us") {
      options.preempt_gap_us = std::stoll(value());
    } else if (arg == "--json") {
      json_path = value();
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (arm != "legacy" && arm != "staged" && arm != "passive" && arm != "omp")
    usage("--arm is legacy, staged, passive or omp");
  if (options.width < 2) usage("--width must be at least 2");
  if (arm == "omp" && !omp_arm_available()) usage("built without OpenMP: no omp arm");
  options.stacking = (options.width + cpus - 1) / cpus;
  options.work = iterations_per_us > 0 ? Work(iterations_per_us) : Work::calibrate();

  std::vector<Row> rows;
  if (arm == "omp") {
    run_omp_arm(options, rows);
  } else {
    run_teamla_arm(options, arm, rows);
  }
  const std::string json = to_json(arm, options, cpus, rows);
  if (json_path.empty()) {
    std::cout << json;
  } else {
    std::ofstream(json_path) << json;
  }
  return 0;
}

}  // namespace
}  // namespace teamla::bench

int main(int argc, char** argv) {
  try {
    return teamla::bench::run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "wait_scenarios: " << error.what() << "\n";
    return 1;
  }
}
