// SPDX-License-Identifier: Apache-2.0
// lu_internal.hpp (internal): the pieces of the LU family (getrf, getrs, getri) that its files
// share. Pivots are LAPACK's: 1-based row numbers, as getrf returns them.
#pragma once

#include <cstddef>

#include "teamla/linalg/lu.hpp"

namespace teamla::linalg::level3_detail {

// apply_swaps(): for i = i0 .. i1 - 1 in order (forward) or from i1 - 1 down to i0 (backward),
// row i of `a` is swapped with row ipiv[i] - 1 - base, on every column of `a`. Column-major:
// one column at a time, all its swaps while it is in cache.
enum class SwapOrder : unsigned char { forward, backward };
template <class T>
void apply_swaps(MatrixView<T> a, index_t i0, index_t i1, const int* ipiv, index_t base,
                 SwapOrder order = SwapOrder::forward);

// factor_panel(): the serial, recursive LU with partial pivoting of the panel `p` (m x n,
// m >= n), LAPACK's dgetrf2 with leaves of a few columns: the interchanges are applied to the
// panel's own columns and stored in ipiv[0 .. n) relative to the panel's first row, plus
// `base`. Returns the 1-based column of the first exactly zero pivot, or 0.
template <class T>
index_t factor_panel(MatrixView<T> p, int* ipiv, index_t base);

// update_columns(): a getrf step's update of the columns `cols` (rows k .. m of A, whole
// height below the step's diagonal) from the step's factored panel `panel` (rows k .. m,
// kb columns): the panel's interchanges, U12 = L11^-1 * A12, then A22 -= L21 * U12. Serial.
// ipiv: the step's pivots, numbered from the top of `a` (base k).
template <class T>
void update_columns(MatrixView<const T> panel, MatrixView<T> cols, const int* ipiv, index_t k);

// getrf_parallel_step(): the update of the columns right of the step at column k (block kb) on
// one claimed section of `width`, in strips of columns. With next_kb > 0 (lookahead) the strip
// of the next panel comes first, and whoever finishes it factors that panel in the section;
// it then returns factor_panel()'s info for it (ipiv filled from row k + kb). Returns 0 when
// next_kb is 0.
template <class T>
index_t getrf_parallel_step(MatrixView<T> a, index_t k, index_t kb, index_t next_kb, int* ipiv,
                            std::size_t width, Exec& exec);

// Bench and test hooks (not thread-safe: set between calls). set_getrf_block_override()
// forces getrf's block size (0: the default); set_getrf_lookahead_override() forces lookahead
// on (1) or off (0), -1: the default.
void set_getrf_block_override(index_t nb);
void set_getrf_lookahead_override(int enabled);

}  // namespace teamla::linalg::level3_detail
