// syrk.cpp: symmetric rank-k update of one triangle, on gemm.
//
// Reduced to the lower triangle of C (an upper triangle is the lower triangle of
// C.transposed()) and to op(A) = A (A.transposed() otherwise). Columns of C are taken in
// panels of kSyrkPanel: the rectangle below a panel is one gemm straight into C; inside the
// panel's triangle, each kSyrkBlock diagonal tile is computed whole into a scratch tile and
// only its lower half is merged into C, so the other triangle is never read or written. The
// parallel version gives each participant a range of columns holding an equal share of the
// triangle's area.
#include <algorithm>

#include "chol_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace chol_detail {

// kSyrkBlock: the width of a diagonal tile. The scratch tile costs jb^2/2 extra flops per jb
// columns (its upper half is computed and dropped) plus a merge pass. Measured serially on the
// reference machine (k = 256, double, GF/s for blocks 32 / 64 / 128 / 256): n = 128:
// 31.7 / 30.5 / 22.7 / 22.7; n = 256: 37.5 / 37.4 / 28.1 / 24.0; n = 512: 40.0 / 38.4 /
// 33.7 / 29.2; n = 1024: 24.7 / 25.0 / 24.5 / 23.1 (a loaded run). 32 and 64 tie; 64 keeps
// more columns per gemm call for gemm's packing to amortise over.
inline constexpr index_t kSyrkBlock = 64;

// kSyrkPanel: the columns whose below-diagonal rectangle is one gemm. gemm's rate depends on
// its n (measured, m = 1536, k = 512, lda = 2048, double, loaded machine: n = 64: 33.8 GF/s,
// 128: 39.4, 256: 45.6, 512: 44.4, 1536: 48.4), so the rectangle is taken 256 columns wide
// and only the panel's own triangle is cut into kSyrkBlock tiles.
inline constexpr index_t kSyrkPanel = 256;

template <class T>
void syrk_lower_cols(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, index_t c0,
                     index_t c1) {
  const index_t n = c.rows;
  const index_t k = a.cols;
  Exec serial;
  for (index_t p = c0; p < c1; p += kSyrkPanel) {
    const index_t pend = std::min(p + kSyrkPanel, c1);
    // The panel's own lower triangle: diagonal tiles and the small rectangles below them.
    for (index_t j = p; j < pend; j += kSyrkBlock) {
      const index_t jb = std::min(kSyrkBlock, pend - j);
      T* tile = scratch<T>(static_cast<std::size_t>(jb * jb), 0);
      MatrixView<T> t = col_major(tile, jb, jb);
      const MatrixView<const T> rows_j = a.block(j, 0, jb, k);
      gemm<T>(Op::none, Op::transpose, alpha, rows_j, rows_j, T(0), t, serial);
      for (index_t q = 0; q < jb; ++q) {
        for (index_t r = q; r < jb; ++r) {
          T& dst = c(j + r, j + q);
          dst = beta == T(0) ? t(r, q) : beta * dst + t(r, q);
        }
      }
      if (j + jb < pend) {
        gemm<T>(Op::none, Op::transpose, alpha, a.block(j + jb, 0, pend - j - jb, k), rows_j, beta,
                c.block(j + jb, j, pend - j - jb, jb), serial);
      }
    }
    // Everything below the panel: one wide gemm.
    if (pend < n) {
      gemm<T>(Op::none, Op::transpose, alpha, a.block(pend, 0, n - pend, k),
              a.block(p, 0, pend - p, k), beta, c.block(pend, p, n - pend, pend - p), serial);
    }
  }
}
template void syrk_lower_cols<double>(double, MatrixView<const double>, double, MatrixView<double>,
                                      index_t, index_t);
template void syrk_lower_cols<float>(float, MatrixView<const float>, float, MatrixView<float>,
                                     index_t, index_t);

template <class T>
std::size_t syrk_lower_parallel(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c,
                                Exec& exec) {
  const index_t n = c.rows;
  std::size_t width = 1;
  double serial_ns = 0;
  if (exec.team != nullptr) {
    const double flops =
        static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(a.cols);
    const std::size_t cap =
        exec.max_width == 0 ? exec.team->width() : std::min(exec.max_width, exec.team->width());
    serial_ns = serial_estimate_ns(flops, gemm_serial_gflops(sizeof(T)));
    width = choose_width_observed(serial_ns, 1, cap);
  }
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  if (width <= 1) {
    ++exec.stats.inline_regions;
    syrk_lower_cols(alpha, a, beta, c, 0, n);
    return 1;
  }
  ++exec.stats.sections;
  const std::uint64_t start_ns = team::monotonic_ns();
  exec.team->run(width, [&](team::Section& s) {
    const index_t c0 = balanced_split(n, s.rank(), s.width(), 16);
    const index_t c1 = balanced_split(n, s.rank() + 1, s.width(), 16);
    if (c1 > c0) syrk_lower_cols(alpha, a, beta, c, c0, c1);
  });
  record_section(static_cast<double>(team::monotonic_ns() - start_ns), serial_ns);
  return width;
}
template std::size_t syrk_lower_parallel<double>(double, MatrixView<const double>, double,
                                                 MatrixView<double>, Exec&);
template std::size_t syrk_lower_parallel<float>(float, MatrixView<const float>, float,
                                                MatrixView<float>, Exec&);

}  // namespace chol_detail

template <class T>
void syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, Exec& exec) {
  using namespace chol_detail;
  const char* routine = "syrk";
  check_uplo(routine, uplo);
  check_op(routine, "op_a", op_a);
  check_view(routine, "a", a.rows, a.cols, a.ld, a.layout, a.data);
  check_view(routine, "c", c.rows, c.cols, c.ld, c.layout, c.data);
  if (c.rows != c.cols) {
    fail_shape(
        routine, "c",
        "C is " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + " but must be square");
  }
  const MatrixView<const T> op = op_a == Op::transpose ? a.transposed() : a;
  if (op.rows != c.rows) {
    fail_shape(routine, "a",
               "op(A) has " + std::to_string(op.rows) + " rows but C is " + std::to_string(c.rows) +
                   " x " + std::to_string(c.cols));
  }
  exec.stats = {};
  if (c.rows == 0) return;
  const MatrixView<T> lower = uplo == Uplo::upper ? c.transposed() : c;
  if (alpha == T(0) || op.cols == 0) {  // A is not read
    scale_lower(lower, beta);
    return;
  }
  syrk_lower_parallel(alpha, op, beta, lower, exec);
}

template void syrk<double>(Uplo, Op, double, MatrixView<const double>, double, MatrixView<double>,
                           Exec&);
template void syrk<float>(Uplo, Op, float, MatrixView<const float>, float, MatrixView<float>,
                          Exec&);

}  // namespace teamla::linalg
