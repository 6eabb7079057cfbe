// SPDX-License-Identifier: Apache-2.0
// trmv.cpp: x = op(A) x for a triangular A: the blocked product and its parallel split.
//
// The product reads a copy t of x and writes x (or a contiguous copy of a strided x), so any
// run of output entries can be computed on its own: on a team each slice takes a run of equal
// triangle area. A run [e0, e1) of op(M) x is a rectangle of M times t (gemv_n over the run's
// band of rows, or gemv_t down its columns) plus the triangle inside the run, itself cut into
// blocks of kTriangleBlock: diagonal blocks (trmv_block) and the rectangles between them, walked
// down M's columns where A x reads them and as dot products where A^T x does.
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/level2_plan.hpp"
#include "level2/triangular.hpp"
#include "level3/column_slices.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

// Trmv: out = op(M) t, both contiguous.
template <class T>
struct Trmv {
  Triangular<T> tri;
  const T* t;
  T* out;
};

// product_n(): out[e0:e1] for op(M) = M: the band M[e0:e1, outside] t, then the triangle
// inside the band a column block at a time (its diagonal block, and the rows of the band
// below (lower) or above (upper) it).
template <class T>
void product_n(const Trmv<T>& p, index_t e0, index_t e1) {
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  const MatrixView<const T>& m = p.tri.a;
  const bool lower = p.tri.lower;
  const bool conj = p.tri.conj;
  const index_t n = m.rows;
  const index_t ld = m.ld;
  const index_t outside0 = lower ? 0 : e1;
  const index_t outside1 = lower ? e0 : n;
  k.gemv_n(e1 - e0, outside1 - outside0, m.data + e0 + outside0 * ld, ld, p.t + outside0,
           p.out + e0, conj);
  for (index_t b0 = e0; b0 < e1; b0 += kTriangleBlock) {
    const index_t b1 = e1 - b0 < kTriangleBlock ? e1 : b0 + kTriangleBlock;
    const T* column = m.data + b0 * ld;
    k.trmv_block(lower, false, conj, p.tri.unit, b1 - b0, column + b0, ld, p.t + b0, p.out + b0);
    const index_t r0 = lower ? b1 : e0;
    const index_t r1 = lower ? e1 : b0;
    k.gemv_n(r1 - r0, b1 - b0, column + r0, ld, p.t + b0, p.out + r0, conj);
  }
}

// product_t(): out[e0:e1] for op(M) = M^T: each column block's dot products with t over its
// rows outside the diagonal block, then the block.
template <class T>
void product_t(const Trmv<T>& p, index_t e0, index_t e1) {
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  const MatrixView<const T>& m = p.tri.a;
  const bool lower = p.tri.lower;
  const index_t n = m.rows;
  const index_t ld = m.ld;
  for (index_t b0 = e0; b0 < e1; b0 += kTriangleBlock) {
    const index_t b1 = e1 - b0 < kTriangleBlock ? e1 : b0 + kTriangleBlock;
    const T* column = m.data + b0 * ld;
    const index_t r0 = lower ? b1 : 0;
    const index_t r1 = lower ? n : b0;
    k.gemv_t(r1 - r0, b1 - b0, column + r0, ld, p.t + r0, p.out + b0, p.tri.conj);
    k.trmv_block(lower, true, p.tri.conj, p.tri.unit, b1 - b0, column + b0, ld, p.t + b0,
                 p.out + b0);
  }
}

template <class T>
void run_trmv(const Trmv<T>& p, Exec& exec) {
  const index_t n = p.tri.a.rows;
  const double bytes =
      static_cast<double>(n) * static_cast<double>(n + 1) / 2 * static_cast<double>(sizeof(T));
  const RegionPlan plan = plan_level2<T>(bytes, exec);
  // The runs of entries whose rows (A x) or columns (A^T x) shrink along the triangle: upper
  // rows, lower columns.
  const bool shrinking = p.tri.lower == p.tri.trans;
  level3_detail::run_column_slices(
      plan, (p.tri.trans ? kSlicesPerParticipant : kBandsPerParticipant) * plan.width, exec,
      [&](std::size_t u, std::size_t count) {
        const index_t e0 = triangle_edge(n, u, count, shrinking);
        const index_t e1 = triangle_edge(n, u + 1, count, shrinking);
        if (e1 <= e0) return;
        for (index_t i = e0; i < e1; ++i) p.out[i] = T(0);
        if (p.tri.trans) {
          product_t(p, e0, e1);
        } else {
          product_n(p, e0, e1);
        }
      });
}

}  // namespace
}  // namespace level2_detail

template <class T>
void trmv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec) {
  using namespace level2_detail;
  const Triangular<T> tri = to_triangular("trmv", uplo, op, diag, a, x);
  exec.stats = {};
  const index_t n = x.size;
  if (n == 0) return;
  const std::size_t need = padded<T>(n) * (x.inc != 1 ? 2 : 1);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::trmv(uplo, op, diag, a, x, exec, need * sizeof(T));
    return;
  }
  T* t = buffer;
  for (index_t i = 0; i < n; ++i) t[i] = x[i];
  T* out = x.inc == 1 ? x.data : buffer + padded<T>(n);
  run_trmv(Trmv<T>{tri, t, out}, exec);
  write_back(out, x);
}

template void trmv<float>(Uplo, Op, Diag, MatrixView<const float>, VectorView<float>, Exec&);
template void trmv<double>(Uplo, Op, Diag, MatrixView<const double>, VectorView<double>, Exec&);
template void trmv<std::complex<float>>(Uplo, Op, Diag, MatrixView<const std::complex<float>>,
                                        VectorView<std::complex<float>>, Exec&);
template void trmv<std::complex<double>>(Uplo, Op, Diag, MatrixView<const std::complex<double>>,
                                         VectorView<std::complex<double>>, Exec&);

}  // namespace teamla::linalg
