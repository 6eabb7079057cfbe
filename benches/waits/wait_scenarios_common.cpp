// SPDX-License-Identifier: Apache-2.0
// wait_scenarios_common.cpp: the calibrated work and the scenario helpers of wait_scenarios.
#include <algorithm>
#include <string>
#include <vector>

#include "wait_scenarios_common.hpp"

namespace teamla::bench {

void Work::chain(std::uint64_t iterations) {
  double value = 1.0;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    value = value * 0.999999 + 1e-6;
    // Keeps each step a real, dependent operation the compiler cannot fold or vectorize.
    __asm__ volatile("" : "+x"(value));
  }
}

Work Work::calibrate() {
  constexpr std::uint64_t kTrialIterations = 100000;
  chain(kTrialIterations);  // warm the core up
  double best_us = 1e30;
  for (int trial = 0; trial < 30; ++trial) {
    const double start = now_us();
    chain(kTrialIterations);
    best_us = std::min(best_us, now_us() - start);
  }
  return Work(kTrialIterations / std::max(best_us, 1e-3));
}

std::string gap_label(double gap_us) {
  if (gap_us == 0) return "0";
  if (gap_us < 1000) return std::to_string(static_cast<int>(gap_us)) + " us";
  return std::to_string(static_cast<int>(gap_us / 1000)) + " ms";
}

std::vector<std::size_t> nested_child_widths(std::size_t width) {
  if (width < 4) return std::vector<std::size_t>(width, 1);
  std::vector<std::size_t> widths(width / 2, 2);
  if (width % 2) widths.push_back(1);
  return widths;
}

}  // namespace teamla::bench
