// SPDX-License-Identifier: Apache-2.0
// iamax.cpp: i?amax, the 0-based index of the first element of largest |x_i| (complex:
// |re| + |im|, the reference's dcabs1).
//
// The reference keeps dmax = |x_0| and takes i only when |x_i| > dmax: ties go to the first,
// a NaN never wins, and a NaN first element wins outright (nothing compares larger than it).
// The contiguous path finds the same index a block at a time: the block's magnitudes (a NaN
// as -1, below every magnitude) and their maximum are vectorizable maps, and only a block whose
// maximum beats the best so far is scanned for its first maximal element. (GCC does not
// vectorize a NaN-aware running maximum, but it does vectorize an elementwise one.)
#include <cmath>

#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

constexpr index_t kBlock = 64;

template <class T>
real_t<T> magnitude(const T& v) {
  if constexpr (is_complex_v<T>) {
    return std::abs(v.real()) + std::abs(v.imag());
  } else {
    return std::abs(v);
  }
}

// fold_max(): u[0] = max u[0, 2W), halving: each step an elementwise map, of a constant width
// (so that it vectorizes with no overlap checks).
template <index_t W, class R>
void fold_max(R* u) {
  for (index_t k = 0; k < W; ++k) u[k] = u[k + W] > u[k] ? u[k + W] : u[k];
  if constexpr (W > 1) fold_max<W / 2>(u);
}

// block_max(): t[k] = the magnitude of element k of v, for k < n <= kBlock (a NaN as -1, the
// rest of t as -1 too); returns max t.
template <class T>
real_t<T> block_max(const T* v, index_t n, real_t<T>* t) {
  using R = real_t<T>;
  const R* p = reals(v);
  for (index_t k = 0; k < n; ++k) {
    R a;
    if constexpr (parts<T> == 2) {
      a = std::abs(p[2 * k]) + std::abs(p[2 * k + 1]);
    } else {
      a = std::abs(p[k]);
    }
    t[k] = a > R(-1) ? a : R(-1);
  }
  for (index_t k = n; k < kBlock; ++k) t[k] = R(-1);
  R u[kBlock / 2];
  for (index_t k = 0; k < kBlock / 2; ++k) {
    u[k] = t[k + kBlock / 2] > t[k] ? t[k + kBlock / 2] : t[k];
  }
  fold_max<kBlock / 4>(u);
  return u[0];
}

template <class T>
index_t iamax_contiguous(const T* x, index_t n) {
  using R = real_t<T>;
  R best = magnitude(x[0]);
  if (best != best) return 0;
  index_t at = 0;
  R t[kBlock];
  for (index_t i0 = 0; i0 < n; i0 += kBlock) {
    const index_t len = n - i0 < kBlock ? n - i0 : kBlock;
    const R m = block_max(x + i0, len, t);
    if (!(m > best)) continue;
    best = m;
    index_t k = 0;
    while (t[k] != m) ++k;
    at = i0 + k;
  }
  return at;
}

}  // namespace
}  // namespace level1_detail

template <class T>
index_t iamax(VectorView<const T> x) {
  using namespace level1_detail;
  if (x.size <= 0) return -1;
  if (x.inc == 1) return iamax_contiguous(x.data, x.size);
  real_t<T> best = magnitude(x[0]);
  index_t at = 0;
  for (index_t i = 1; i < x.size; ++i) {
    const real_t<T> a = magnitude(x[i]);
    if (a > best) {
      best = a;
      at = i;
    }
  }
  return at;
}

template index_t iamax<float>(VectorView<const float>);
template index_t iamax<double>(VectorView<const double>);
template index_t iamax<std::complex<float>>(VectorView<const std::complex<float>>);
template index_t iamax<std::complex<double>>(VectorView<const std::complex<double>>);

}  // namespace teamla::linalg
