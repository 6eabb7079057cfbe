// SPDX-License-Identifier: Apache-2.0
// matrices.hpp: the input matrices of the benches, reproducible from a seed.
//
// Column-major n x n storage (symmetric ones read the same either way). The kernels timed here
// (gemm, Cholesky without pivoting) do the same work whatever the values, so the values only
// need to be finite and, for Cholesky, positive definite.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace teamla::bench {

template <class T>
inline constexpr bool kComplex = false;
template <class R>
inline constexpr bool kComplex<std::complex<R>> = true;

// random_matrix(): rows x cols values uniform in [-1, 1) (complex: both parts), from
// mt19937_64(seed).
template <class T = double>
std::vector<T> random_matrix(long rows, long cols, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> values(static_cast<std::size_t>(rows * cols));
  for (T& v : values) {
    if constexpr (kComplex<T>) {
      const double re = uniform(engine);
      v = T(static_cast<typename T::value_type>(re),
            static_cast<typename T::value_type>(uniform(engine)));
    } else {
      v = static_cast<T>(uniform(engine));
    }
  }
  return values;
}

// conjugate(): the complex conjugate, or the value itself for a real T.
template <class T>
T conjugate(T v) {
  if constexpr (kComplex<T>) {
    return std::conj(v);
  } else {
    return v;
  }
}

// spd_matrix(): a symmetric (complex: Hermitian) n x n matrix with off-diagonal values uniform in
// [-1, 1) (complex: both parts) and n (complex: 2n) on the diagonal: strictly diagonally
// dominant (each row's off-diagonal magnitudes sum below n - 1, complex ones below 1.5 (n - 1)),
// so positive definite. O(n^2).
template <class T = double>
std::vector<T> spd_matrix(long n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(n * n));
  for (long j = 0; j < n; ++j) {
    a[static_cast<std::size_t>(j + j * n)] = static_cast<T>(kComplex<T> ? 2 * n : n);
    for (long i = j + 1; i < n; ++i) {
      T v = static_cast<T>(uniform(engine));
      if constexpr (kComplex<T>)
        v = T(v.real(), static_cast<typename T::value_type>(uniform(engine)));
      a[static_cast<std::size_t>(i + j * n)] = v;
      a[static_cast<std::size_t>(j + i * n)] = conjugate(v);
    }
  }
  return a;
}

}  // namespace teamla::bench
