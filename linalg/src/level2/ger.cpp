// SPDX-License-Identifier: Apache-2.0
// ger.cpp: the rank-1 updates A += alpha x y^T (ger; geru for complex) and A += alpha x y^H
// (gerc): checks, the reduction to a column-major A, and the parallel split.
//
// On a column-major A, column j gets u * w[j] with u = x and w = alpha y (gerc: alpha conj(y)).
// A row-major A is the column-major M = A^T of the same storage, and M += alpha y x^T (gerc:
// alpha conj(y) x^T): u = y (conj(y)) and w = alpha x. On a team each slice updates a run of
// M's columns.
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/level2_internal.hpp"
#include "level2/level2_plan.hpp"
#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

// kColumnAlign: slices start on multiples of 4 columns (the kernels' unit elsewhere; any
// split is correct).
constexpr index_t kColumnAlign = 4;

template <class T>
void rank_one(const char* routine, bool conj_y, T alpha, VectorView<const T> x,
              VectorView<const T> y, MatrixView<T> a, Exec& exec) {
  level3_detail::check_view(routine, "A", a);
  check_vector(routine, "x", x);
  check_vector(routine, "y", y);
  check_length(routine, "x", x.size, a.rows, "the rows of A");
  check_length(routine, "y", y.size, a.cols, "the columns of A");
  exec.stats = {};
  if (a.rows == 0 || a.cols == 0 || alpha == T(0)) return;
  const bool col = a.layout == Layout::col_major;
  const MatrixView<T> m = col ? a : a.transposed();
  // The column vector u (M's rows) and the scaled row vector w (M's columns).
  const VectorView<const T> u_src = col ? x : y;
  const VectorView<const T> w_src = col ? y : x;
  const bool conj_u = conj_y && !col;
  const bool conj_w = conj_y && col;
  const std::size_t nu = needs_copy(u_src, T(1), conj_u) ? padded<T>(m.rows) : 0;
  const std::size_t need = nu + padded<T>(m.cols);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::ger(conj_y, alpha, x, y, a, exec, need * sizeof(T));
    return;
  }
  const T* u = gather(u_src, T(1), conj_u, buffer);
  T* w = buffer + nu;
  for (index_t j = 0; j < m.cols; ++j) w[j] = times(alpha, conj_w ? conj_of(w_src[j]) : w_src[j]);

  const double bytes = 2.0 * static_cast<double>(m.rows) * static_cast<double>(m.cols) *
                       static_cast<double>(sizeof(T));
  const RegionPlan plan = plan_level2<T>(bytes, exec);
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  level3_detail::run_column_slices(
      plan, kSlicesPerParticipant * plan.width, exec, [&](std::size_t s, std::size_t count) {
        const index_t c0 = even_edge(m.cols, s, count, kColumnAlign);
        const index_t c1 = even_edge(m.cols, s + 1, count, kColumnAlign);
        if (c1 <= c0) return;
        k.rank_update(m.rows, c1 - c0, u, w + c0, nullptr, nullptr, m.data + c0 * m.ld, m.ld);
      });
}

}  // namespace
}  // namespace level2_detail

template <class T>
void ger(T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a, Exec& exec) {
  level2_detail::rank_one("ger", false, alpha, x, y, a, exec);
}

template <class T>
void gerc(T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a, Exec& exec) {
  level2_detail::rank_one("gerc", true, alpha, x, y, a, exec);
}

template void ger<float>(float, VectorView<const float>, VectorView<const float>, MatrixView<float>,
                         Exec&);
template void ger<double>(double, VectorView<const double>, VectorView<const double>,
                          MatrixView<double>, Exec&);
template void ger<std::complex<float>>(std::complex<float>, VectorView<const std::complex<float>>,
                                       VectorView<const std::complex<float>>,
                                       MatrixView<std::complex<float>>, Exec&);
template void ger<std::complex<double>>(std::complex<double>,
                                        VectorView<const std::complex<double>>,
                                        VectorView<const std::complex<double>>,
                                        MatrixView<std::complex<double>>, Exec&);
template void gerc<std::complex<float>>(std::complex<float>, VectorView<const std::complex<float>>,
                                        VectorView<const std::complex<float>>,
                                        MatrixView<std::complex<float>>, Exec&);
template void gerc<std::complex<double>>(std::complex<double>,
                                         VectorView<const std::complex<double>>,
                                         VectorView<const std::complex<double>>,
                                         MatrixView<std::complex<double>>, Exec&);

}  // namespace teamla::linalg
