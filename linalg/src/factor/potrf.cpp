// SPDX-License-Identifier: Apache-2.0
// potrf.cpp: Cholesky factorization, blocked right-looking, LAPACK-exact on failure.
//
// The upper case is the lower case of the transposed view (A = U^T U is A^T = L L^T with
// L = U^T in the same storage), so only the lower triangle is factored here. Step k:
//   1. the diagonal block (kb x kb) is copied into a contiguous scratch tile and factored
//      there by a recursive kernel (potrf_tile), serially;
//   2. the panel below it is solved, L21 = A21 * L11^-T;
//   3. the trailing triangle is updated, A22 -= L21 * L21^T.
// Inline, 2 and 3 are trsm_left_serial and syrk_lower_cols. On a team they share one
// claimed section (potrf_step.cpp: the panel's row groups, then trailing tiles that wait for
// every group); the cost model picks each step's width from the step's flops and the
// measured section cost, so small matrices and the last steps run inline. Lookahead (on
// with the deeper blocks, see lookahead_enabled()): the tiles of the next diagonal block come
// first, and the participant that finishes them factors that block inside the section.
//
// Failure: LAPACK's dpotrf (reference, NB = 64) is left-looking, so when column j fails it
// leaves columns before j's 64-block factored, that block as dpotrf2 leaves it, and every
// later column untouched. The right-looking steps here have already updated the trailing
// matrix. Because the diagonal block is factored on a copy, a failure at step k leaves
// A(k:n, k:n) equal to the input minus the updates of columns [0, k), which are added back
// (one syrk); then LAPACK's own algorithm runs from column k (k is a multiple of 64) and
// produces LAPACK's state and info. Restored entries equal the input up to rounding
// (a - s + s). This path costs a factorization's worth of flops and runs only on failure.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "factor/step_width.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kLapackBlock: reference LAPACK's ILAENV block size for xPOTRF, which fixes the state a
// failed factorization leaves.
constexpr index_t kLapackBlock = 64;

// kDiagonalRateFraction: the diagonal block's factorization (potrf_tile's recursion with
// register leaves) runs at about this fraction of gemm's rate.
// 0.7: potrf_tile against gemm, 1 thread, n = 256 double (docs/perf/blocking.md).
constexpr double kDiagonalRateFraction = 0.7;

// kLeafChol: below this the recursive tile factorization calls the unblocked leaf kernel.
constexpr index_t kLeafChol = 32;

// kTileStrip / kTilePanel: the strips and panels of the trailing update inside a scratch
// tile. The tile's own update stays on gemm strips rather than the packed SYRK, which lost at
// these sizes (docs/perf/blocking.md).
// kTilePanel: the narrowest n at which gemm reached its full rate (docs/perf/blocking.md).
constexpr index_t kTileStrip = 32;
constexpr index_t kTilePanel = 256;

// Bench hooks (0 / -1: the default).
index_t block_override = 0;
int lookahead_override = -1;

// potrf_block_size(): the step width, a multiple of kLapackBlock.
// Serially the recursive tile kernel beats the blocked steps, so the block is large (512: the
// fastest of 128, 256 and 512 at 1 thread). On a team a deeper panel feeds the microkernel
// longer k loops (fewer C tile loads and stores per flop); below kWideBlockMin the extra
// serial panel costs more than that (docs/cholesky.md, "Block size").
// kSingleTileMax: up to it one serial tile beat a section of nb = 128 (docs/perf/blocking.md).
// kWideBlockMin: nb = 256 beat 128 from n = 1024 on 2 threads, lost at 512 (docs/perf/blocking.md).
constexpr index_t kSingleTileMax = 256;
constexpr index_t kWideBlockMin = 1024;

template <class T>
index_t potrf_block_size(bool on_team, index_t n) {
  if (block_override > 0) return block_override;
  if (!on_team || n <= kSingleTileMax) return 512;
  return n >= kWideBlockMin ? 256 : 128;
}

