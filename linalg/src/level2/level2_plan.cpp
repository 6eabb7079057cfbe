// SPDX-License-Identifier: Apache-2.0
// level2_plan.cpp: level2_runs_inline() (blas2.hpp), and the split of a triangle's columns
// (level2_internal.hpp).
#include <complex>

#include "level2/level2_internal.hpp"
#include "level2/level2_plan.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {

namespace level2_detail {

index_t triangle_edge(index_t n, std::size_t u, std::size_t count, bool shrinking) {
  // balanced_split() shares a lower triangle's area (shrinking columns); growing columns are
  // the same split read from the other end.
  constexpr index_t kAlign = 16;
  if (shrinking) return level3_detail::balanced_split(n, u, count, kAlign);
  if (u >= count) return n;
  return n - level3_detail::balanced_split(n, count - u, count, kAlign);
}

}  // namespace level2_detail

template <class T>
bool level2_runs_inline(index_t elements) {
  // inline_floor_flops() is 0 until a team measured its section cost: nothing known, not inline.
  const double floor = inline_floor_flops(sizeof(real_t<T>));
  return floor > 0 && level2_detail::weighted_flops<T>(static_cast<double>(elements) *
                                                       static_cast<double>(sizeof(T))) < floor;
}

template bool level2_runs_inline<float>(index_t);
template bool level2_runs_inline<double>(index_t);
template bool level2_runs_inline<std::complex<float>>(index_t);
template bool level2_runs_inline<std::complex<double>>(index_t);

}  // namespace teamla::linalg
