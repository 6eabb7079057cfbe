// SPDX-License-Identifier: Apache-2.0
// triangle_update.hpp (internal): the update of one triangle by one or two rank-1 terms, which
// syr, her (syr.cpp), syr2 and her2 (syr2.cpp) reduce to.
#pragma once

#include "teamla/linalg/blas2.hpp"

namespace teamla::linalg::level2_detail {

// TriangleUpdate: the `lower` (else upper) triangle of a column-major A += u1 w1^T, plus
// u2 w2^T unless u2 is null; herm: the diagonal's imaginary parts then set to 0 (as the
// reference zher and zher2 do). u and w are contiguous, n elements each.
template <class T>
struct TriangleUpdate {
  MatrixView<T> a;
  bool lower;
  bool herm;
  const T* u1;
  const T* w1;
  const T* u2;
  const T* w2;
};

// run_triangle_update(): the update as a planned region (triangle_update.cpp); on a team each
// slice updates a run of columns holding an equal share of the triangle.
template <class T>
void run_triangle_update(const TriangleUpdate<T>& t, Exec& exec);

}  // namespace teamla::linalg::level2_detail
