// SPDX-License-Identifier: Apache-2.0
// wide_split.hpp (internal): whether a wide gemm region (run_wide() in gemm.cpp) splits C's rows
// or its columns among the section's units.
#pragma once

#include <cstddef>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// split_imbalance(): the busiest rank's share over the mean when `tiles` whole micro-tiles are
// dealt to `width` ranks (1.0: even).
inline double split_imbalance(index_t tiles, std::size_t width) {
  const auto w = static_cast<index_t>(width);
  const index_t tiles_per_rank = (tiles + w - 1) / w;  // whole tiles: the ceiling is the point
  return static_cast<double>(tiles_per_rank * w) / static_cast<double>(tiles);
}

// kSplitBalanceMargin: a split is passed over only when it leaves the ranks more than this
// much more unbalanced, in whole micro-tiles, than the other (64 x 64 has 3 row tiles of 24
// but 8 column tiles of 8).
inline constexpr double kSplitBalanceMargin = 1.1;

// splits_rows(): whether C's `row_tiles` rows (true) or `col_tiles` columns are split.
//
// Columns unless the rows balance the ranks better by the margin, as long as A is at most
// kColumnsUpToAspect times as tall as B is wide (m <= 2 n); past that, rows unless the columns
// balance better by the margin. A row split cuts every column of C between two ranks, a column
// split once per pair of neighbours, and the lines around a cut cost both cores: two threads each
// computing half the rows of one 2048 x 16 x 16 dgemm took 10.3 us a call against 6.6 for that half
// alone, and 7.1 split by columns (2-vCPU AMD EPYC Zen 5 VM, its two CPUs a 445-520 ns cache-line
// round trip apart: benches/section_cost). But each rank of a row split reads (packs) all of B and
// each rank of a column split all of A, so a tall A keeps the rows. At 2 threads through the BLAS
// ABI, C += A B, against rows (and columns only for balance): dgemm 128^3-768^3 1.08-1.38x, 256 x
// 256 x 64 and 512 x 512 x 64 1.42-1.72x, 400 x 300 x 300 1.14x; with columns up to m = 4 n, 2048 x
// 512 x 512 and 1024 x 256 x 256 ran 0.96-0.97x, and the tall 2048 x 16 x 16 by columns 0.68-0.94x
// (docs/gemm.md, "Parallel split").
inline constexpr index_t kColumnsUpToAspect = 2;

inline bool splits_rows(index_t row_tiles, index_t col_tiles, std::size_t width, index_t m,
                        index_t n) {
  const double rows = split_imbalance(row_tiles, width);
  const double columns = split_imbalance(col_tiles, width);
  if (m <= kColumnsUpToAspect * n) return rows * kSplitBalanceMargin < columns;
  return rows <= kSplitBalanceMargin * columns;
}

}  // namespace teamla::linalg::detail
