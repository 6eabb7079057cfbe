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
// Rows, each rank packing all of B for its own rows, unless the columns balance the ranks
// better by the margin; but when neither operand is packed (`in_place`: each unit reads A and
// B where they are) and A is no taller than B is wide (m <= n), columns unless the rows
// balance better by the margin. A row split cuts every column of C between two ranks, and
// those lines then cross between the cores: two threads each computing half the rows of one
// 2048 x 16 x 16 dgemm took 10.3 us a call against 6.6 for that half alone, and 7.1 split by
// columns (2-vCPU AMD EPYC Zen 5 VM). Split by columns, each unit reads all of A instead of all
// of B, so the columns win where A is no larger: dgemm at 2 threads through the BLAS ABI,
// 128^3-256^3 1.16-1.35x the row split and 256 x 256 x 64 1.73x, the tall 2048 x 16 x 16 and
// 4096 x 16 x 16 left on rows (docs/gemm.md, "Parallel split"). The packed path keeps rows:
// its column units would each pack all of A again (dgemm 768^3-1024^3 0.95x).
inline bool splits_rows(index_t row_tiles, index_t col_tiles, std::size_t width, bool in_place,
                        index_t m, index_t n) {
  const double rows = split_imbalance(row_tiles, width);
  const double columns = split_imbalance(col_tiles, width);
  if (in_place && m <= n) return rows * kSplitBalanceMargin < columns;
  return rows <= kSplitBalanceMargin * columns;
}

}  // namespace teamla::linalg::detail
