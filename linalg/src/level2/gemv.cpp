// SPDX-License-Identifier: Apache-2.0
// gemv.cpp: y = alpha op(A) x + beta y: checks, the reduction to a column-major A, and the
// parallel split.
//
// A row-major A is the column-major A^T of the same storage, so every call becomes
// y += M x (gemv_n) or y += M^T x (gemv_t) on a column-major M: A x on a row-major A is M^T x,
// A^T x is M x, and A^H x is conj(M) x; on a column-major A, A^H x is conj(M)^T x. alpha is
// folded into the copy of x, beta applied to y first. On a team, gemv_n's slices are bands of
// y's rows (each reads its band of every column), gemv_t's are runs of y's entries (each reads
// its own columns of M).
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/level2_internal.hpp"
#include "level2/level2_plan.hpp"
#include "level3/column_slices.hpp"
#include "level3/level3_internal.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

// kBlockBytes: the rows of M one kernel call covers, as bytes of y (gemv_n) or x (gemv_t), so
// that the vector it re-reads for every four columns stays in the core's second-level cache.
// Not smaller: each block cuts every column of M into one more segment, which costs more than
// a first-level-cache-sized vector saves (docs/perf/level2.md).
constexpr index_t kBlockBytes = 64 * 1024;

// kEdgeAlign: slices start on multiples of 16 entries of y (a cache line of any T), so that no
// two slices write one line.
constexpr index_t kEdgeAlign = 16;

// Gemv: a call reduced to a column-major M: y[0:m] += op(M) x, xc and yc contiguous.
template <class T>
struct Gemv {
  const detail::Level2Kernels<T>& k;
  MatrixView<const T> a;  // column-major; m x n (trans: n x m)
  bool trans;             // y += M^T x
  bool conj;              // conj(M) in place of M
  const T* x;
  T* y;
};

// rows_of(): y[r0:r1] += M[r0:r1, :] x, in blocks of rows that keep y's band in cache.
template <class T>
void rows_of(const Gemv<T>& g, index_t r0, index_t r1) {
  constexpr index_t kRows = kBlockBytes / static_cast<index_t>(sizeof(T));
  for (index_t i = r0; i < r1; i += kRows) {
    const index_t rows = r1 - i < kRows ? r1 - i : kRows;
    g.k.gemv_n(rows, g.a.cols, g.a.data + i, g.a.ld, g.x, g.y + i, g.conj);
  }
}

// cols_of(): y[c0:c1] += M[:, c0:c1]^T x, in blocks of M's rows that keep x's band in cache.
template <class T>
void cols_of(const Gemv<T>& g, index_t c0, index_t c1) {
  constexpr index_t kRows = kBlockBytes / static_cast<index_t>(sizeof(T));
  for (index_t i = 0; i < g.a.rows; i += kRows) {
    const index_t rows = g.a.rows - i < kRows ? g.a.rows - i : kRows;
    g.k.gemv_t(rows, c1 - c0, g.a.data + i + c0 * g.a.ld, g.a.ld, g.x + i, g.y + c0, g.conj);
  }
}

template <class T>
void run_gemv(const Gemv<T>& g, index_t m, Exec& exec) {
  const double bytes = static_cast<double>(g.a.rows) * static_cast<double>(g.a.cols) *
                       static_cast<double>(sizeof(T));
  const RegionPlan plan = plan_level2<T>(bytes, exec);
  const std::size_t slices = (g.trans ? kSlicesPerParticipant : kBandsPerParticipant) * plan.width;
  level3_detail::run_column_slices(plan, slices, exec, [&](std::size_t u, std::size_t count) {
    const index_t e0 = even_edge(m, u, count, kEdgeAlign);
    const index_t e1 = even_edge(m, u + 1, count, kEdgeAlign);
    if (e1 <= e0) return;
    if (g.trans) {
      cols_of(g, e0, e1);
    } else {
      rows_of(g, e0, e1);
    }
  });
}

}  // namespace
}  // namespace level2_detail

template <class T>
void gemv(Op op, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta, VectorView<T> y,
          Exec& exec) {
  using namespace level2_detail;
  const char* routine = "gemv";
  level3_detail::check_op(routine, "op", op, true);  // A^H is A^T for a real A
  level3_detail::check_view(routine, "A", a);
  check_vector(routine, "x", x);
  check_vector(routine, "y", y);
  const index_t m = op == Op::none ? a.rows : a.cols;
  const index_t n = op == Op::none ? a.cols : a.rows;
  check_length(routine, "y", y.size, m, "the rows of op(A)");
  check_length(routine, "x", x.size, n, "the columns of op(A)");
  exec.stats = {};
  if (m == 0) return;
  if (n == 0 || alpha == T(0)) {
    scale_only(y, beta);
    return;
  }
  const bool col = a.layout == Layout::col_major;
  const bool conj = is_complex_v<T> && op == Op::conj_transpose;
  const std::size_t nx = needs_copy(x, alpha, false) ? padded<T>(n) : 0;
  const std::size_t need = nx + (y.inc != 1 ? padded<T>(m) : 0);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::gemv(op, alpha, a, x, beta, y, exec, need * sizeof(T));
    return;
  }
  const bool trans = col ? op != Op::none : op == Op::none;
  const T* xc = gather(x, alpha, false, buffer);
  T* yc = scaled_output(y, beta, buffer + nx);
  const Gemv<T> g{detail::level2_kernels<T>(), col ? a : a.transposed(), trans, conj, xc, yc};
  run_gemv(g, m, exec);
  write_back(g.y, y);
}

template void gemv<float>(Op, float, MatrixView<const float>, VectorView<const float>, float,
                          VectorView<float>, Exec&);
template void gemv<double>(Op, double, MatrixView<const double>, VectorView<const double>, double,
                           VectorView<double>, Exec&);
template void gemv<std::complex<float>>(Op, std::complex<float>,
                                        MatrixView<const std::complex<float>>,
                                        VectorView<const std::complex<float>>, std::complex<float>,
                                        VectorView<std::complex<float>>, Exec&);
template void gemv<std::complex<double>>(Op, std::complex<double>,
                                         MatrixView<const std::complex<double>>,
                                         VectorView<const std::complex<double>>,
                                         std::complex<double>, VectorView<std::complex<double>>,
                                         Exec&);

}  // namespace teamla::linalg
