// SPDX-License-Identifier: Apache-2.0
// triangle_update.cpp: one triangle += u1 w1^T (+ u2 w2^T), column by column
// (triangle_update.hpp).
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/level2_internal.hpp"
#include "level2/level2_plan.hpp"
#include "level2/triangle_update.hpp"
#include "level3/column_slices.hpp"

namespace teamla::linalg::level2_detail {
namespace {

// update_columns(): columns [c0, c1): each the run of its rows inside the triangle.
template <class T>
void update_columns(const detail::Level2Kernels<T>& k, const TriangleUpdate<T>& t, index_t c0,
                    index_t c1) {
  const index_t n = t.a.rows;
  const index_t ld = t.a.ld;
  for (index_t j = c0; j < c1; ++j) {
    const index_t r0 = t.lower ? j : 0;
    const index_t r1 = t.lower ? n : j + 1;
    k.rank_update(r1 - r0, 1, t.u1 + r0, t.w1 + j, t.u2 == nullptr ? nullptr : t.u2 + r0,
                  t.w2 == nullptr ? nullptr : t.w2 + j, t.a.data + r0 + j * ld, ld);
    if constexpr (is_complex_v<T>) {
      T& d = t.a.data[j + j * ld];
      if (t.herm) d = T(d.real(), 0);
    }
  }
}

}  // namespace

template <class T>
void run_triangle_update(const TriangleUpdate<T>& t, Exec& exec) {
  const index_t n = t.a.rows;
  // n (n + 1) / 2 elements, each read and written.
  const double bytes =
      static_cast<double>(n) * static_cast<double>(n + 1) * static_cast<double>(sizeof(T));
  const RegionPlan plan = plan_level2<T>(bytes, exec);
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  level3_detail::run_column_slices(plan, kSlicesPerParticipant * plan.width, exec,
                                   [&](std::size_t u, std::size_t count) {
                                     const index_t c0 = triangle_edge(n, u, count, t.lower);
                                     const index_t c1 = triangle_edge(n, u + 1, count, t.lower);
                                     if (c1 > c0) update_columns(k, t, c0, c1);
                                   });
}

template void run_triangle_update<float>(const TriangleUpdate<float>&, Exec&);
template void run_triangle_update<double>(const TriangleUpdate<double>&, Exec&);
template void run_triangle_update<std::complex<float>>(const TriangleUpdate<std::complex<float>>&,
                                                       Exec&);
template void run_triangle_update<std::complex<double>>(const TriangleUpdate<std::complex<double>>&,
                                                        Exec&);

}  // namespace teamla::linalg::level2_detail
