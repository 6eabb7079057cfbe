// SPDX-License-Identifier: Apache-2.0
// level2_gemv.hpp (internal): gemv's two loops over a column-major A (level2_body.hpp).
//
// gemv_n takes four columns a pass, loading and storing y once per four columns of A (A
// streams from memory, y stays in cache); gemv_t eight, its eight dot products sharing each
// load of x.
// The real gemv_n is a plain loop the compiler vectorizes under the kernel file's flags; the
// real gemv_t and the complex loops use level2_lanes.hpp's vectors (for gemv_t, so that its
// eight sums are folded together instead of each summed lane by lane; for the complex ones, so
// that A's pairs are never split into real and imaginary parts).
#pragma once

#include "kernels/level2_lanes.hpp"
#include "kernels/level2_scalar.hpp"

namespace teamla::linalg::detail::level2_body {

template <class Tag, class R>
void gemv_n_real(index_t m, index_t n, const R* a, index_t lda, const R* x, R* __restrict y) {
  index_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const R* a0 = a + j * lda;
    const R* a1 = a0 + lda;
    const R* a2 = a1 + lda;
    const R* a3 = a2 + lda;
    const R x0 = x[j], x1 = x[j + 1], x2 = x[j + 2], x3 = x[j + 3];
#pragma omp simd
    for (index_t i = 0; i < m; ++i) {
      R s = y[i];
      s += a0[i] * x0;
      s += a1[i] * x1;
      s += a2[i] * x2;
      s += a3[i] * x3;
      y[i] = s;
    }
  }
  for (; j < n; ++j) {
    const R* a0 = a + j * lda;
    const R x0 = x[j];
#pragma omp simd
    for (index_t i = 0; i < m; ++i) y[i] += a0[i] * x0;
  }
}

// gemv_n_complex(): y += conj?(A) x (s = -1 for conj) on interleaved reals, four columns a pass:
// u = sum of the columns' vectors times xr, v = times xi (pairs as they are), then
// y_re += u_re - s v_im and y_im += v_re + s u_im, one shuffle of u and v per vector of y.
template <class Tag, class R, bool Conj>
void gemv_n_complex(index_t m, index_t n, const R* a, index_t lda, const R* x, R* __restrict y) {
  using L = Lanes<Tag, R>;
  using V = typename L::V;
  constexpr R s = Conj ? R(-1) : R(1);
  const V sign = L::alternate(-s, s);
  const index_t ld = 2 * lda;
  const index_t m2 = 2 * m;
  index_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const R* a0 = a + j * ld;
    const R* a1 = a0 + ld;
    const R* a2 = a1 + ld;
    const R* a3 = a2 + ld;
    const R* xj = x + 2 * j;
    const V xr0 = L::splat(xj[0]), xi0 = L::splat(xj[1]), xr1 = L::splat(xj[2]);
    const V xi1 = L::splat(xj[3]), xr2 = L::splat(xj[4]), xi2 = L::splat(xj[5]);
    const V xr3 = L::splat(xj[6]), xi3 = L::splat(xj[7]);
    index_t k = 0;
    for (; k + L::kL <= m2; k += L::kL) {
      const V c0 = L::load(a0 + k), c1 = L::load(a1 + k), c2 = L::load(a2 + k);
      const V c3 = L::load(a3 + k);
      const V u = c0 * xr0 + c1 * xr1 + c2 * xr2 + c3 * xr3;
      const V v = c0 * xi0 + c1 * xi1 + c2 * xi2 + c3 * xi3;
      L::store(y + k, L::load(y + k) + L::even_even(u, v) + sign * L::odd_odd(u, v));
    }
    for (; k < m2; k += 2) {
      const R ur = a0[k] * xj[0] + a1[k] * xj[2] + a2[k] * xj[4] + a3[k] * xj[6];
      const R ui = a0[k + 1] * xj[0] + a1[k + 1] * xj[2] + a2[k + 1] * xj[4] + a3[k + 1] * xj[6];
      const R vr = a0[k] * xj[1] + a1[k] * xj[3] + a2[k] * xj[5] + a3[k] * xj[7];
      const R vi = a0[k + 1] * xj[1] + a1[k + 1] * xj[3] + a2[k + 1] * xj[5] + a3[k + 1] * xj[7];
      y[k] += ur - s * vi;
      y[k + 1] += vr + s * ui;
    }
  }
  for (; j < n; ++j) {
    const R* a0 = a + j * ld;
    const R xr = x[2 * j], xi = x[2 * j + 1];
#pragma omp simd
    for (index_t i = 0; i < m; ++i) {
      const index_t re = 2 * i, im = 2 * i + 1;
      y[re] += a0[re] * xr - s * (a0[im] * xi);
      y[im] += a0[re] * xi + s * (a0[im] * xr);
    }
  }
}

// gemv_t_cols(): y[c] += the dot product of column c of the eight at a (ld lda) with x, over
// m rows: eight vector sums in flight (one per column, so the additions' latency does not bound
// the loop), each load of x serving all eight, the sums folded together at the end
// (add_sums8()); the rows before A's first aligned vector and past its last one by one.
template <class Tag, class R, int Bytes>
void gemv_t_cols(index_t m, const R* a, index_t lda, const R* x, R* y) {
  using L = Lanes<Tag, R, Bytes>;
  using V = typename L::V;
  const R* col[kSums8];
  for (int c = 0; c < kSums8; ++c) col[c] = a + c * lda;
  V s[kSums8] = {};
  index_t i = 0;
  for (const index_t head = rows_to_align<Bytes>(col[0], m); i < head; ++i) {
    for (int c = 0; c < kSums8; ++c) y[c] += col[c][i] * x[i];
  }
  for (; i + L::kL <= m; i += L::kL) {
    const V xv = L::load(x + i);
#pragma GCC unroll 8
    for (int c = 0; c < kSums8; ++c) s[c] += L::load(col[c] + i) * xv;
  }
  add_sums8<L, R>(s, y);
  for (; i < m; ++i) {
    for (int c = 0; c < kSums8; ++c) y[c] += col[c][i] * x[i];
  }
}