// lookahead_enabled(): by default with the deeper blocks, whose diagonal factorization
// (nb^3/3 flops at a fraction of gemm's rate, ~0.2 ms at nb = 256) the next step would
// otherwise wait for.
// nb >= 256: lookahead gained at nb = 256 and did not pay at 128 (docs/perf/blocking.md).
bool lookahead_enabled(index_t nb) {
  if (lookahead_override >= 0) return lookahead_override == 1;
  return nb >= 256;
}

index_t split_cols(index_t n) {
  const index_t half = (n / 2 + 15) / 16 * 16;
  return half < n ? half : n / 2;
}

// potrf_tile(): recursive right-looking Cholesky of the lower triangle of a scratch tile
// (column-major), serial. It also writes the tile's upper triangle, and the state it leaves
// on failure is unspecified: callers factor a copy.
template <class T>
index_t potrf_tile(MatrixView<T> a) {
  const index_t n = a.rows;
  if (n <= kLeafChol || n == kRegLeafLarge) {
    return leaf_kernels<T>().potf2_lower(a.data, n, a.ld);
  }
  const index_t n1 = split_cols(n);
  const index_t n2 = n - n1;
  if (index_t info = potrf_tile(a.block(0, 0, n1, n1)); info != 0) return info;
  MatrixView<T> a21 = a.block(n1, 0, n2, n1);
  trsm_left_serial<T>(true, false, a.block(0, 0, n1, n1), a21.transposed());
  // The tile is scratch, so the update may write into A22's upper triangle: panels of
  // kTilePanel columns, each one gemm below the panel plus strips of kTileStrip columns from
  // the diagonal down inside it. The strips waste kTileStrip/2 columns' worth of flops and
  // need no masked diagonal tiles; the panel gemm keeps gemm's n wide (see kTilePanel).
  Exec serial;
  for (index_t p = 0; p < n2; p += kTilePanel) {
    const index_t pend = std::min(p + kTilePanel, n2);
    for (index_t j = p; j < pend; j += kTileStrip) {
      const index_t jb = std::min(kTileStrip, pend - j);
      gemm<T>(Op::none, Op::transpose, T(-1), a21.block(j, 0, pend - j, n1),
              a21.block(j, 0, jb, n1), T(1), a.block(n1 + j, n1 + j, pend - j, jb), serial);
    }
    if (pend < n2) {
      gemm<T>(Op::none, Op::transpose, T(-1), a21.block(pend, 0, n2 - pend, n1),
              a21.block(p, 0, pend - p, n1), T(1), a.block(n1 + pend, n1 + p, n2 - pend, pend - p),
              serial);
    }
  }
  if (index_t info = potrf_tile(a.block(n1, n1, n2, n2)); info != 0) return info + n1;
  return 0;
}

// copy_lower(): the lower triangle of src into dst (same shape). Same layouts: contiguous
// runs. Different layouts (the upper triangle's transposed view into the column-major tile):
// a transpose in 32 x 32 blocks, so that the strided side stays within 32 cache lines. An
// element-wise strided copy takes a large share of an upper 256 factorization in perf (ld = 256
// doubles maps every row to the same L1 sets; docs/perf/blocking.md).
template <class T>
void copy_lower(MatrixView<const T> src, MatrixView<T> dst) {
  const index_t n = src.rows;
  if (src.layout == dst.layout) {
    // A column of col-major storage or a row of row-major storage is contiguous either way.
    const bool by_col = src.layout == Layout::col_major;
    for (index_t outer = 0; outer < n; ++outer) {
      const index_t lo = by_col ? outer : 0;
      const index_t hi = by_col ? n : outer + 1;
      const T* from = src.data + outer * src.ld;
      std::copy(from + lo, from + hi, dst.data + outer * dst.ld + lo);
    }
    return;
  }
  constexpr index_t kBlock = 32;
  const index_t srs = src.row_stride();
  const index_t scs = src.col_stride();
  const index_t drs = dst.row_stride();
  const index_t dcs = dst.col_stride();
  for (index_t j0 = 0; j0 < n; j0 += kBlock) {
    const index_t j1 = std::min(n, j0 + kBlock);
    for (index_t i0 = j0; i0 < n; i0 += kBlock) {
      const index_t i1 = std::min(n, i0 + kBlock);
      for (index_t i = i0; i < i1; ++i) {
        for (index_t j = j0; j < std::min(j1, i + 1); ++j) {
          dst.data[i * drs + j * dcs] = src.data[i * srs + j * scs];
        }
      }
    }
  }
}

