// SPDX-License-Identifier: Apache-2.0
// level2_scalar.hpp (internal): the scalar arithmetic of the level-2 kernels, and their view of
// a complex array as interleaved reals.
//
// Complex products are written out: without -ffast-math, std::complex's operator* calls
// __muldc3 (its Inf/NaN recovery), several times the cost of the four multiplies, and the
// reference BLAS (Fortran rules) does not recover either. Every function takes the kernel
// file's Tag (a type private to that file) so that each ISA's copy stays its own: an inline
// function shared by files of different ISA flags could be linked from the widest one.
#pragma once

#include <complex>

#include "teamla/linalg/vector_view.hpp"

namespace teamla::linalg::detail::level2_body {

// mul(): conj(a) * b where conj_a, else a * b.
template <class Tag, class T>
[[gnu::always_inline]] inline T mul(T a, T b, bool conj_a) {
  if constexpr (is_complex_v<T>) {
    const auto ar = a.real();
    const auto ai = conj_a ? -a.imag() : a.imag();
    return T(ar * b.real() - ai * b.imag(), ar * b.imag() + ai * b.real());
  } else {
    return a * b;
  }
}

// conj_if(): conj(a) where `conj` (a itself for a real T).
template <class Tag, class T>
[[gnu::always_inline]] inline T conj_if(T a, bool conj) {
  if constexpr (is_complex_v<T>) {
    return conj ? T(a.real(), -a.imag()) : a;
  } else {
    return a;
  }
}

// reals(): a complex array as its interleaved real and imaginary parts (std::complex is
// array-compatible with R[2]); a real array as itself.
template <class T>
[[gnu::always_inline]] inline const real_t<T>* reals(const T* p) {
  return reinterpret_cast<const real_t<T>*>(p);
}
template <class T>
[[gnu::always_inline]] inline real_t<T>* reals(T* p) {
  return reinterpret_cast<real_t<T>*>(p);
}

}  // namespace teamla::linalg::detail::level2_body
