// SPDX-License-Identifier: Apache-2.0
// symv.cpp: y = alpha A x + beta y for a symmetric (symv) or Hermitian (hemv) A read from one
// triangle: checks, the reduction to a column-major A, and the parallel split.
//
// A row-major A is the column-major A^T of the same storage, its other triangle: for symv the
// same matrix; for hemv A^T = conj(A), so the kernel reads that triangle conjugated. The kernel
// reads each stored element once for both of its uses, the column's update of y below (or
// above) the diagonal and the mirrored row's dot product, so a column range writes y outside
// its own rows: on a team each slice (one per participant, of equal triangle area) accumulates
// into its own zeroed vector, and the caller sums them into y after the section.
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/level2_internal.hpp"
#include "level2/level2_plan.hpp"
#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

// Symv: a call reduced to a column-major triangle: y += S x, x and y contiguous.
template <class T>
struct Symv {
  MatrixView<const T> a;
  bool lower;
  bool herm;
  bool conj;
  const T* x;
  T* y;
};

// touched(): the rows of y that the columns [c0, c1) write.
template <class T>
void touched(const Symv<T>& s, index_t c0, index_t c1, index_t& r0, index_t& r1) {
  r0 = s.lower ? c0 : 0;
  r1 = s.lower ? s.a.rows : c1;
}

// run_symv(): runs the region `plan` planned; `partials` has room for plan.width - 1 vectors of
// padded<T>(n), one per slice after the first (each slice zeroes the rows it writes).
template <class T>
void run_symv(const Symv<T>& s, const RegionPlan& plan, T* partials, Exec& exec) {
  const index_t n = s.a.rows;
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  const std::size_t slices = plan.width;
  // Slice 0 writes y itself; each other slice its own vector, summed into y afterwards.
  const auto target = [&](std::size_t u) {
    return u == 0 ? s.y : partials + (u - 1) * padded<T>(n);
  };
  const auto edge = [&](std::size_t u) { return triangle_edge(n, u, slices, s.lower); };
  level3_detail::run_column_slices(plan, slices, exec, [&](std::size_t u, std::size_t count) {
    const index_t c0 = count == 1 ? 0 : edge(u);
    const index_t c1 = count == 1 ? n : edge(u + 1);
    if (c1 <= c0) return;
    T* y = target(u);
    if (u > 0) {
      index_t r0 = 0, r1 = 0;
      touched(s, c0, c1, r0, r1);
      for (index_t i = r0; i < r1; ++i) y[i] = T(0);
    }
    k.symv_cols(s.lower, s.herm, s.conj, n, c0, c1, s.a.data, s.a.ld, s.x, y);
  });
  for (std::size_t u = 1; u < slices; ++u) {
    const index_t c0 = edge(u);
    const index_t c1 = edge(u + 1);
    if (c1 <= c0) continue;
    index_t r0 = 0, r1 = 0;
    touched(s, c0, c1, r0, r1);
    const T* p = target(u);
    for (index_t i = r0; i < r1; ++i) s.y[i] += p[i];
  }
}

template <class T>
void symmetric_product(const char* routine, bool herm, Uplo uplo, T alpha, MatrixView<const T> a,
                       VectorView<const T> x, T beta, VectorView<T> y, Exec& exec) {
  const index_t n = check_triangle(routine, uplo, a);
  check_order_vector(routine, "x", x, n);
  check_order_vector(routine, "y", y, n);
  exec.stats = {};
  if (n == 0) return;
  if (alpha == T(0)) {
    scale_only(y, beta);
    return;
  }
  const bool col = a.layout == Layout::col_major;
  const double bytes =
      static_cast<double>(n) * static_cast<double>(n + 1) / 2 * static_cast<double>(sizeof(T));
  const RegionPlan plan = plan_level2<T>(bytes, exec);
  // One piece of scratch for all: x's copy, y's, and the partial sums of slices 1.. .
  const std::size_t nx = needs_copy(x, alpha, false) ? padded<T>(n) : 0;
  const std::size_t ny = y.inc != 1 ? padded<T>(n) : 0;
  const std::size_t need = nx + ny + (plan.width - 1) * padded<T>(n);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {  // the plan is dropped: a region that did not run teaches nothing
    Fallback<T>::symv(herm, uplo, alpha, a, x, beta, y, exec, need * sizeof(T));
    return;
  }
  const Symv<T> s{.a = col ? a : a.transposed(),
                  .lower = col == (uplo == Uplo::lower),
                  .herm = herm,
                  .conj = herm && !col,
                  .x = gather(x, alpha, false, buffer),
                  .y = scaled_output(y, beta, buffer + nx)};
  run_symv(s, plan, buffer + nx + ny, exec);
  write_back(s.y, y);
}

}  // namespace
}  // namespace level2_detail

template <class T>
void symv(Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec) {
  level2_detail::symmetric_product("symv", false, uplo, alpha, a, x, beta, y, exec);
}

template <class T>
void hemv(Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec) {
  level2_detail::symmetric_product("hemv", true, uplo, alpha, a, x, beta, y, exec);
}

template void symv<float>(Uplo, float, MatrixView<const float>, VectorView<const float>, float,
                          VectorView<float>, Exec&);
template void symv<double>(Uplo, double, MatrixView<const double>, VectorView<const double>, double,
                           VectorView<double>, Exec&);
template void hemv<std::complex<float>>(Uplo, std::complex<float>,
                                        MatrixView<const std::complex<float>>,
                                        VectorView<const std::complex<float>>, std::complex<float>,
                                        VectorView<std::complex<float>>, Exec&);
template void hemv<std::complex<double>>(Uplo, std::complex<double>,
                                         MatrixView<const std::complex<double>>,
                                         VectorView<const std::complex<double>>,
                                         std::complex<double>, VectorView<std::complex<double>>,
                                         Exec&);

}  // namespace teamla::linalg
