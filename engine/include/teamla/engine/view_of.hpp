// SPDX-License-Identifier: Apache-2.0
// view_of.hpp: how a matrix type becomes a linalg::MatrixView without copying.
//
// ViewOf<X> is the adapter CpuEngine's methods use for every matrix argument. It is defined
// here for MatrixView itself, and in eigen.hpp for Eigen's dense types; an application can
// specialise it for its own matrix type. An adapter provides:
//   using scalar = ...;                      // double or float
//   static MatrixView<scalar> view(X&);      // writable, when X's storage is
//   static MatrixView<const scalar> view(const X&);
// Adapters are stateless and thread-safe; the view aliases the argument's storage.
#pragma once

#include <type_traits>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::engine {

template <class X>
struct ViewOf;  // no adapter: the type is not a matrix teamla knows

template <class T>
struct ViewOf<linalg::MatrixView<T>> {
  using scalar = std::remove_const_t<T>;
  static linalg::MatrixView<T> view(const linalg::MatrixView<T>& v) { return v; }
};

// scalar_of<X>: the element type of matrix type X (references and const ignored).
template <class X>
using scalar_of = typename ViewOf<std::remove_cvref_t<X>>::scalar;

// const_view_of(): a read-only view of any adapted matrix.
template <class X>
linalg::MatrixView<const scalar_of<X>> const_view_of(const X& x) {
  return ViewOf<std::remove_cvref_t<X>>::view(x);
}

// mutable_view_of(): a writable view; a read-only argument is a compile-time error.
template <class X>
linalg::MatrixView<scalar_of<X>> mutable_view_of(X& x) {
  auto v = ViewOf<std::remove_cvref_t<X>>::view(x);
  static_assert(!std::is_const_v<std::remove_pointer_t<decltype(v.data)>>,
                "teamla: an output matrix argument must be writable (not const)");
  return v;
}

}  // namespace teamla::engine
