// SPDX-License-Identifier: Apache-2.0
// nrm2.cpp: ?nrm2 and ?znrm2/scnrm2, as the reference computes them since LAPACK 3.10
// (dnrm2.f90, after Blue, "A portable Fortran program to find the Euclidean norm of a
// vector", 1978, and Anderson, "Algorithm 978: Safe scaling in the Level 1 BLAS", 2017).
//
// Every real part |v| falls in one of three ranges: above tbig its square could overflow, so
// it is summed scaled down by sbig; below tsml its square could underflow, so it is summed
// scaled up by ssml; in between it is summed as is. The sums are combined at the end. A
// complex vector is its 2n real parts, in order (re, im of each element).
//
// The contiguous path first sums the squares plainly in kLanes accumulators (vectorized); when
// that sum shows nothing overflowed or lost precision to underflow (plain_is_safe(), the
// common case), it is the result; otherwise the vector is summed again with Blue's sums, in
// the reference's order. Strided vectors take Blue's sums at once.
#include <cmath>
#include <limits>

#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {
namespace level1_detail {
namespace {

constexpr double pow2(int e) {
  double r = 1;
  for (; e > 0; --e) r *= 2;
  for (; e < 0; ++e) r /= 2;
  return r;
}

// la_constants.f90's thresholds and scales, from the same model numbers as Fortran's
// (radix 2, digits, minexponent and maxexponent equal C++'s numeric_limits). Integer floor
// and ceiling of half an odd negative number differ from C++'s truncation, hence the helpers.
constexpr int floor_half(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
constexpr int ceil_half(int v) { return v >= 0 ? (v + 1) / 2 : -(-v / 2); }

template <class R>
struct Blue {
  using L = std::numeric_limits<R>;
  static constexpr R tsml = static_cast<R>(pow2(ceil_half(L::min_exponent - 1)));
  static constexpr R tbig = static_cast<R>(pow2(floor_half(L::max_exponent - L::digits + 1)));
  static constexpr R ssml = static_cast<R>(pow2(-floor_half(L::min_exponent - L::digits)));
  static constexpr R sbig = static_cast<R>(pow2(-ceil_half(L::max_exponent + L::digits - 1)));

  R abig = 0;
  R amed = 0;
  R asml = 0;
  bool notbig = true;

  void add(R v) {
    const R ax = std::abs(v);
    if (ax > tbig) {
      const R t = ax * sbig;
      abig += t * t;
      notbig = false;
    } else if (ax < tsml) {
      // Once a big value is seen the small ones cannot matter.
      if (notbig) {
        const R t = ax * ssml;
        asml += t * t;
      }
    } else {
      amed += ax * ax;
    }
  }

  // result(): the reference's combination; a NaN (always summed into amed) propagates.
  [[nodiscard]] R result() const {
    const bool med = amed > 0 || amed != amed;
    if (abig > 0) {
      const R big = med ? abig + (amed * sbig) * sbig : abig;
      return std::sqrt(big) / sbig;
    }
    if (asml > 0) {
      if (!med) return std::sqrt(asml) / ssml;
      const R m = std::sqrt(amed);
      const R s = std::sqrt(asml) / ssml;
      const R ymin = s > m ? m : s;
      const R ymax = s > m ? s : m;
      const R r = ymin / ymax;
      return std::sqrt(ymax * ymax * (R(1) + r * r));
    }
    return std::sqrt(amed);
  }
};
static_assert(Blue<double>::tsml == pow2(-511) && Blue<double>::tbig == pow2(486));
static_assert(Blue<double>::ssml == pow2(537) && Blue<double>::sbig == pow2(-538));
static_assert(Blue<float>::tsml == static_cast<float>(pow2(-63)));
static_assert(Blue<float>::sbig == static_cast<float>(pow2(-76)));

// plain_sumsq(): sum v_k^2 over v[0, m), in kLanes accumulators.
template <class R>
R plain_sumsq(const R* v, index_t m) {
  constexpr index_t L = kLanes<R>;
  R s[L] = {};
  index_t i = 0;
  for (; i + L <= m; i += L) {
    for (index_t j = 0; j < L; ++j) s[j] += v[i + j] * v[i + j];
  }
  for (index_t j = 0; i + j < m; ++j) s[j] += v[i + j] * v[i + j];
  return sum_lanes(s);
}

// plain_is_safe(): whether the plain sum s of m squares is as accurate as Blue's sums. Checked
// on s itself, since GCC does not vectorize per-element range tests. s <= tbig^2 means no
// square exceeded tbig^2, so nothing overflowed (an Inf or a NaN fails the test). Squares of
// parts below tsml are the only ones that can underflow (tsml^2 is the smallest normal), each
// off by at most half the smallest subnormal (tsml^2 * eps / 2), so by m * tsml^2 * eps / 2 in
// all: within an ulp of s when s >= m * tsml^2. Tinier norms and huge parts take Blue's sums.
template <class R>
bool plain_is_safe(R s, index_t m) {
  constexpr R tsml = Blue<R>::tsml;
  constexpr R tbig = Blue<R>::tbig;
  return s <= tbig * tbig && s >= static_cast<R>(m) * (tsml * tsml);
}

}  // namespace
}  // namespace level1_detail

template <class T>
real_t<T> nrm2(VectorView<const T> x) {
  using namespace level1_detail;
  using R = real_t<T>;
  if (x.size <= 0) return 0;
  const R* v = reals(x.data);
  Blue<R> sums;
  if (x.inc == 1) {
    const index_t m = parts<T> * x.size;
    const R plain = plain_sumsq(v, m);
    if (plain_is_safe(plain, m)) return std::sqrt(plain);
    for (index_t k = 0; k < m; ++k) sums.add(v[k]);
    return sums.result();
  }
  const index_t step = parts<T> * x.inc;
  for (index_t i = 0; i < x.size; ++i) {
    sums.add(v[i * step]);
    if constexpr (parts<T> == 2) sums.add(v[i * step + 1]);
  }
  return sums.result();
}

template float nrm2<float>(VectorView<const float>);
template double nrm2<double>(VectorView<const double>);
template float nrm2<std::complex<float>>(VectorView<const std::complex<float>>);
template double nrm2<std::complex<double>>(VectorView<const std::complex<double>>);

}  // namespace teamla::linalg
