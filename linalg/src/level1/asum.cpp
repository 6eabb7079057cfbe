// SPDX-License-Identifier: Apache-2.0
// asum.cpp: ?asum, and ?zasum/scasum: the sum of |re| + |im| (the reference's dcabs1, not the
// modulus).
//
// A contiguous vector, complex ones as their 2n parts, is summed in kLanes accumulators; a
// strided one in order, as the reference's strided loop.
#include <cmath>

#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

template <class R>
R asum_contiguous(const R* v, index_t m) {
  constexpr index_t L = kLanes<R>;
  R s[L] = {};
  index_t i = 0;
  for (; i + L <= m; i += L) {
    for (index_t j = 0; j < L; ++j) s[j] += std::abs(v[i + j]);
  }
  for (index_t j = 0; i + j < m; ++j) s[j] += std::abs(v[i + j]);
  return sum_lanes(s);
}

}  // namespace
}  // namespace level1_detail

template <class T>
real_t<T> asum(VectorView<const T> x) {
  using namespace level1_detail;
  using R = real_t<T>;
  if (x.size <= 0) return 0;
  const R* v = reals(x.data);
  if (x.inc == 1) return asum_contiguous(v, parts<T> * x.size);
  const index_t step = parts<T> * x.inc;
  R s = 0;
  for (index_t i = 0; i < x.size; ++i) {
    if constexpr (parts<T> == 2) {
      s += std::abs(v[i * step]) + std::abs(v[i * step + 1]);
    } else {
      s += std::abs(v[i * step]);
    }
  }
  return s;
}

template float asum<float>(VectorView<const float>);
template double asum<double>(VectorView<const double>);
template float asum<std::complex<float>>(VectorView<const std::complex<float>>);
template double asum<std::complex<double>>(VectorView<const std::complex<double>>);

}  // namespace teamla::linalg
