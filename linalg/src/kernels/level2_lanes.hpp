// SPDX-License-Identifier: Apache-2.0
// level2_lanes.hpp (internal): the vector of the complex level-2 loops: GCC's vector extension
// at the kernel file's width (its Tag's kVecBytes), as kernels/chol_leaf.hpp uses it.
//
// The complex loops walk their interleaved reals a vector at a time without splitting them into
// real and imaginary parts: a product of two complex vectors is one multiply by the other's
// pairs as they are and one by its pairs swapped, and the parts are sorted out once per column
// (gemv_t) or once per vector of y (gemv_n). Written as plain loops instead, the compiler splits
// every load of A into parts, a permute per vector that costs more than the multiply-adds.
#pragma once

#include <cstring>
#include <utility>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail::level2_body {

template <class Tag, class R, int Bytes = Tag::kVecBytes>
struct Lanes {
  static constexpr int kL = Bytes / static_cast<int>(sizeof(R));  // reals per vector
  typedef R V __attribute__((vector_size(Bytes)));
  static constexpr auto kLanes = std::make_integer_sequence<int, kL>{};

  [[gnu::always_inline]] static V load(const R* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
  }
  [[gnu::always_inline]] static void store(R* p, const V& v) { std::memcpy(p, &v, sizeof(V)); }
  [[gnu::always_inline]] static V splat(R x) { return V{} + x; }
  // shuffle(): lane l taken from lane index(l) of a's lanes followed by b's, index(l) a constant
  // (__builtin_shufflevector: GCC 12 and Clang).
  template <class Index, int... l>
  [[gnu::always_inline]] static V shuffle(const V& a, const V& b, Index,
                                          std::integer_sequence<int, l...>) {
    return __builtin_shufflevector(a, b, Index{}(l)...);
  }
  // alternate(): (even, odd, even, odd, ...).
  [[gnu::always_inline]] static V alternate(R even, R odd) {
    V v;
    for (int l = 0; l < kL; ++l) v[l] = (l & 1) != 0 ? odd : even;
    return v;
  }
  // swap_pairs(): (re, im) pairs exchanged: (v1, v0, v3, v2, ...).
  [[gnu::always_inline]] static V swap_pairs(const V& v) {
    return shuffle(
        v, v, [](int l) { return l ^ 1; }, kLanes);
  }
  // even_even(): (a0, b0, a2, b2, ...), the even lanes of a and b in turn; odd_odd():
  // (b1, a1, b3, a3, ...), their odd lanes, b's first. In shuffle()'s indices, b's lanes
  // follow a's.
  [[gnu::always_inline]] static V even_even(const V& a, const V& b) {
    return shuffle(
        a, b, [](int l) { return (l & 1) != 0 ? kL + l - 1 : l; }, kLanes);
  }
  [[gnu::always_inline]] static V odd_odd(const V& a, const V& b) {
    return shuffle(
        a, b, [](int l) { return (l & 1) != 0 ? l : kL + l + 1; }, kLanes);
  }
  // sum_even() / sum_odd(): the sums of the even and of the odd lanes.
  [[gnu::always_inline]] static R sum_even(const V& v) {
    R s = 0;
    for (int l = 0; l < kL; l += 2) s += v[l];
    return s;
  }
  [[gnu::always_inline]] static R sum_odd(const V& v) {
    R s = 0;
    for (int l = 1; l < kL; l += 2) s += v[l];
    return s;
  }
  // fold<W>(): a and b cut into groups of W lanes, each pair of neighbouring groups summed, a's
  // sums and b's in turn: lane l of the result, in the block of 2W lanes at base, is
  // a[base + l % W] + a[base + W + l % W] for l % 2W < W, b's for the others. Folding eight
  // vectors of sums with W = 1, 2, 4, ... leaves their eight totals in order, without summing
  // each vector's lanes one by one.
  template <int W, int Part>
  struct FoldIndex {
    constexpr int operator()(int l) const {
      const int pos = l % (2 * W);
      return (pos < W ? 0 : kL) + l / (2 * W) * (2 * W) + pos % W + Part * W;
    }
  };
  template <int W>
  [[gnu::always_inline]] static V fold(const V& a, const V& b) {
    return shuffle(a, b, FoldIndex<W, 0>{}, kLanes) + shuffle(a, b, FoldIndex<W, 1>{}, kLanes);
  }
};

}  // namespace teamla::linalg::detail::level2_body
