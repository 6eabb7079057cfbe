// SPDX-License-Identifier: Apache-2.0
// team_dispatch.cpp: what one empty section costs, beside libgomp's empty `omp parallel`.
// Not Google Benchmark: libgomp and teamla in one process, and a wait scenario.
//
//   team_dispatch [--json FILE] [--rounds N]          dispatch costs (docs/team.md)
//                 [--after-wake-polls N]              plus a teamla arm with that knob
//   team_dispatch --yield-study [--json FILE]         the yield phase in the stacked cases
//
// Dispatch: widths 1 and 2, three states of the members: hot (back-to-back sections), after
// a 1 ms gap (still spinning), and parked (after 300 ms, past the spin budget: a futex wake).
// The arms alternate within every round; medians over rounds are reported, in ns per section.
//
// Yield study: 200 sections of ~20 us per call, width 2, in the two stacked cases of the
// tests (a co-runner burning half of CPU 1; every thread on CPU 0), with the yield phase as
// 16 full yields, cut after a slow yield (the default), or removed. Median ms per call.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/args.hpp"
#include "common/stats.hpp"
#include "teamla/team/team_all.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using teamla::bench::ArgCursor;
using teamla::bench::upper_median;
using teamla::team::Pool;
using teamla::team::Section;
using teamla::team::Team;
using teamla::team::WaitTuning;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// An arm dispatches one empty section of its width.
struct Arm {
  std::string name;
  std::size_t width;
  std::function<void()> dispatch;
};

// hot_ns(): mean of a batch of back-to-back dispatches.
double hot_ns(const Arm& arm) {
  constexpr int kBatch = 20000;
  for (int i = 0; i < 1000; ++i) arm.dispatch();
  const auto start = Clock::now();
  for (int i = 0; i < kBatch; ++i) arm.dispatch();
  return ns_since(start) / kBatch;
}

// after_gap_ns(): median of single dispatches, each after `gap` of sleep.
double after_gap_ns(const Arm& arm, std::chrono::microseconds gap, int samples) {
  std::vector<double> times;
  arm.dispatch();
  for (int i = 0; i < samples; ++i) {
    std::this_thread::sleep_for(gap);
    const auto start = Clock::now();
    arm.dispatch();
    times.push_back(ns_since(start));
  }
  return upper_median(times);
}

void run_dispatch(int rounds, const std::vector<std::uint32_t>& after_wake_arms, FILE* json) {
  std::vector<std::unique_ptr<Pool>> pools;
  std::vector<Team> teams;
  for (std::uint32_t polls : after_wake_arms) {
    WaitTuning tuning;
    tuning.after_wake_polls = polls;
    pools.push_back(Pool::builder().threads(2).tuning(tuning).build());
    teams.push_back(pools.back()->acquire(2));
  }
  std::vector<Arm> arms;
  for (std::size_t w : {1, 2}) {
    for (std::size_t i = 0; i < teams.size(); ++i) {
      const std::string name =
          i == 0 ? "teamla" : "teamla_after_wake_" + std::to_string(after_wake_arms[i]);
      Team* team = &teams[i];
      arms.push_back({name, w, [team, w] { team->run(w, [](Section&) {}); }});
    }
#ifdef _OPENMP
    arms.push_back({"libgomp", w, [w] {
                      int sink = 0;
#pragma omp parallel num_threads(static_cast <int>(w))
                      { asm volatile("" : : "r"(&sink) : "memory"); }
                    }});
#endif
  }
  std::map<std::string, std::vector<double>> samples;  // "arm/width/state" -> per-round values
  for (int round = 0; round < rounds; ++round) {
    for (const Arm& arm : arms) {
      const std::string key = arm.name + "/" + std::to_string(arm.width) + "/";
      samples[key + "hot"].push_back(hot_ns(arm));
      samples[key + "gap_1ms"].push_back(after_gap_ns(arm, std::chrono::microseconds(1000), 41));
      samples[key + "parked"].push_back(after_gap_ns(arm, std::chrono::milliseconds(300), 3));
    }
  }
  std::printf("%-22s %12s\n", "arm/width/state", "median ns");
  std::fprintf(json, "{\n  \"bench\": \"team_dispatch\",\n  \"rounds\": %d,\n  \"results\": [",
               rounds);
  bool first = true;
  for (const auto& [key, values] : samples) {
    std::printf("%-22s %12.0f\n", key.c_str(), upper_median(values));
    std::fprintf(json, "%s\n    {\"case\": \"%s\", \"median_ns\": %.0f}", first ? "" : ",",
                 key.c_str(), upper_median(values));
    first = false;
  }
  std::fprintf(json, "\n  ]\n}\n");
}

