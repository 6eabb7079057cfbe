// SPDX-License-Identifier: Apache-2.0
// level2_test_util.hpp: what the level-2 tests share: strided vectors whose gaps hold a
// sentinel, random fills, the long-double view of every scalar type, and the error check.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "linalg/chol_test_util.hpp"
#include "teamla/linalg/blas2.hpp"

namespace teamla::test {

using linalg::is_complex_v;
using linalg::real_t;
using linalg::VectorView;

// Wide: every scalar type's oracle arithmetic (a real T has a zero imaginary part).
using Wide = std::complex<long double>;

template <class T>
Wide wide(T v) {
  if constexpr (is_complex_v<T>) {
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  } else {
    return {static_cast<long double>(v), 0.0L};
  }
}

template <class T>
T narrow(Wide w) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    return T(static_cast<R>(w.real()), static_cast<R>(w.imag()));
  } else {
    return static_cast<T>(w.real());
  }
}

// random_value(): real and imaginary parts uniform in [-1, 1].
template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    const R re = static_cast<R>(u(rng));
    return T(re, static_cast<R>(u(rng)));
  } else {
    return static_cast<T>(u(rng));
  }
}

template <class T>
T sentinel() {
  return narrow<T>(Wide(-777.25L, 3.5L));
}

template <class T>
T nan_value() {
  const real_t<T> q = std::numeric_limits<real_t<T>>::quiet_NaN();
  if constexpr (is_complex_v<T>) {
    return T(q, q);
  } else {
    return q;
  }
}

// Strided: n elements a stride `inc` apart (negative: walked backwards, as BLAS does), with a
// margin and the gaps between elements holding a sentinel, so that a write outside the view
// shows.
template <class T>
struct Strided {
  static constexpr index_t kMargin = 5;
  index_t n = 0;
  index_t inc = 1;
  std::vector<T> storage;

  Strided(index_t size, index_t stride) : n(size), inc(stride) {
    const index_t span = size > 0 ? (size - 1) * (stride < 0 ? -stride : stride) + 1 : 0;
    storage.assign(static_cast<std::size_t>(span + 2 * kMargin), sentinel<T>());
  }
  VectorView<T> view() { return linalg::strided(storage.data() + kMargin, n, inc); }
  VectorView<const T> cview() { return view(); }
  T& operator[](index_t i) { return view()[i]; }
  void fill_random(std::mt19937_64& rng) {
    for (index_t i = 0; i < n; ++i) (*this)[i] = random_value<T>(rng);
  }
  void fill(T v) {
    for (index_t i = 0; i < n; ++i) (*this)[i] = v;
  }
  std::vector<Wide> values() {
    std::vector<Wide> w(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = wide((*this)[i]);
    return w;
  }
  // gaps_intact(): every position outside the elements still holds the sentinel.
  [[nodiscard]] bool gaps_intact() {
    std::vector<bool> element(storage.size(), false);
    const VectorView<T> v = view();
    for (index_t i = 0; i < n; ++i)
      element[static_cast<std::size_t>(&v[i] - storage.data())] = true;
    for (std::size_t p = 0; p < storage.size(); ++p) {
      if (!element[p] && !(storage[p] == sentinel<T>())) return false;
    }
    return true;
  }
};

// Padded (chol_test_util.hpp) filled with the sentinel, then its elements as `value(i, j)`.
template <class T, class Value>
Padded<T> padded_matrix(index_t rows, index_t cols, Layout layout, Value&& value) {
  Padded<T> a(rows, cols, layout, 3, sentinel<T>());
  for (index_t j = 0; j < cols; ++j) {
    for (index_t i = 0; i < rows; ++i) a.at(i, j) = value(i, j);
  }
  return a;
}

// padding_intact(): the storage outside the view's elements still holds the sentinel.
template <class T>
bool padding_intact(Padded<T>& a) {
  const index_t inner = a.layout == Layout::col_major ? a.rows : a.cols;
  for (std::size_t p = 0; p < a.storage.size(); ++p) {
    if (static_cast<index_t>(p) % a.ld >= inner && !(a.storage[p] == sentinel<T>())) return false;
  }
  return true;
}

// tolerance(): the error allowed on a result whose terms sum to `scale` in magnitude over
// `terms` products: a few rounding errors per term.
template <class T>
long double tolerance(index_t terms, long double scale) {
  using R = real_t<T>;
  const auto eps = static_cast<long double>(std::numeric_limits<R>::epsilon());
  return 8 * eps * static_cast<long double>(terms + 2) * scale +
         static_cast<long double>(std::numeric_limits<R>::min());
}

// Checker: counts the elements over their tolerance, and reports the first few.
struct Checker {
  int failures = 0;
  template <class T>
  void expect(T got, Wide want, index_t terms, long double scale, index_t i, index_t j = -1) {
    const long double err = std::abs(wide(got) - want);
    if (!(err <= tolerance<T>(terms, scale))) {
      if (++failures <= 5) {
        ADD_FAILURE() << "element (" << i << ", " << j << "): got " << wide(got) << " want " << want
                      << " error " << static_cast<double>(err);
      }
    }
  }
};

// Matrix element helpers on the oracle's side: conj(), and whether (i, j) is in `uplo`.
inline Wide cj(Wide w) { return std::conj(w); }
inline bool in_triangle(linalg::Uplo uplo, index_t i, index_t j) {
  return uplo == linalg::Uplo::lower ? i >= j : i <= j;
}

}  // namespace teamla::test