// potrf2_lapack(): LAPACK's dpotrf2, step for step (n1 = n/2, leaves of one column), so that
// a failure leaves the block exactly as dpotrf2 does.
template <class T>
index_t potrf2_lapack(MatrixView<T> a) {
  const index_t n = a.rows;
  if (n == 0) return 0;
  if (n == 1) {
    const T pivot = a(0, 0);
    if (!(pivot > T(0))) return 1;
    a(0, 0) = std::sqrt(pivot);
    return 0;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (index_t info = potrf2_lapack(a.block(0, 0, n1, n1)); info != 0) return info;
  MatrixView<T> a21 = a.block(n1, 0, n2, n1);
  trsm_left_serial<T>(true, false, a.block(0, 0, n1, n1), a21.transposed());
  syrk_lower_cols<T>(T(-1), a21, T(1), a.block(n1, n1, n2, n2), 0, n2);
  if (index_t info = potrf2_lapack(a.block(n1, n1, n2, n2)); info != 0) return info + n1;
  return 0;
}

// replay_lapack(): columns [0, k) hold the factor and A(k:n, k:n) holds the input minus the
// updates of those columns. Adds the updates back, then runs LAPACK's blocked left-looking
// dpotrf from column k. Returns LAPACK's info (0 if it succeeds after all).
template <class T>
index_t replay_lapack(MatrixView<T> a, index_t k) {
  const index_t n = a.rows;
  if (k > 0) {
    syrk_lower_cols<T>(T(1), a.block(k, 0, n - k, k), T(1), a.block(k, k, n - k, n - k), 0, n - k);
  }
  if (n <= kLapackBlock) return potrf2_lapack(a);
  Exec serial;
  for (index_t j = k; j < n; j += kLapackBlock) {
    const index_t jb = std::min(kLapackBlock, n - j);
    MatrixView<T> diag = a.block(j, j, jb, jb);
    if (j > 0) syrk_lower_cols<T>(T(-1), a.block(j, 0, jb, j), T(1), diag, 0, jb);
    if (index_t info = potrf2_lapack(diag); info != 0) return info + j;
    if (j + jb < n) {
      MatrixView<T> panel = a.block(j + jb, j, n - j - jb, jb);
      if (j > 0) {
        gemm<T>(Op::none, Op::transpose, T(-1), a.block(j + jb, 0, n - j - jb, j),
                a.block(j, 0, jb, j), T(1), panel, serial);
      }
      trsm_left_serial<T>(true, false, diag, panel.transposed());
    }
  }
  return 0;
}

template <class T>
double step_flops(index_t rows_below, index_t kb) {
  const double m = static_cast<double>(rows_below);
  const double b = static_cast<double>(kb);
  return m * b * b + m * m * b;  // panel solve + trailing update
}

}  // namespace

// factor_diagonal(): factors the lower triangle of `d` on a contiguous copy and writes the
// factor back only on success, so a failure leaves `d` as it was.
template <class T>
index_t factor_on(MatrixView<T> d, T* tile) {
  const index_t n = d.rows;
  MatrixView<T> t = col_major(tile, n, n);
  copy_lower(MatrixView<const T>(d), t);
  if (index_t info = potrf_tile(t); info != 0) return info;
  copy_lower(MatrixView<const T>(t), d);
  return 0;
}

// factor_on_stack(): factor_on() with the copy on this thread's stack (n <= kStackTile). Not
// inlined: the tile stays out of the normal path's frame.
template <class T>
[[gnu::noinline]] index_t factor_on_stack(MatrixView<T> d) {
  alignas(64) T tile[kStackTile * kStackTile];
  return factor_on(d, tile);
}

template <class T>
index_t factor_diagonal(MatrixView<T> d) {
  const index_t n = d.rows;
  T* tile = try_scratch<T>(static_cast<std::size_t>(n * n));
  if (tile != nullptr) return factor_on(d, tile);
  team::note_shortfall(team::Shortfall::memory, static_cast<std::size_t>(n * n) * sizeof(T));
  return n <= kStackTile ? factor_on_stack(d) : kNoScratch;
}

