// SPDX-License-Identifier: Apache-2.0
// level2_symv_real.hpp (internal): symv's pass over a real stored triangle (level2_symv.hpp),
// eight columns a pass, as explicit vectors of the kernel file's widest width (Tag::kWideBytes).
//
// symv runs from cache in LAPACK's loops (dsytrd), where it is bound by its multiply-adds, two per
// stored element, not by memory: the widest vectors halve them against the 256-bit form the other
// level-2 loops keep, where they pay (level2_lanes.hpp, wide_pays(): A in the core's second-level
// cache and aligned to them); elsewhere the kernel file's usual width serves. Each pass pays a
// fixed cost besides its rows (the 8 x 8 diagonal block and the eight dot products' sums), which
// dominates a small matrix: the block is unrolled on locals, so that y's entries stay in registers
// instead of going through memory for every element, and the sums are folded together
// (Lanes::fold()).
#pragma once

#include "kernels/level2_lanes.hpp"
#include "kernels/level2_scalar.hpp"

namespace teamla::linalg::detail::level2_body {

inline constexpr int kSymvCols = kSums8;

// symv_rect(): rows [r0, r1) of the eight columns at a (ld lda), xj their entries of x and
// yj of y: y[i] += sum_c A(i, c) xj[c], and yj[c] += sum_i A(i, c) x[i]. y's vector is loaded
// and stored once per eight columns, each of x's serves eight dot products, and the eight sums
// in flight keep the additions' latency off the loop; the column update is split over two
// chains for the same reason. The vectors start where A's first column is aligned.
template <class Tag, class R, int Bytes>
void symv_rect(index_t r0, index_t r1, const R* a, index_t lda, const R* xj, const R* x,
               R* __restrict y, R* yj) {
  using L = Lanes<Tag, R, Bytes>;
  using V = typename L::V;
  const R* col[kSymvCols];
  V xs[kSymvCols];
  V s[kSymvCols] = {};
  for (int c = 0; c < kSymvCols; ++c) {
    col[c] = a + c * lda;
    xs[c] = L::splat(xj[c]);
  }
  // one_row(): row i element by element, for the rows around the aligned vectors.
  const auto one_row = [&](index_t i) {
    R t = y[i];
    for (int c = 0; c < kSymvCols; ++c) {
      t += col[c][i] * xj[c];
      yj[c] += col[c][i] * x[i];
    }
    y[i] = t;
  };
  index_t i = r0;
  for (const index_t head = r0 + rows_to_align<Bytes>(col[0] + r0, r1 - r0); i < head; ++i) {
    one_row(i);
  }
  for (; i + L::kL <= r1; i += L::kL) {
    const V xv = L::load(x + i);
    V t = L::load(y + i);
    V u = V{};
#pragma GCC unroll 8
    for (int c = 0; c < kSymvCols; c += 2) {
      const V a0 = L::load(col[c] + i);
      const V a1 = L::load(col[c + 1] + i);
      t += a0 * xs[c];
      u += a1 * xs[c + 1];
      s[c] += a0 * xv;
      s[c + 1] += a1 * xv;
    }
    L::store(y + i, t + u);
  }
  add_sums8<L, R>(s, yj);
  for (; i < r1; ++i) one_row(i);
}

// symv_block_real(): the 8 x 8 diagonal block at a (its stored triangle), x and y its entries.
template <class Tag, class R, bool Lower>
void symv_block_real(const R* a, index_t lda, const R* x, R* y) {
  R xl[kSymvCols], yl[kSymvCols];
  for (int c = 0; c < kSymvCols; ++c) {
    xl[c] = x[c];
    yl[c] = y[c];
  }
#pragma GCC unroll 8
  for (int c = 0; c < kSymvCols; ++c) {
    const R* ac = a + c * lda;
    R dot = ac[c] * xl[c];
#pragma GCC unroll 8
    for (int r = Lower ? c + 1 : 0; r < (Lower ? kSymvCols : c); ++r) {
      yl[r] += ac[r] * xl[c];
      dot += ac[r] * xl[r];
    }
    yl[c] += dot;
  }
  for (int c = 0; c < kSymvCols; ++c) y[c] = yl[c];
}

// symv_cols_real(): symv_cols() (level2_kernels.hpp) for a real T over the columns [c0, c1),
// eight at a time; returns the first column not done (fewer than eight left), for the caller's
// element-by-element loop.
template <class Tag, class R, bool Lower>
index_t symv_cols_real(index_t n, index_t c0, index_t c1, const R* a, index_t lda, const R* x,
                       R* y) {
  // The bytes of this slice's columns, the part of A that this core reads again on each call.
  const double sum_j = (static_cast<double>(c0) + static_cast<double>(c1) - 1) / 2 *
                       static_cast<double>(c1 - c0);  // c0 + ... + (c1 - 1)
  const double elements = Lower ? static_cast<double>(n) * static_cast<double>(c1 - c0) - sum_j
                                : sum_j + static_cast<double>(c1 - c0);
  const double bytes = elements * sizeof(R);
  const auto rect = wide_pays<Tag::kWideBytes>(bytes, a, lda) ? symv_rect<Tag, R, Tag::kWideBytes>
                                                              : symv_rect<Tag, R, Tag::kVecBytes>;
  index_t j = c0;
  for (; j + kSymvCols <= c1; j += kSymvCols) {
    const R* aj = a + j * lda;
    symv_block_real<Tag, R, Lower>(aj + j, lda, x + j, y + j);
    const index_t r0 = Lower ? j + kSymvCols : 0;
    const index_t r1 = Lower ? n : j;
    if (r0 < r1) rect(r0, r1, aj, lda, x + j, x, y, y + j);
  }
  return j;
}

}  // namespace teamla::linalg::detail::level2_body