void busy_for(std::chrono::microseconds span) {
  const auto end = Clock::now() + span;
  while (Clock::now() < end) teamla::team::cpu_relax();
}

bool pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

double call_ms(Team& team) {
  const auto start = Clock::now();
  for (int section = 0; section < 200; ++section) {
    team.run([](Section&) { busy_for(std::chrono::microseconds(20)); });
  }
  return ns_since(start) / 1e6;
}

void run_yield_study(int rounds, FILE* json) {
  struct Variant {
    const char* name;
    std::uint32_t yield_polls;
    std::chrono::microseconds slow_yield;
  };
  const Variant variants[] = {{"yield16_full", 16, std::chrono::microseconds(0)},
                              {"yield16_cut_200us", 16, std::chrono::microseconds(200)},
                              {"yield16_cut_20us", 16, std::chrono::microseconds(20)},
                              {"no_yield", 0, std::chrono::microseconds(0)}};
  std::map<std::string, std::vector<double>> samples;
  cpu_set_t saved;
  pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved);
  for (int round = 0; round < rounds; ++round) {
    for (const char* scenario : {"corunner_cpu1", "all_on_cpu0"}) {
      for (const Variant& v : variants) {
        std::atomic<bool> stop{false};
        std::thread co_runner;
        if (std::strcmp(scenario, "corunner_cpu1") == 0) {
          co_runner = std::thread([&stop] {
            pin_self(1);
            while (!stop.load()) {
              busy_for(std::chrono::microseconds(2000));
              std::this_thread::sleep_for(std::chrono::microseconds(2000));
            }
          });
        } else {
          pin_self(0);
        }
        WaitTuning tuning;
        tuning.yield_polls = v.yield_polls;
        tuning.slow_yield = v.slow_yield;
        {
          auto pool = Pool::builder().threads(2).tuning(tuning).build();
          Team team = pool->acquire(2);
          for (int call = 0; call < 5; ++call) {
            samples[std::string(scenario) + "/" + v.name].push_back(call_ms(team));
          }
        }
        stop.store(true);
        if (co_runner.joinable()) co_runner.join();
        pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
      }
    }
  }
  std::printf("%-34s %10s %10s\n", "scenario/variant", "median ms", "worst ms");
  std::fprintf(json, "{\n  \"bench\": \"team_yield_study\",\n  \"rounds\": %d,\n  \"results\": [",
               rounds);
  bool first = true;
  for (const auto& [key, values] : samples) {
    const double worst = *std::max_element(values.begin(), values.end());
    std::printf("%-34s %10.2f %10.2f\n", key.c_str(), upper_median(values), worst);
    std::fprintf(json, "%s\n    {\"case\": \"%s\", \"median_ms\": %.3f, \"worst_ms\": %.3f}",
                 first ? "" : ",", key.c_str(), upper_median(values), worst);
    first = false;
  }
  std::fprintf(json, "\n  ]\n}\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool yield_study = false;
  int rounds = 7;
  std::vector<std::uint32_t> after_wake_arms{WaitTuning{}.after_wake_polls};
  const char* json_path = nullptr;
  for (ArgCursor arg(argc, argv); arg.next();) {
    if (arg.is("--yield-study")) {
      yield_study = true;
    } else if (arg.is("--rounds") && arg.has_value()) {
      rounds = std::max(1, std::atoi(arg.value()));
    } else if (arg.is("--after-wake-polls") && arg.has_value()) {
      // An extra teamla arm with this after_wake_polls (A/B against the default).
      after_wake_arms.push_back(static_cast<std::uint32_t>(std::strtoul(arg.value(), nullptr, 10)));
    } else if (arg.is("--json") && arg.has_value()) {
      json_path = arg.value();
    } else {
      std::fprintf(stderr,
                   "usage: %s [--yield-study] [--rounds N] [--after-wake-polls N] [--json FILE]\n",
                   argv[0]);
      return 2;
    }
  }
  FILE* json = json_path != nullptr ? std::fopen(json_path, "w") : std::fopen("/dev/null", "w");
  if (json == nullptr) {
    std::perror(json_path);
    return 1;
  }
  if (yield_study) {
    run_yield_study(rounds, json);
  } else {
    run_dispatch(rounds, after_wake_arms, json);
  }
  std::fclose(json);
  return 0;
}
