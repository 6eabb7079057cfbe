// SPDX-License-Identifier: Apache-2.0
// wide_split.hpp (internal): whether a wide gemm region (run_wide() in gemm.cpp, the complex
// products' in complex_gemm.cpp) splits C's rows or its columns among the section's units, and
// the units' parts.
#pragma once

#include <algorithm>
#include <cstddef>

#include "teamla/linalg/matrix_view.hpp"
#include "teamla/team/team.hpp"

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
// split once per pair of neighbours, and the lines around a cut cost both cores (the two row
// halves of a 2048 x 16 x 16 dgemm, run at once, each took far longer than one half alone, the
// column halves little longer; docs/perf/blocking.md). But each rank of a row split reads (packs)
// all of B and each rank of a column split all of A, so a tall A keeps the rows (docs/gemm.md,
// "Parallel split").
// kColumnsUpToAspect: columns beat rows up to m = 2 n and lost at 4 n (docs/perf/blocking.md).
inline constexpr index_t kColumnsUpToAspect = 2;

inline bool splits_rows(index_t row_tiles, index_t col_tiles, std::size_t width, index_t m,
                        index_t n) {
  const double rows = split_imbalance(row_tiles, width);
  const double columns = split_imbalance(col_tiles, width);
  if (m <= kColumnsUpToAspect * n) return rows * kSplitBalanceMargin < columns;
  return rows <= kSplitBalanceMargin * columns;
}

// unit_parts(): the body of a section of `units` units over `count` items: each unit runs
// body(rank, lo, hi) on its part [lo, hi), cut in whole tiles of `tile`; an empty part runs
// nothing.
template <class Body>
auto unit_parts(index_t count, index_t tile, std::size_t units, Body body) {
  const index_t tiles = (count + tile - 1) / tile;
  const auto w = static_cast<index_t>(units);
  return [=](team::Section& s, std::size_t unit) {
    const auto r = static_cast<index_t>(unit);
    const index_t lo = std::min(count, tiles * r / w * tile);
    const index_t hi = std::min(count, tiles * (r + 1) / w * tile);
    if (hi > lo) body(s.rank(), lo, hi);
  };
}

}  // namespace teamla::linalg::detail
