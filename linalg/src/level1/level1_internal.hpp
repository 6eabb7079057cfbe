// SPDX-License-Identifier: Apache-2.0
// level1_internal.hpp (internal): what the level-1 routines (blas1.hpp) share: the size check
// of paired vectors, the lane count of the contiguous reductions, and a complex vector seen as
// its interleaved real and imaginary parts.
#pragma once

#include <complex>

#include "teamla/linalg/vector_view.hpp"

namespace teamla::linalg::level1_detail {

// fail_size(): throws InvalidArgument for paired vectors of sizes nx and ny (level1_checks.cpp).
[[noreturn]] void fail_size(const char* routine, index_t nx, index_t ny);

// check_same_size(): paired vectors must have equal sizes; runs before anything is written.
inline void check_same_size(const char* routine, index_t nx, index_t ny) {
  if (nx != ny) [[unlikely]]
    fail_size(routine, nx, ny);
}

// kLanes: independent accumulators of a contiguous reduction. Without -ffast-math GCC keeps one
// sum in source order and cannot vectorize it; written as lanes, each lane is its own chain.
// 64 bytes of them are four SSE2 registers: four adds in flight rather than one.
template <class R>
inline constexpr index_t kLanes = static_cast<index_t>(64 / sizeof(R));

// sum_lanes(): the lanes folded pairwise (halves added), which also keeps the rounding error
// of the final sum small.
template <class R, index_t L>
R sum_lanes(R (&s)[L]) {
  for (index_t width = L / 2; width > 0; width /= 2) {
    for (index_t j = 0; j < width; ++j) s[j] += s[j + width];
  }
  return s[0];
}

// reals(): a complex array as its 2n interleaved parts (re, im, re, ...), as the standard
// allows ([complex.numbers]); a real array is itself.
template <class R>
const R* reals(const std::complex<R>* p) {
  return reinterpret_cast<const R*>(p);
}
template <class R>
R* reals(std::complex<R>* p) {
  return reinterpret_cast<R*>(p);
}
template <class R>
const R* reals(const R* p) {
  return p;
}
template <class R>
R* reals(R* p) {
  return p;
}

// parts<T>: the real numbers in one element of T (2 for a complex T).
template <class T>
inline constexpr index_t parts = is_complex_v<std::remove_const_t<T>> ? 2 : 1;

}  // namespace teamla::linalg::level1_detail
