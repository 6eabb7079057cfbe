// SPDX-License-Identifier: Apache-2.0
// scal.cpp: ?scal (x = alpha * x) and zdscal/csscal (scal_real: a complex x, a real alpha).
//
// Every element is multiplied, alpha == 0 included, as the reference does: 0 * NaN and 0 * Inf
// stay NaN rather than becoming 0. The complex product is Fortran's, on the parts (no Inf/NaN
// recovery, unlike std::complex's operator*). Only alpha == 1 returns early, and only for
// complex scal, as the reference zscal/cscal do (ZA.EQ.ONE): there the multiply would not be a
// no-op, since 0 * Inf in one part makes the other part NaN.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

// The real scaling of m parts, `step` apart; inlined, so the contiguous call vectorizes.
template <class R>
inline void scale_parts(R alpha, R* v, index_t step, index_t m) {
  for (index_t k = 0; k < m; ++k) v[k * step] *= alpha;
}

template <class R>
inline void scale_complex(R ar, R ai, R* v, index_t step, index_t n) {
  for (index_t i = 0; i < n; ++i) {
    const R xr = v[i * step];
    const R xi = v[i * step + 1];
    v[i * step] = ar * xr - ai * xi;
    v[i * step + 1] = ar * xi + ai * xr;
  }
}

}  // namespace
}  // namespace level1_detail

template <class T>
void scal(T alpha, VectorView<T> x) {
  using namespace level1_detail;
  if (x.size <= 0) return;
  if constexpr (is_complex_v<T>) {
    if (alpha == T(1)) return;
    if (x.inc == 1) {
      scale_complex(alpha.real(), alpha.imag(), reals(x.data), 2, x.size);
    } else {
      scale_complex(alpha.real(), alpha.imag(), reals(x.data), 2 * x.inc, x.size);
    }
  } else if (x.inc == 1) {
    scale_parts(alpha, x.data, 1, x.size);
  } else {
    scale_parts(alpha, x.data, x.inc, x.size);
  }
}

// Each part is multiplied by the real alpha (the reference's DCMPLX(DA*DBLE(ZX), DA*DIMAG(ZX))),
// not by the complex (alpha, 0), so an Inf part does not make its partner NaN.
template <class T>
void scal_real(real_t<T> alpha, VectorView<T> x) {
  using namespace level1_detail;
  static_assert(is_complex_v<T>, "scal_real() scales a complex vector; use scal() for a real one");
  if (x.size <= 0) return;
  if (x.inc == 1) {
    scale_parts(alpha, reals(x.data), 1, 2 * x.size);
    return;
  }
  auto* v = reals(x.data);
  for (index_t i = 0; i < x.size; ++i) {
    v[2 * i * x.inc] *= alpha;
    v[2 * i * x.inc + 1] *= alpha;
  }
}

template void scal<float>(float, VectorView<float>);
template void scal<double>(double, VectorView<double>);
template void scal<std::complex<float>>(std::complex<float>, VectorView<std::complex<float>>);
template void scal<std::complex<double>>(std::complex<double>, VectorView<std::complex<double>>);
template void scal_real<std::complex<float>>(float, VectorView<std::complex<float>>);
template void scal_real<std::complex<double>>(double, VectorView<std::complex<double>>);

}  // namespace teamla::linalg
