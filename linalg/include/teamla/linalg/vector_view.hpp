// SPDX-License-Identifier: Apache-2.0
// vector_view.hpp: a non-owning view of a strided vector, as BLAS passes one (x, n, incx).
//
// Element i is data[i * inc]. `inc` may be negative: then `data` is the first element in
// logical order, which lies at the highest address (strided() converts the BLAS convention,
// where the pointer is the lowest address).
#pragma once

#include <complex>
#include <type_traits>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg {

// real_t<T>: the real type of a scalar (double for std::complex<double>, T for a real T).
template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_of<std::remove_const_t<T>>::type;

template <class T>
struct VectorView {
  T* data = nullptr;
  index_t size = 0;
  index_t inc = 1;

  [[nodiscard]] T& operator[](index_t i) const { return data[i * inc]; }
  // segment() is the sub-vector of n elements starting at logical element i.
  [[nodiscard]] VectorView segment(index_t i, index_t n) const { return {data + i * inc, n, inc}; }
  operator VectorView<const T>() const  // NOLINT(google-explicit-constructor)
      requires(!std::is_const_v<T>) {
    return {data, size, inc};
  }
};

// strided(): the view of BLAS's (x, n, incx): with incx < 0 the vector is walked backwards
// from x + (n - 1) * |incx|, as the reference BLAS does. incx must not be 0 (the ABI checks).
template <class T>
VectorView<T> strided(T* x, index_t n, index_t inc) {
  return {inc < 0 && n > 0 ? x + (n - 1) * -inc : x, n, inc};
}

// contiguous(): the view of n elements at x.
template <class T>
VectorView<T> contiguous(T* x, index_t n) {
  return {x, n, 1};
}

}  // namespace teamla::linalg
