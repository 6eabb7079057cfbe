// SPDX-License-Identifier: Apache-2.0
// rot.cpp: ?rot, the plane rotation (x_i, y_i) = (c x_i + s y_i, c y_i - s x_i) with real c, s
// (drot, srot, and zdrot, csrot on complex vectors).
//
// The reference zdrot/csrot (LAPACK 3.11) multiply c and s into complex elements as Fortran's
// mixed real * complex, which promotes c to (c, 0) and multiplies in full: c * x_i is
// (c re - 0 im, c im + 0 re). The zero products are kept, so the results match the reference's
// bit for bit: an Inf in one part makes its partner NaN, as there. The compiler may not drop
// them (0 * Inf is NaN), and the loads, not the multiplies, bound the loop.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

template <class R>
inline void rot_real(R* x, index_t sx, R* y, index_t sy, index_t n, R c, R s) {
  for (index_t i = 0; i < n; ++i) {
    const R xv = x[i * sx];
    const R yv = y[i * sy];
    x[i * sx] = c * xv + s * yv;
    y[i * sy] = c * yv - s * xv;
  }
}

// x and y as parts, their elements sx and sy reals apart.
template <class R>
inline void rot_complex(R* x, index_t sx, R* y, index_t sy, index_t n, R c, R s) {
  const R z = 0;  // the imaginary part of (c, 0) and (s, 0)
  for (index_t i = 0; i < n; ++i) {
    const R xr = x[i * sx];
    const R xi = x[i * sx + 1];
    const R yr = y[i * sy];
    const R yi = y[i * sy + 1];
    x[i * sx] = (c * xr - z * xi) + (s * yr - z * yi);
    x[i * sx + 1] = (c * xi + z * xr) + (s * yi + z * yr);
    y[i * sy] = (c * yr - z * yi) - (s * xr - z * xi);
    y[i * sy + 1] = (c * yi + z * yr) - (s * xi + z * xr);
  }
}

}  // namespace
}  // namespace level1_detail

template <class T>
void rot(VectorView<T> x, VectorView<T> y, real_t<T> c, real_t<T> s) {
  using namespace level1_detail;
  check_same_size("rot", x.size, y.size);
  if (x.size <= 0) return;
  const bool unit = x.inc == 1 && y.inc == 1;
  if constexpr (is_complex_v<T>) {
    if (unit) {
      rot_complex(reals(x.data), 2, reals(y.data), 2, x.size, c, s);
    } else {
      rot_complex(reals(x.data), 2 * x.inc, reals(y.data), 2 * y.inc, x.size, c, s);
    }
  } else if (unit) {
    rot_real(x.data, 1, y.data, 1, x.size, c, s);
  } else {
    rot_real(x.data, x.inc, y.data, y.inc, x.size, c, s);
  }
}

template void rot<float>(VectorView<float>, VectorView<float>, float, float);
template void rot<double>(VectorView<double>, VectorView<double>, double, double);
template void rot<std::complex<float>>(VectorView<std::complex<float>>,
                                       VectorView<std::complex<float>>, float, float);
template void rot<std::complex<double>>(VectorView<std::complex<double>>,
                                        VectorView<std::complex<double>>, double, double);

}  // namespace teamla::linalg
