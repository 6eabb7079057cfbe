// SPDX-License-Identifier: Apache-2.0
// triangular.hpp (internal): trmv's and trsv's checks and their reduction to a column-major
// triangle.
//
// A row-major A is the column-major M = A^T of the same storage, its other triangle: op(A) = A
// is M^T, op(A) = A^T is M, and op(A) = A^H is conj(M). On a column-major A, A^H is conj(M)^T.
#pragma once

#include "level2/level2_internal.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg::level2_detail {

// Triangular: op(A) as trans?(conj?(M)) with M column-major, its `lower` (else upper) triangle.
template <class T>
struct Triangular {
  MatrixView<const T> a;
  bool lower;
  bool trans;
  bool conj;
  bool unit;
};

// to_triangular(): checks `routine`'s arguments (A square, x of its order) and reduces A.
template <class T>
Triangular<T> to_triangular(const char* routine, Uplo uplo, Op op, Diag diag, MatrixView<const T> a,
                            const VectorView<T>& x) {
  level3_detail::check_uplo(routine, uplo);
  level3_detail::check_op(routine, "op", op, true);  // A^H is A^T for a real A
  level3_detail::check_diag(routine, diag);
  level3_detail::check_view(routine, "A", a);
  level3_detail::check_square(routine, "A", a.rows, a.cols);
  check_vector(routine, "x", x);
  check_length(routine, "x", x.size, a.rows, "the rows of A");
  const bool col = a.layout == Layout::col_major;
  return Triangular<T>{.a = col ? a : a.transposed(),
                       .lower = col == (uplo == Uplo::lower),
                       .trans = col ? op != Op::none : op == Op::none,
                       .conj = is_complex_v<T> && op == Op::conj_transpose,
                       .unit = diag == Diag::unit};
}

// kTriangleBlock: the order of the diagonal blocks that trmv_block and trsv_block take; the
// rectangles between them go to gemv's kernels.
inline constexpr index_t kTriangleBlock = 64;

}  // namespace teamla::linalg::level2_detail
