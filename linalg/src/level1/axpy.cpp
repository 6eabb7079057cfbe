// SPDX-License-Identifier: Apache-2.0
// axpy.cpp: ?axpy, y += alpha * x.
//
// The complex product is formed on the parts (Fortran's complex multiply, which the reference
// uses: no Inf/NaN recovery, unlike std::complex's operator*), then added, as ZY + ZA*ZX.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

// The complex update on the parts, x's and y's elements sx and sy reals apart. Inlined, so the
// contiguous call (2, 2) compiles to its own vectorized loop.
template <class R>
inline void axpy_parts(R ar, R ai, const R* x, index_t sx, R* y, index_t sy, index_t n) {
  for (index_t i = 0; i < n; ++i) {
    const R xr = x[i * sx];
    const R xi = x[i * sx + 1];
    y[i * sy] += ar * xr - ai * xi;
    y[i * sy + 1] += ar * xi + ai * xr;
  }
}

}  // namespace
}  // namespace level1_detail

template <class T>
void axpy(T alpha, VectorView<const T> x, VectorView<T> y) {
  using namespace level1_detail;
  check_same_size("axpy", x.size, y.size);
  // The reference returns before reading x when alpha is 0 (dcabs1(za) == 0 for complex), so
  // an Inf or NaN in x does not reach y.
  if (x.size <= 0 || alpha == T(0)) return;
  const index_t n = x.size;
  if constexpr (is_complex_v<T>) {
    const auto ar = alpha.real();
    const auto ai = alpha.imag();
    if (x.inc == 1 && y.inc == 1) {
      axpy_parts(ar, ai, reals(x.data), 2, reals(y.data), 2, n);
    } else {
      axpy_parts(ar, ai, reals(x.data), 2 * x.inc, reals(y.data), 2 * y.inc, n);
    }
  } else if (x.inc == 1 && y.inc == 1) {
    for (index_t i = 0; i < n; ++i) y.data[i] += alpha * x.data[i];
  } else {
    for (index_t i = 0; i < n; ++i) y[i] += alpha * x[i];
  }
}

template void axpy<float>(float, VectorView<const float>, VectorView<float>);
template void axpy<double>(double, VectorView<const double>, VectorView<double>);
template void axpy<std::complex<float>>(std::complex<float>, VectorView<const std::complex<float>>,
                                        VectorView<std::complex<float>>);
template void axpy<std::complex<double>>(std::complex<double>,
                                         VectorView<const std::complex<double>>,
                                         VectorView<std::complex<double>>);

}  // namespace teamla::linalg
