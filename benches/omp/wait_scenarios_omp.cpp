// SPDX-License-Identifier: Apache-2.0
// wait_scenarios_omp.cpp: the wait scenarios under libgomp with its default settings, the
// reference of criterion (c). A teamla section maps to one `#pragma omp parallel` region of
// `width` threads (libgomp keeps its pool hot between regions, as a held team is); a split
// into pairs maps to nested regions. libgomp has no per-call acquisition, so its only acquire
// row is the held team, which is what a held pool and a new pool are compared against.
// Compiled with -fopenmp; the rest of wait_scenarios is not OpenMP code.
#include <omp.h>

#include <string>
#include <vector>

#include "../waits/wait_scenarios_common.hpp"

namespace teamla::bench {
namespace {

void regions(int width, const Work& work, std::size_t count, double work_us) {
  for (std::size_t i = 0; i < count; ++i) {
#pragma omp parallel num_threads(width)
    work.run(work_us);
  }
}

Row& begin_row(std::vector<Row>& rows, const ScenarioOptions& options, std::string scenario,
               std::string param, double ideal_work_us) {
  Row& row = rows.emplace_back();
  row.scenario = std::move(scenario);
  row.param = std::move(param);
  row.ideal_us = ideal_work_us * options.stacking;
  return row;
}

template <class Call>
void timed_row(std::vector<Row>& rows, const ScenarioOptions& options, std::string scenario,
               std::string param, double ideal_work_us, std::size_t calls, Call&& call) {
  Row& row = begin_row(rows, options, std::move(scenario), std::move(param), ideal_work_us);
  repeat(options, calls, [&](bool timed) {
    const double start = now_us();
    call();
    if (timed) row.samples_us.push_back(now_us() - start);
  });
}

}  // namespace

bool omp_arm_available() { return true; }

void run_omp_arm(const ScenarioOptions& options, std::vector<Row>& rows) {
  const int width = static_cast<int>(options.width);
  const Work& work = options.work;
  if (options.wants("sections")) {
    for (double work_us : kSectionWorkUs) {
      timed_row(rows, options, "sections", std::to_string(static_cast<int>(work_us)) + " us x 200",
                work_us * kSectionsPerCall, 20,
                [&] { regions(width, work, kSectionsPerCall, work_us); });
    }
  }
  if (options.wants("gaps")) {
    for (double gap_us : kGapUs) {
      begin_row(rows, options, "gaps (first section)", gap_label(gap_us), kGapSectionWorkUs);
      const std::size_t first_index = rows.size() - 1;
      std::size_t call_index = 0;
      if (gap_us == kGapUs[3]) {
        begin_row(rows, options, "gaps (call)", gap_label(gap_us),
                  kGapSectionWorkUs * kGapSectionsPerCall);
        call_index = rows.size() - 1;
      }
      repeat(options, 40, [&](bool timed) {
        work.run(gap_us);
        const double start = now_us();
        regions(width, work, 1, kGapSectionWorkUs);
        const double first_done = now_us();
        regions(width, work, kGapSectionsPerCall - 1, kGapSectionWorkUs);
        const double done = now_us();
        if (!timed) return;
        rows[first_index].samples_us.push_back(first_done - start);
        if (call_index) rows[call_index].samples_us.push_back(done - start);
      });
    }
  }
  if (options.wants("nested")) {
    const std::vector<std::size_t> widths = nested_child_widths(options.width);
    omp_set_max_active_levels(2);
    timed_row(rows, options, "nested", "pairs, 100 x 20 us", kNestedWorkUs * kNestedSplitsPerCall,
              20, [&] {
                for (std::size_t split = 0; split < kNestedSplitsPerCall; ++split) {
#pragma omp parallel num_threads(static_cast <int>(widths.size()))
                  {
                    const std::size_t child = static_cast<std::size_t>(omp_get_thread_num());
                    regions(static_cast<int>(widths[child]), work, 1, kNestedWorkUs);
                  }
                }
              });
  }
  if (options.wants("acquire")) {
    timed_row(rows, options, "acquire", "team held, token per call",
              kAcquireSectionWorkUs * kAcquireSectionsPerCall, 30,
              [&] { regions(width, work, kAcquireSectionsPerCall, kAcquireSectionWorkUs); });
  }
}

}  // namespace teamla::bench
