// SPDX-License-Identifier: Apache-2.0
// eigen.hpp: CpuEngine on Eigen matrices, without copies. Header-only; include it only where
// Eigen is available (teamla itself never needs Eigen).
//
//   Eigen::MatrixXd a = ..., b = ...;               // or Map, Ref, Block; row- or col-major
//   engine.solve_spd(a, b);                          // works in place on a's and b's storage
//   engine.gemm(Op::none, Op::none, 1.0, a, b, 0.0, c.block(0, 0, m, n));
//
// Any Eigen dense expression with direct access (Matrix, Map, Ref, Block of those) of double
// or float (or std::complex of either) adapts, in either storage order: the view aliases
// its storage (data(), outerStride(), IsRowMajor). Read-only expressions (Map<const ...>, Ref<const
// ...>, const objects) are accepted as inputs and rejected at compile time as outputs. A non-unit
// inner stride (e.g. Map with InnerStride<2>) throws linalg::InvalidArgument: teamla's views have
// unit inner stride. Products, sums and other lazy expressions do not adapt (no direct
// access): evaluate them first.
#pragma once

#include <Eigen/Core>
#include <string>
#include <type_traits>

#include "teamla/engine/cpu_engine.hpp"
#include "teamla/engine/view_of.hpp"

namespace teamla::engine {

// EigenDirect: an Eigen dense type with direct access to double, float or complex storage.
template <class X>
concept EigenDirect = std::is_base_of_v<Eigen::DenseBase<X>, X> &&
                          (static_cast<unsigned>(X::Flags) & Eigen::DirectAccessBit) != 0 &&
                      (std::is_same_v<typename X::Scalar, double> ||
                       std::is_same_v<typename X::Scalar, float> ||
                       linalg::is_complex_v<typename X::Scalar>);

template <class X>
requires EigenDirect<X>
struct ViewOf<X> {
  using scalar = typename X::Scalar;

  // view(): the pointer's constness follows Eigen's: writable only when the expression is.
  template <class Y>
  static auto view(Y& x) {
    using Element = std::remove_pointer_t<decltype(x.data())>;
    if (x.innerStride() != 1) {
      throw linalg::InvalidArgument("CpuEngine", "matrix",
                                    "an Eigen matrix with inner stride " +
                                        std::to_string(x.innerStride()) +
                                        " has no teamla view (the inner stride must be 1)");
    }
    const index_t ld = x.outerStride() > 0 ? x.outerStride() : 1;
    return linalg::MatrixView<Element>{x.data(), x.rows(), x.cols(), ld,
                                       X::IsRowMajor ? Layout::row_major : Layout::col_major};
  }
};

// as_view(): the teamla view of an Eigen matrix, for calling linalg directly.
template <class X>
requires EigenDirect<std::remove_cvref_t<X>>
auto as_view(X&& x) { return ViewOf<std::remove_cvref_t<X>>::view(x); }

}  // namespace teamla::engine
