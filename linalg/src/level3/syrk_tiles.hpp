// SPDX-License-Identifier: Apache-2.0
// syrk_tiles.hpp (internal): register tiles of a SYRK-shaped update against one triangle.
//
// Used by the serial SYRK loop nest (syrk_serial.cpp) and the Cholesky step on a team
// (potrf_step.cpp). Storage is column-major; the kept entries are i >= j (lower) or i <= j
// (upper). A tile inside the triangle runs the microkernel straight into C, one outside is
// skipped, and one the diagonal crosses runs into a register-sized scratch tile whose kept
// half is merged, so the other triangle is never read or written.
#pragma once

#include <algorithm>

#include "isa_dispatch.hpp"

namespace teamla::linalg::level3_detail {

enum class TileKind : unsigned char { outside, inside, crossed };

// classify(): rows [i0, i1) x columns [j0, j1) of storage against the kept triangle.
inline TileKind classify(bool lower, index_t i0, index_t i1, index_t j0, index_t j1) {
  if (lower) {
    if (i1 - 1 < j0) return TileKind::outside;
    return i0 >= j1 - 1 ? TileKind::inside : TileKind::crossed;
  }
  if (i0 > j1 - 1) return TileKind::outside;
  return i1 - 1 <= j0 ? TileKind::inside : TileKind::crossed;
}

// triangle_tile(): C_tile = alpha * A_panel * B_panel + beta * C_tile for the kept entries of
// an mrb x nrb tile whose first entry is (i0, j0) of storage; A and B are packed micro-panels
// of kcb steps.
template <class T>
void triangle_tile(const detail::KernelFns<T>& f, bool lower, index_t i0, index_t j0, index_t mrb,
                   index_t nrb, index_t kcb, const T* a_panel, const T* b_panel, T* c_tile,
                   index_t ldc, T alpha, T beta) {
  const TileKind kind = classify(lower, i0, i0 + mrb, j0, j0 + nrb);
  if (kind == TileKind::outside) return;
  if (kind == TileKind::inside) {
    f.packed(mrb, nrb, kcb, a_panel, f.mr, b_panel, c_tile, ldc, alpha, beta);
    return;
  }
  // Only the rows [first, last) of the tile that hold kept entries are computed, rounded out to
  // whole vectors of the kernel (a narrower instantiation runs): computing all 48 rows of
  // float's crossed tiles slowed 1-thread ssyr2k_ 256 (docs/level3.md, "SYR2K";
  // docs/perf/blocking.md).
  const index_t step = f.row_step;
  const index_t first = lower ? std::max<index_t>(0, j0 - i0) / step * step : 0;
  const index_t last = lower ? mrb : std::min(mrb, (j0 + nrb - i0 + step - 1) / step * step);
  // The largest register tile of any kernel (s48x8) fits.
  alignas(64) T tile[48 * 8];
  f.packed(last - first, nrb, kcb, a_panel + first, f.mr, b_panel, tile + first, f.mr, alpha, T(0));
  for (index_t j = 0; j < nrb; ++j) {
    T* cj = c_tile + j * ldc;
    const T* tj = tile + j * f.mr;
    // Kept rows of column j0 + j: i >= j0 + j (lower) or i <= j0 + j (upper).
    const index_t diag = j0 + j - i0;
    const index_t lo = lower ? (diag < 0 ? 0 : diag) : 0;
    const index_t hi = lower ? mrb : (diag + 1 < mrb ? diag + 1 : mrb);
    for (index_t i = lo; i < hi; ++i) {
      cj[i] = beta == T(0) ? tj[i] : (beta == T(1) ? cj[i] + tj[i] : beta * cj[i] + tj[i]);
    }
  }
}

}  // namespace teamla::linalg::level3_detail
