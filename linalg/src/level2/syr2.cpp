// SPDX-License-Identifier: Apache-2.0
// syr2.cpp: the symmetric and Hermitian rank-2 updates A += alpha x y^T + alpha y x^T (syr2)
// and A += alpha x y^H + conj(alpha) y x^H (her2): checks and the reduction to a column-major
// triangle (triangle_update.hpp).
//
// Column j of the stored triangle gets u1 w1[j] + u2 w2[j]. On a column-major A: u1 = x,
// w1 = alpha y, u2 = y, w2 = alpha x (her2: w1 = alpha conj(y), w2 = conj(alpha) conj(x)). A
// row-major A is the column-major M = A^T, its other triangle: for syr2 the same update with x
// and y exchanged; for her2 M += alpha conj(y) x^T + conj(alpha) conj(x) y^T, so u1 = conj(y),
// w1 = alpha x, u2 = conj(x), w2 = conj(alpha) y.
#include <complex>

#include "level2/level2_internal.hpp"
#include "level2/triangle_update.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

template <class T>
void rank_two_triangle(const char* routine, bool herm, Uplo uplo, T alpha, VectorView<const T> x,
                       VectorView<const T> y, MatrixView<T> a, Exec& exec) {
  const index_t n = check_triangle(routine, uplo, a);
  check_order_vector(routine, "x", x, n);
  check_order_vector(routine, "y", y, n);
  exec.stats = {};
  if (n == 0 || alpha == T(0)) return;
  const bool col = a.layout == Layout::col_major;
  const bool conj_u = herm && !col;
  const bool conj_w = herm && col;
  const VectorView<const T> p = col ? x : y;
  const VectorView<const T> q = col ? y : x;
  const T alpha2 = herm ? conj_of(alpha) : alpha;
  const std::size_t np = needs_copy(p, T(1), conj_u) ? padded<T>(n) : 0;
  const std::size_t nq = needs_copy(q, T(1), conj_u) ? padded<T>(n) : 0;
  const std::size_t need = np + nq + 2 * padded<T>(n);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::triangle_update(herm, uplo, alpha, x, y, a, exec, need * sizeof(T));
    return;
  }
  T* w1 = buffer + np + nq;
  const TriangleUpdate<T> t{.a = col ? a : a.transposed(),
                            .lower = col == (uplo == Uplo::lower),
                            .herm = herm,
                            .u1 = gather(p, T(1), conj_u, buffer),
                            .w1 = gather(q, alpha, conj_w, w1),
                            .u2 = gather(q, T(1), conj_u, buffer + np),
                            .w2 = gather(p, alpha2, conj_w, w1 + padded<T>(n))};
  run_triangle_update(t, exec);
}

}  // namespace
}  // namespace level2_detail

template <class T>
void syr2(Uplo uplo, T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a,
          Exec& exec) {
  level2_detail::rank_two_triangle("syr2", false, uplo, alpha, x, y, a, exec);
}

template <class T>
void her2(Uplo uplo, T alpha, VectorView<const T> x, VectorView<const T> y, MatrixView<T> a,
          Exec& exec) {
  level2_detail::rank_two_triangle("her2", true, uplo, alpha, x, y, a, exec);
}

template void syr2<float>(Uplo, float, VectorView<const float>, VectorView<const float>,
                          MatrixView<float>, Exec&);
template void syr2<double>(Uplo, double, VectorView<const double>, VectorView<const double>,
                           MatrixView<double>, Exec&);
template void her2<std::complex<float>>(Uplo, std::complex<float>,
                                        VectorView<const std::complex<float>>,
                                        VectorView<const std::complex<float>>,
                                        MatrixView<std::complex<float>>, Exec&);
template void her2<std::complex<double>>(Uplo, std::complex<double>,
                                         VectorView<const std::complex<double>>,
                                         VectorView<const std::complex<double>>,
                                         MatrixView<std::complex<double>>, Exec&);

}  // namespace teamla::linalg
