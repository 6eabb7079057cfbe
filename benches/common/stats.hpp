// SPDX-License-Identifier: Apache-2.0
// stats.hpp: the order statistics the custom benches report, each convention named once (the
// Google Benchmark programs leave statistics to it).
//
// The benches quote medians and tail percentiles of per-call times. Two medians are in use:
// median() (the textbook one, for JSON records) and upper_median() (always a time that was
// measured, for tables). The percentiles differ in how a fraction becomes a rank; each bench
// keeps the one its recorded results were computed with, so a rerun is comparable.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace teamla::bench {

// median(): the middle sample, or the mean of the two middle ones for an even count; 0 for
// no samples.
inline double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const std::size_t mid = samples.size() / 2;
  return samples.size() % 2 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2;
}

// upper_median(): the sorted sample at index size/2 (the upper middle for an even count); 0
// for no samples.
inline double upper_median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  const auto mid = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), mid, samples.end());
  return *mid;
}

// nearest_rank(): the percentile by nearest rank, the sample of rank ceil(fraction * size)
// (fraction 0: the minimum, 1: the maximum); 0 for no samples.
inline double nearest_rank(std::vector<double> samples, double fraction) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const auto rank =
      static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(samples.size())));
  return samples[std::min(samples.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// floor_rank(): the sorted sample at index floor(fraction * size), the last for fraction 1;
// 0 for no samples.
inline double floor_rank(std::vector<double> samples, double fraction) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const auto at = static_cast<std::size_t>(fraction * static_cast<double>(samples.size()));
  return samples[std::min(samples.size() - 1, at)];
}

// quantile_of_sorted(): the sample at the rounded index fraction * (size - 1) of samples
// already sorted (for long runs sorted once and read at several fractions). Needs a sample.
inline double quantile_of_sorted(const std::vector<double>& sorted, double fraction) {
  const auto at = static_cast<std::size_t>(fraction * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(at, sorted.size() - 1)];
}

}  // namespace teamla::bench