// gemv_t_real(): y += A^T x, eight columns a pass (gemv_t_cols()), at the kernel file's widest
// vectors where they pay (wide_pays()), else at its usual width; the last columns one by one.
template <class Tag, class R>
void gemv_t_real(index_t m, index_t n, const R* a, index_t lda, const R* x, R* __restrict y) {
  const double bytes = static_cast<double>(m) * static_cast<double>(n) * sizeof(R);
  const auto cols = wide_pays<Tag::kWideBytes>(bytes, a, lda) ? gemv_t_cols<Tag, R, Tag::kWideBytes>
                                                              : gemv_t_cols<Tag, R, Tag::kVecBytes>;
  index_t j = 0;
  for (; j + kSums8 <= n; j += kSums8) cols(m, a + j * lda, lda, x, y + j);
  for (; j < n; ++j) {
    const R* a0 = a + j * lda;
    R s0 = 0;
#pragma omp simd reduction(+ : s0)
    for (index_t i = 0; i < m; ++i) s0 += a0[i] * x[i];
    y[j] += s0;
  }
}

// complex_dots(): for the NC columns at col[], the sums rr, ii, ri, ir of the products of
// their real and imaginary parts with x's (interleaved reals, m2 of them): p += a * x and
// q += a * swap(x) lane by lane, so that p's even and odd lanes sum to rr and ii and q's to ri
// and ir; the tail past the last whole vector element by element.
template <class Tag, class R, int NC>
[[gnu::always_inline]] inline void complex_dots(index_t m2, const R* const (&col)[NC], const R* x,
                                                R (&sums)[NC][4]) {
  using L = Lanes<Tag, R>;
  using V = typename L::V;
  V p[NC] = {}, q[NC] = {};
  index_t k = 0;
  for (; k + L::kL <= m2; k += L::kL) {
    const V xv = L::load(x + k);
    const V xs = L::swap_pairs(xv);
#pragma GCC unroll 4
    for (int c = 0; c < NC; ++c) {
      const V av = L::load(col[c] + k);
      p[c] += av * xv;
      q[c] += av * xs;
    }
  }
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c) {
    R* t = sums[c];
    t[0] = L::sum_even(p[c]);
    t[1] = L::sum_odd(p[c]);
    t[2] = L::sum_even(q[c]);
    t[3] = L::sum_odd(q[c]);
    for (index_t i = k; i < m2; i += 2) {
      t[0] += col[c][i] * x[i];
      t[1] += col[c][i + 1] * x[i + 1];
      t[2] += col[c][i] * x[i + 1];
      t[3] += col[c][i + 1] * x[i];
    }
  }
}

// gemv_t_complex(): y[j] += sum conj?(A[i, j]) x[i] on interleaved reals, four columns a pass
// (complex_dots()), each y[j] then re = rr - s ii, im = ri + s ir (s = -1 for conj).
template <class Tag, class R, bool Conj>
void gemv_t_complex(index_t m, index_t n, const R* a, index_t lda, const R* x, R* __restrict y) {
  constexpr R s = Conj ? R(-1) : R(1);
  const index_t ld = 2 * lda;
  index_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const R* const col[4] = {a + j * ld, a + (j + 1) * ld, a + (j + 2) * ld, a + (j + 3) * ld};
    R sums[4][4];
    complex_dots<Tag, R, 4>(2 * m, col, x, sums);
    for (int c = 0; c < 4; ++c) {
      y[2 * (j + c)] += sums[c][0] - s * sums[c][1];
      y[2 * (j + c) + 1] += sums[c][2] + s * sums[c][3];
    }
  }
  for (; j < n; ++j) {
    const R* const col[1] = {a + j * ld};
    R sums[1][4];
    complex_dots<Tag, R, 1>(2 * m, col, x, sums);
    y[2 * j] += sums[0][0] - s * sums[0][1];
    y[2 * j + 1] += sums[0][2] + s * sums[0][3];
  }
}

template <class Tag, class T>
void gemv_n(index_t m, index_t n, const T* a, index_t lda, const T* x, T* y, bool conj) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    (conj ? gemv_n_complex<Tag, R, true> : gemv_n_complex<Tag, R, false>)(m, n, reals(a), lda,
                                                                          reals(x), reals(y));
  } else {
    gemv_n_real<Tag>(m, n, a, lda, x, y);
  }
}

template <class Tag, class T>
void gemv_t(index_t m, index_t n, const T* a, index_t lda, const T* x, T* y, bool conj) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    (conj ? gemv_t_complex<Tag, R, true> : gemv_t_complex<Tag, R, false>)(m, n, reals(a), lda,
                                                                          reals(x), reals(y));
  } else {
    gemv_t_real<Tag>(m, n, a, lda, x, y);
  }
}

}  // namespace teamla::linalg::detail::level2_body
