// SPDX-License-Identifier: Apache-2.0
// dot.cpp: ?dot, ?dotu and ?dotc.
//
// A contiguous pair is summed in kLanes independent accumulators (so that it vectorizes
// without reassociation flags); a strided pair is summed in order, one element after another,
// as the reference's strided loop does.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

template <class R>
R dot_contiguous(const R* x, const R* y, index_t n) {
  constexpr index_t L = kLanes<R>;
  R s[L] = {};
  index_t i = 0;
  for (; i + L <= n; i += L) {
    for (index_t j = 0; j < L; ++j) s[j] += x[i + j] * y[i + j];
  }
  for (index_t j = 0; i + j < n; ++j) s[j] += x[i + j] * y[i + j];
  return sum_lanes(s);
}

// Over the 2n interleaved parts: p[k] += x[k] * y[k] sums re*re (even k) and im*im (odd k);
// q[k] += x[k] * y[k ^ 1] sums re x * im y (even k) and im x * re y (odd k). L is even, so a
// lane always holds the same kind of product.
template <class R>
std::complex<R> dot_complex_contiguous(const R* x, const R* y, index_t n2, bool conj_x) {
  constexpr index_t L = kLanes<R>;
  R p[L] = {};
  R q[L] = {};
  index_t i = 0;
  for (; i + L <= n2; i += L) {
    for (index_t j = 0; j < L; ++j) {
      p[j] += x[i + j] * y[i + j];
      q[j] += x[i + j] * y[i + (j ^ 1)];
    }
  }
  for (index_t j = 0; i + j < n2; ++j) {
    p[j] += x[i + j] * y[i + j];
    q[j] += x[i + j] * y[i + (j ^ 1)];
  }
  R pe[L / 2], po[L / 2], qe[L / 2], qo[L / 2];
  for (index_t j = 0; j < L / 2; ++j) {
    pe[j] = p[2 * j];
    po[j] = p[2 * j + 1];
    qe[j] = q[2 * j];
    qo[j] = q[2 * j + 1];
  }
  const R rr = sum_lanes(pe), ii = sum_lanes(po), ri = sum_lanes(qe), ir = sum_lanes(qo);
  return conj_x ? std::complex<R>(rr + ii, ri - ir) : std::complex<R>(rr - ii, ri + ir);
}

// The reference's loop: each product formed on its parts (Fortran's complex multiply, no
// Inf/NaN recovery), then added.
template <class R>
std::complex<R> dot_complex_strided(VectorView<const std::complex<R>> x,
                                    VectorView<const std::complex<R>> y, bool conj_x) {
  R re = 0;
  R im = 0;
  for (index_t i = 0; i < x.size; ++i) {
    const R xr = x[i].real();
    const R xi = conj_x ? -x[i].imag() : x[i].imag();
    const R yr = y[i].real();
    const R yi = y[i].imag();
    re += xr * yr - xi * yi;
    im += xr * yi + xi * yr;
  }
  return {re, im};
}

}  // namespace
}  // namespace level1_detail

template <class T>
T dot(VectorView<const T> x, VectorView<const T> y, bool conj_x) {
  using namespace level1_detail;
  check_same_size("dot", x.size, y.size);
  if (x.size <= 0) return T(0);
  if constexpr (is_complex_v<T>) {
    if (x.inc == 1 && y.inc == 1) {
      return dot_complex_contiguous(reals(x.data), reals(y.data), 2 * x.size, conj_x);
    }
    return dot_complex_strided(x, y, conj_x);
  } else {
    if (x.inc == 1 && y.inc == 1) return dot_contiguous(x.data, y.data, x.size);
    T s = 0;
    for (index_t i = 0; i < x.size; ++i) s += x[i] * y[i];
    return s;
  }
}

template float dot<float>(VectorView<const float>, VectorView<const float>, bool);
template double dot<double>(VectorView<const double>, VectorView<const double>, bool);
template std::complex<float> dot<std::complex<float>>(VectorView<const std::complex<float>>,
                                                      VectorView<const std::complex<float>>, bool);
template std::complex<double> dot<std::complex<double>>(VectorView<const std::complex<double>>,
                                                        VectorView<const std::complex<double>>,
                                                        bool);

}  // namespace teamla::linalg
