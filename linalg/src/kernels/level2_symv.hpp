// SPDX-License-Identifier: Apache-2.0
// level2_symv.hpp (internal): symv's and hemv's pass over the stored triangle, reading A once
// (level2_body.hpp).
//
// Each element A(i, j) off the diagonal stands for two of the full matrix: it adds A(i, j) x[j]
// to y[i] (the column's update) and A(j, i) x[i] to y[j] (the mirrored row's dot product),
// where A(j, i) is A(i, j), or conj(A(i, j)) for a Hermitian matrix. Columns go several at a
// time, so that one sweep of their rows outside the diagonal block does both: a real matrix's
// eight (level2_symv_real.hpp), a complex one's two, its diagonal block element by element. `conj`
// conjugates every read of A (a row-major Hermitian A seen column-major), which swaps which of the
// two uses conjugates.
#pragma once

#include "kernels/level2_scalar.hpp"
#include "kernels/level2_symv_real.hpp"

namespace teamla::linalg::detail::level2_body {

// symv_rect_complex(): rows [r0, r1) of two complex columns (interleaved reals), x2 their
// entries of x: y[i] += A(i, c) x2[c], and dots[c] = sum_i A(i, c) x[i]; the column's
// update reads conj(A) where ConjCol, the dot product where ConjDot (as gemv's kernels).
template <class Tag, class R, bool ConjCol, bool ConjDot>
void symv_rect_complex(index_t r0, index_t r1, const R* a, index_t lda, const R* x2, const R* x,
                       R* __restrict y, R* dots) {
  constexpr R sc = ConjCol ? R(-1) : R(1);
  constexpr R sd = ConjDot ? R(-1) : R(1);
  const R* a0 = a;
  const R* a1 = a + 2 * lda;
  const R xr0 = x2[0], xi0 = x2[1], xr1 = x2[2], xi1 = x2[3];
  R rr0 = 0, ii0 = 0, ri0 = 0, ir0 = 0, rr1 = 0, ii1 = 0, ri1 = 0, ir1 = 0;
#pragma omp simd reduction(+ : rr0, ii0, ri0, ir0, rr1, ii1, ri1, ir1)
  for (index_t i = r0; i < r1; ++i) {
    const index_t re = 2 * i, im = 2 * i + 1;
    const R xr = x[re], xi = x[im];
    const R a0r = a0[re], a0i = a0[im], a1r = a1[re], a1i = a1[im];
    const R ur = a0r * xr0 + a1r * xr1;
    const R ui = a0i * xr0 + a1i * xr1;
    const R vr = a0r * xi0 + a1r * xi1;
    const R vi = a0i * xi0 + a1i * xi1;
    y[re] += ur - sc * vi;
    y[im] += vr + sc * ui;
    rr0 += a0r * xr;
    ii0 += a0i * xi;
    ri0 += a0r * xi;
    ir0 += a0i * xr;
    rr1 += a1r * xr;
    ii1 += a1i * xi;
    ri1 += a1r * xi;
    ir1 += a1i * xr;
  }
  dots[0] = rr0 - sd * ii0;
  dots[1] = ri0 + sd * ir0;
  dots[2] = rr1 - sd * ii1;
  dots[3] = ri1 + sd * ir1;
}

// symv_column(): one column j's rows [r0, r1) outside the diagonal, element by element (the
// columns left over from the blocks of four or two).
template <class Tag, class T>
T symv_column(index_t r0, index_t r1, const T* aj, T xj, const T* x, T* __restrict y, bool conj_col,
              bool conj_dot) {
  T dot = T(0);
  for (index_t i = r0; i < r1; ++i) {
    y[i] += mul<Tag>(aj[i], xj, conj_col);
    dot += mul<Tag>(aj[i], x[i], conj_dot);
  }
  return dot;
}

// symv_diagonal(): the jb x jb diagonal block at column j (its stored triangle).
template <class Tag, class T>
void symv_diagonal(bool lower, bool herm, bool conj, index_t jb, const T* a, index_t lda,
                   const T* x, T* y) {
  const bool conj_dot = herm != conj;
  for (index_t c = 0; c < jb; ++c) {
    T d = a[c + c * lda];
    if constexpr (is_complex_v<T>) {
      if (herm) d = T(d.real(), 0);
    }
    y[c] += mul<Tag>(d, x[c], conj && !herm);
    const index_t lo = lower ? c + 1 : 0;
    const index_t hi = lower ? jb : c;
    for (index_t r = lo; r < hi; ++r) {
      const T arc = a[r + c * lda];
      y[r] += mul<Tag>(arc, x[c], conj);
      y[c] += mul<Tag>(arc, x[r], conj_dot);
    }
  }
}

// symv_cols(): the table's entry (level2_kernels.hpp).
template <class Tag, class T>
void symv_cols(bool lower, bool herm, bool conj, index_t n, index_t c0, index_t c1, const T* a,
               index_t lda, const T* x, T* y) {
  using R = real_t<T>;
  constexpr index_t kBlock = is_complex_v<T> ? 2 : 8;
  const bool conj_dot = herm != conj;
  index_t j0 = c0;
  if constexpr (!is_complex_v<T>) {
    j0 = lower ? symv_cols_real<Tag, T, true>(n, c0, c1, a, lda, x, y)
               : symv_cols_real<Tag, T, false>(n, c0, c1, a, lda, x, y);
  }
  for (index_t j = j0; j < c1; j += kBlock) {
    const index_t jb = c1 - j < kBlock ? c1 - j : kBlock;
    const T* aj = a + j * lda;
    symv_diagonal<Tag>(lower, herm, conj, jb, aj + j, lda, x + j, y + j);
    const index_t r0 = lower ? j + jb : 0;
    const index_t r1 = lower ? n : j;
    if (r1 <= r0) continue;
    if (jb < kBlock) {
      for (index_t c = 0; c < jb; ++c) {
        y[j + c] += symv_column<Tag>(r0, r1, aj + c * lda, x[j + c], x, y, conj, conj_dot);
      }
      continue;
    }
    if constexpr (is_complex_v<T>) {  // a real T has no full block left here
      R dots[4];
      const auto rect = conj ? (conj_dot ? symv_rect_complex<Tag, R, true, true>
                                         : symv_rect_complex<Tag, R, true, false>)
                             : (conj_dot ? symv_rect_complex<Tag, R, false, true>
                                         : symv_rect_complex<Tag, R, false, false>);
      rect(r0, r1, reals(aj), lda, reals(x + j), reals(x), reals(y), dots);
      y[j] += T(dots[0], dots[1]);
      y[j + 1] += T(dots[2], dots[3]);
    }
  }
}

}  // namespace teamla::linalg::detail::level2_body
