// SPDX-License-Identifier: Apache-2.0
// syr.cpp: the symmetric and Hermitian rank-1 updates A += alpha x x^T (syr) and
// A += alpha x x^H (her, alpha real): checks and the reduction to a column-major triangle
// (triangle_update.hpp).
//
// Column j of the stored triangle gets u * w[j]: u = x and w = alpha x (syr), w = alpha conj(x)
// (her). A row-major A is the column-major M = A^T, its other triangle: for syr the same
// update; for her M += alpha conj(x) x^T, so u = conj(x) and w = alpha x.
#include <complex>

#include "level2/level2_internal.hpp"
#include "level2/triangle_update.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

template <class T>
void rank_one_triangle(const char* routine, bool herm, Uplo uplo, T alpha, VectorView<const T> x,
                       MatrixView<T> a, Exec& exec) {
  const index_t n = check_triangle(routine, uplo, a);
  check_order_vector(routine, "x", x, n);
  exec.stats = {};
  if (n == 0 || alpha == T(0)) return;
  const bool col = a.layout == Layout::col_major;
  const bool conj_u = herm && !col;
  const bool conj_w = herm && col;
  const std::size_t nu = needs_copy(x, T(1), conj_u) ? padded<T>(n) : 0;
  const std::size_t need = nu + padded<T>(n);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::triangle_update(herm, uplo, alpha, x, {}, a, exec, need * sizeof(T));
    return;
  }
  const TriangleUpdate<T> t{.a = col ? a : a.transposed(),
                            .lower = col == (uplo == Uplo::lower),
                            .herm = herm,
                            .u1 = gather(x, T(1), conj_u, buffer),
                            .w1 = gather(x, alpha, conj_w, buffer + nu),
                            .u2 = nullptr,
                            .w2 = nullptr};
  run_triangle_update(t, exec);
}

}  // namespace
}  // namespace level2_detail

template <class T>
void syr(Uplo uplo, T alpha, VectorView<const T> x, MatrixView<T> a, Exec& exec) {
  level2_detail::rank_one_triangle("syr", false, uplo, alpha, x, a, exec);
}

template <class T>
void her(Uplo uplo, real_t<T> alpha, VectorView<const T> x, MatrixView<T> a, Exec& exec) {
  level2_detail::rank_one_triangle("her", true, uplo, T(alpha), x, a, exec);
}

template void syr<float>(Uplo, float, VectorView<const float>, MatrixView<float>, Exec&);
template void syr<double>(Uplo, double, VectorView<const double>, MatrixView<double>, Exec&);
template void her<std::complex<float>>(Uplo, float, VectorView<const std::complex<float>>,
                                       MatrixView<std::complex<float>>, Exec&);
template void her<std::complex<double>>(Uplo, double, VectorView<const std::complex<double>>,
                                        MatrixView<std::complex<double>>, Exec&);

}  // namespace teamla::linalg
