// SPDX-License-Identifier: Apache-2.0
// level3_internal.hpp: the pieces the level-3 routines (TRSM, TRMM, SYMM, SYRK, SYR2K) and
// the Cholesky ones (POTRF, POTRS) share (library-private).
//
// The routines reduce their cases to a few canonical ones through view identities (an upper
// triangle is the lower triangle of the transposed view; a right-side solve is a left-side
// solve of the transposed system), then run blocked/recursive algorithms whose bulk flops go
// to gemm. The small kernels at the leaves (unblocked Cholesky, small triangular solves) are
// written once (kernels/chol_leaf.hpp), instantiated in each ISA's table
// (kernels/<isa>/table_<isa>.cpp) and chosen at run time.
// Everything here is reentrant and may run on several threads at once; the only global
// mutable state is the bench/test hooks below (block size, lookahead), set between calls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

#include "kernels/leaf_kernels.hpp"
#include "teamla/linalg/blas3.hpp"

namespace teamla::linalg::level3_detail {

// ---- argument checks (checks.cpp; each throws InvalidArgument naming routine and argument) --
void check_view(const char* routine, const char* name, index_t rows, index_t cols, index_t ld,
                Layout layout, const void* data);
void check_uplo(const char* routine, Uplo uplo);
void check_side(const char* routine, Side side);
// check_op(): none or transpose, and conj_transpose too where `conjugates` (complex operands).
void check_op(const char* routine, const char* name, Op op, bool conjugates = false);
void check_diag(const char* routine, Diag diag);
template <class T>
void check_view(const char* routine, const char* name, const MatrixView<T>& view) {
  check_view(routine, name, view.rows, view.cols, view.ld, view.layout, view.data);
}
// check_views(): check_view() of each named view in turn, e.g. (routine, "A", a, "B", b).
template <class T, class... More>
void check_views(const char* routine, const char* name, const MatrixView<T>& view,
                 const More&... more) {
  check_view(routine, name, view);
  if constexpr (sizeof...(more) > 0) check_views(routine, more...);
}
// check_square(): the matrix `name` ("A", "C") is square.
void check_square(const char* routine, const char* name, index_t rows, index_t cols);
// check_same_shape(): the matrix `name` (rows x cols) has the shape of `other`.
void check_same_shape(const char* routine, const char* name, index_t rows, index_t cols,
                      const char* other, index_t other_rows, index_t other_cols);
// check_side_order(): the triangular or symmetric A of a call on side `side` is square and has
// the order of `other` ("B" or "C", rows x cols): its rows on the left, its columns on the right.
void check_side_order(const char* routine, Side side, index_t a_rows, index_t a_cols,
                      const char* other, index_t rows, index_t cols);
// check_rows(): `what` (the matrix `name`, or op() of it), rows x cols, has `needed` rows, those
// of `other`.
void check_rows(const char* routine, const char* name, const char* what, index_t rows, index_t cols,
                const char* other, index_t other_rows, index_t other_cols, index_t needed);
// scale_lower(): C_lower = beta * C_lower (beta == 0 writes zeros without reading C).
template <class T>
void scale_lower(MatrixView<T> c, T beta);

// rank_k_lower(): the lower triangle a rank-k update of C (syrk, syr2k) writes, C's upper
// triangle seen transposed for Uplo::upper, after resetting exec.stats; std::nullopt when
// nothing is left to compute: C is empty, or alpha or k is 0 and the triangle has been scaled
// by beta without reading the operands.
template <class T>
std::optional<MatrixView<T>> rank_k_lower(Uplo uplo, T alpha, index_t k, T beta, MatrixView<T> c,
                                          Exec& exec) {
  exec.stats = {};
  if (c.rows == 0) return std::nullopt;
  const MatrixView<T> lower = uplo == Uplo::upper ? c.transposed() : c;
  if (alpha == T(0) || k == 0) {
    scale_lower(lower, beta);
    return std::nullopt;
  }
  return lower;
}

// LeftTriangular: a TRSM or TRMM call reduced by the view identities to its canonical case,
// op(A) * X with A on the left, lower or upper, untransposed.
template <class T>
struct LeftTriangular {
  MatrixView<const T> a;
  MatrixView<T> b;
  bool lower;
  bool unit;
};

// to_left_triangular(): checks the arguments of `routine` (trsm, trmm), resets exec.stats,
// and reduces the call; std::nullopt when nothing is left to compute: B is empty, or alpha
// is 0 and B has been zeroed without reading A.
template <class T>
std::optional<LeftTriangular<T>> to_left_triangular(const char* routine, Side side, Uplo uplo,
                                                    Op op_a, Diag diag, T alpha,
                                                    MatrixView<const T> a, MatrixView<T> b,
                                                    Exec& exec);

[[noreturn]] void fail_shape(const char* routine, const std::string& argument,
                             const std::string& what);

// ---- serial building blocks (the canonical cases) ----------------------------------------
// trsm_left_serial(): B = inv(A) * B with A square, no transpose, `lower` or upper; any
// layouts. Recursive: leaves of kLeafSolve, gemm for the off-diagonal updates.
template <class T>
void trsm_left_serial(bool lower, bool unit, MatrixView<const T> a, MatrixView<T> b);
// The complex forms: the complex solve's recursion (level3/complex_triangular.cpp).
template <>
void trsm_left_serial<std::complex<double>>(bool lower, bool unit,
                                            MatrixView<const std::complex<double>> a,
                                            MatrixView<std::complex<double>> b);
template <>
void trsm_left_serial<std::complex<float>>(bool lower, bool unit,
                                           MatrixView<const std::complex<float>> a,
                                           MatrixView<std::complex<float>> b);

// syrk_lower_cols(): on the lower triangle of C, columns [c0, c1) only:
// C = alpha * A * A^T + beta * C, A is n x k. Serial.
template <class T>
void syrk_lower_cols(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c, index_t c0,
                     index_t c1);

// syr2k_lower_cols(): the same for C = alpha * (A * B^T + B * A^T) + beta * C, A and B n x k.
template <class T>
void syr2k_lower_cols(T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                      MatrixView<T> c, index_t c0, index_t c1);

// trsm_left_parallel() / syrk_lower_parallel(): the same, on a section whose width the cost
// model picks from exec (team, max_width); they count what they open in exec.stats and
// return the width used.
template <class T>
std::size_t trsm_left_parallel(bool lower, bool unit, MatrixView<const T> a, MatrixView<T> b,
                               Exec& exec);
template <class T>
std::size_t syrk_lower_parallel(T alpha, MatrixView<const T> a, T beta, MatrixView<T> c,
                                Exec& exec);

// split_rows(): the split point of a recursive TRSM or TRMM step: near the middle, on a multiple of
// 16 so that gemm's operands start on register-tile boundaries.
inline index_t split_rows(index_t m) {
  const index_t half = (m / 2 + 15) / 16 * 16;
  return half < m ? half : m / 2;
}

// slice_edge(): the first column of slice `u` of `slices` over n right-hand sides (trsm's and
// trmm's claimed slices): on multiples of 16 columns, one AVX-512 vector of floats, so that
// no two slices share a cache line of a B whose rows are contiguous; n for u == slices.
inline index_t slice_edge(index_t n, std::size_t u, std::size_t slices) {
  if (u >= slices) return n;
  return std::min<index_t>(
      n, (n * static_cast<index_t>(u) / static_cast<index_t>(slices) + 15) / 16 * 16);
}

// balanced_split(): the column where participant `part` of `parts` starts, so that each
// gets an equal share of the lower triangle of an n x n matrix (area of columns [c0, c1)).
index_t balanced_split(index_t n, std::size_t part, std::size_t parts, index_t align);

// potrf_lower(): the blocked right-looking Cholesky of a square lower triangle (any layout),
// LAPACK-exact on failure; steps run on sections of exec's team. Returns info.
// potrf_lower_serial() is the same on the calling thread alone.
template <class T>
index_t potrf_lower(MatrixView<T> a, Exec& exec);
template <class T>
index_t potrf_lower_serial(MatrixView<T> a);

// factor_diagonal(): the lower triangle of `d` (any layout) factored on a contiguous copy; the
// factor is written back only on success, so a failure (info > 0) leaves `d` as it was.
// Without memory for the copy, a block of up to kStackTile is copied to the stack instead,
// and a larger one is left untouched and kNoScratch returned.
constexpr index_t kStackTile = 64;  // 64 x 64 doubles: 32 KiB of stack
constexpr index_t kNoScratch = -2;
template <class T>
index_t factor_diagonal(MatrixView<T> d);

// potrf_parallel_step(): the panel solve and trailing update of the blocked step at column k
// (block kb) of the lower triangle `a` on one section of `width` (potrf_step.cpp). With
// next_kb > 0 (lookahead) it also factors the next diagonal block, packs it for the next
// step's panel solve into the workspace's shared buffer, and returns its info. Pass
// triangle_packed = true when the previous step did that for this one (nothing else may use
// the shared buffer in between). Returns kStepNotAhead when memory was short: for the shared
// buffer (the step then ran inline) or for the next block's copy; either way the next
// diagonal block is not factored.
constexpr index_t kStepNotAhead = -1;
template <class T>
index_t potrf_parallel_step(MatrixView<T> a, index_t k, index_t kb, std::size_t width,
                            index_t next_kb, bool triangle_packed, Exec& exec);

// Bench and test hooks (not thread-safe: set between calls). set_potrf_block_override()
// forces the block size (a multiple of 64; 0: the measured default);
// set_potrf_lookahead_override() forces lookahead on (1) or off (0), -1: the default.
void set_potrf_block_override(index_t nb);
void set_potrf_lookahead_override(int enabled);

// scratch(): the calling thread's buffer with room for `count` elements, 64-byte aligned,
// for POTRF's diagonal-block copy (its only user); it only grows, and its contents are not
// kept across a growth.
template <class T>
T* scratch(std::size_t count);
// try_scratch(): scratch(), or nullptr when the buffer cannot grow.
template <class T>
T* try_scratch(std::size_t count) noexcept;

}  // namespace teamla::linalg::level3_detail
