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

#include <cstdint>
#include <cstring>
#include <utility>

#include "teamla/linalg/matrix_view.hpp"
#include "teamla/team/machine.hpp"

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

// wide_pays(): whether a loop bound by its multiply-adds over `bytes` of A, whose columns start
// at a (ld lda), takes the kernel file's widest vectors (Tag::kWideBytes): where A fits the
// core's second-level cache (read at run time) and its columns start on that width. Streamed
// from further out the wide loads measured slower than the usual width, and on columns aligned
// only to malloc's 16 bytes the wide loads that straddle lines, or the rows taken one by one
// before them, cost more than the narrower vectors (docs/perf/level2.md).
template <int WideBytes, class R>
bool wide_pays(double bytes, const R* a, index_t lda) {
  const auto address = reinterpret_cast<std::uintptr_t>(a);
  const auto column_bytes = static_cast<std::uintptr_t>(lda) * sizeof(R);
  return address % WideBytes == 0 && column_bytes % WideBytes == 0 &&
         bytes <= static_cast<double>(team::cpu_info().caches.l2);
}

// rows_to_align(): how many of the m leading elements at p to take one by one so that the rest
// start on a boundary of Bytes (0 when p is not a multiple of an element). Callers' arrays are
// often aligned to 16 bytes only (malloc's), and a load that straddles a cache line costs two.
template <int Bytes, class R>
index_t rows_to_align(const R* p, index_t m) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (address % sizeof(R) != 0) return 0;
  const auto head = static_cast<index_t>((Bytes - address % Bytes) % Bytes / sizeof(R));
  return head < m ? head : m;
}

// add_sums8(): out[c] += the sum of s[c]'s lanes, for eight vectors of sums (eight dot products
// in flight): folded together pairwise (Lanes::fold()), not summed lane by lane.
inline constexpr int kSums8 = 8;
template <class L, class R>
[[gnu::always_inline]] inline void add_sums8(const typename L::V (&s)[kSums8], R* out) {
  using V = typename L::V;
  R tot[kSums8];
  V p[4];
  for (int k = 0; k < 4; ++k) p[k] = L::template fold<1>(s[2 * k], s[2 * k + 1]);
  if constexpr (L::kL == 2) {
    std::memcpy(tot, p, sizeof(tot));
  } else {
    const V q[2] = {L::template fold<2>(p[0], p[1]), L::template fold<2>(p[2], p[3])};
    if constexpr (L::kL == 4) {
      std::memcpy(tot, q, sizeof(tot));
    } else {
      V r = L::template fold<4>(q[0], q[1]);
      if constexpr (L::kL == 16) r = L::template fold<8>(r, r);
      std::memcpy(tot, &r, sizeof(tot));
    }
  }
  for (int c = 0; c < kSums8; ++c) out[c] += tot[c];
}

}  // namespace teamla::linalg::detail::level2_body
