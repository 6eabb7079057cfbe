// SPDX-License-Identifier: Apache-2.0
// level2_plan.hpp (internal): how a level-2 call is planned (width.hpp, RegionKind::level2) and
// split over the participants of its section.
//
// The planner weighs a region in gemm's flops: its serial estimate is flops over the active
// gemm kernel's serial rate. A level-2 call is bound by memory instead, each element of A read
// (and for the updates written) once, so its weight is the bytes it moves over an assumed
// streaming rate, expressed in those units. The rate is the model's prior only: calls between
// the planner's floor and its ceiling are calibrated on the machine at hand by plan_region()
// itself (inline and wide runs alternated, the faster kept), so it decides only the calls too
// small for any section to pay and those so large that a section costs nothing beside them.
#pragma once

#include <cstddef>

#include "teamla/linalg/blas2.hpp"
#include "teamla/linalg/width.hpp"

namespace teamla::linalg::level2_detail {

// kLevel2BytesPerNs: the prior streaming rate of one core through a level-2 kernel, bytes of A
// per nanosecond: a large matrix from memory, or a medium one from the last-level cache.
inline constexpr double kLevel2BytesPerNs = 32.0;

// kSlicesPerParticipant: claimed slices per participant of a wide region whose slices are
// runs of whole columns of A, so that a late participant's share is taken by the others.
inline constexpr std::size_t kSlicesPerParticipant = 4;

// kBandsPerParticipant: the same for slices that are bands of A's rows (gemv's and trmv's
// A x). One: a band reads a segment of every column, and the more bands, the shorter the
// segments, which costs the second thread its gain (docs/perf/level2.md). A late
// participant's band is still claimed by the others.
inline constexpr std::size_t kBandsPerParticipant = 1;

// weighted_flops(): a region moving `bytes` of A, in the planner's units for T (gemm's flops
// at its serial rate for real_t<T>).
template <class T>
double weighted_flops(double bytes) {
  return bytes / kLevel2BytesPerNs * gemm_serial_gflops(sizeof(real_t<T>));
}

// plan_level2(): plan_region() for a level-2 region moving `bytes` of A.
template <class T>
RegionPlan plan_level2(double bytes, Exec& exec) {
  if (exec.team == nullptr) return RegionPlan{};  // serial: nothing to weigh
  return plan_region(RegionKind::level2, sizeof(real_t<T>), weighted_flops<T>(bytes), exec);
}

}  // namespace teamla::linalg::level2_detail