template index_t factor_diagonal<double>(MatrixView<double>);
template index_t factor_diagonal<float>(MatrixView<float>);

template <class T>
index_t potrf_lower(MatrixView<T> a, Exec& exec) {
  const index_t n = a.rows;
  const StepWidth steps(exec, sizeof(T));
  index_t nb = potrf_block_size<T>(steps.cap() > 1, n);
  // The diagonal blocks are factored on a copy: without memory for an nb x nb one, blocks of
  // kStackTile are copied to the stack instead.
  if (try_scratch<T>(static_cast<std::size_t>(nb * nb)) == nullptr) {
    team::note_shortfall(team::Shortfall::memory, static_cast<std::size_t>(nb * nb) * sizeof(T));
    nb = std::min(nb, kStackTile);
  }
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
  bool diagonal_ready = false;  // factored ahead by the previous step (lookahead)
  for (index_t k = 0; k < n; k += nb) {
    const index_t kb = std::min(nb, n - k);
    // ahead: the previous step's section factored this block and packed it for this step's
    // panel solve.
    const bool ahead = diagonal_ready;
    if (!ahead) {
      const index_t info = factor_diagonal(a.block(k, k, kb, kb));
      if (info == kNoScratch) {
        throw std::logic_error("teamla: potrf's reserved diagonal copy went missing");
      }
      if (info != 0) return replay_lapack(a, k);
    }
    diagonal_ready = false;
    if (k + kb == n) break;
    const double step_ns = steps.serial_ns(step_flops<T>(n - k - kb, kb));
    const std::size_t width = steps.choose(step_ns);
    const bool lookahead = width > 1 && lookahead_enabled(nb);
    const index_t next_kb = lookahead ? std::min(nb, n - k - kb) : 0;
    if (width <= 1) {
      ++exec.stats.inline_regions;
      const index_t m2 = n - k - kb;
      MatrixView<T> panel = a.block(k + kb, k, m2, kb);
      trsm_left_serial<T>(true, false, a.block(k, k, kb, kb), panel.transposed());
      syrk_lower_cols<T>(T(-1), panel, T(1), a.block(k + kb, k + kb, m2, m2), 0, m2);
    } else {
      const StepWidth::WideStep timing;
      const index_t next_info = potrf_parallel_step(a, k, kb, width, next_kb, ahead, exec);
      if (next_info == kStepNotAhead) continue;  // diagonal_ready stays false
      // With lookahead the section also factors the next diagonal block: inline, that work
      // would have been done too, so it belongs in the time the section must beat.
      const double next_diagonal_flops = std::pow(static_cast<double>(next_kb), 3) / 3.0;
      timing.record(step_ns + steps.serial_ns(next_diagonal_flops, kDiagonalRateFraction));
      if (next_info != 0) return replay_lapack(a, k + kb);
    }
    diagonal_ready = lookahead;
  }
  return 0;
}
template index_t potrf_lower<double>(MatrixView<double>, Exec&);
template index_t potrf_lower<float>(MatrixView<float>, Exec&);

template <class T>
index_t potrf_lower_serial(MatrixView<T> a) {
  Exec serial;
  return potrf_lower(a, serial);
}
template index_t potrf_lower_serial<double>(MatrixView<double>);
template index_t potrf_lower_serial<float>(MatrixView<float>);

void set_potrf_block_override(index_t nb) { block_override = nb; }
void set_potrf_lookahead_override(int enabled) { lookahead_override = enabled; }

}  // namespace teamla::linalg::level3_detail

namespace teamla::linalg {

template <class T>
index_t potrf(Uplo uplo, MatrixView<T> a, Exec& exec) {
  using namespace level3_detail;
  check_potrf(uplo, a);
  exec.stats = {};
  if (a.rows == 0) return 0;
  return potrf_lower(uplo == Uplo::upper ? a.transposed() : a, exec);
}

template index_t potrf<double>(Uplo, MatrixView<double>, Exec&);
template index_t potrf<float>(Uplo, MatrixView<float>, Exec&);

}  // namespace teamla::linalg
