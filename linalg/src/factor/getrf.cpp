// SPDX-License-Identifier: Apache-2.0
// getrf.cpp: LU with partial pivoting, blocked right-looking, on sections of the team.
//
// Step k factors the panel A(k:m, k:k+kb) serially (getrf_panel.cpp: recursive, its flops in
// gemm), then updates the columns to its right: their interchanges, U12 = L11^-1 * A12 and
// A22 -= L21 * U12 (getrf_step.cpp). Each step's width is chosen from its flops
// (step_width.hpp), so small matrices and the last steps run inline. On a team the next panel
// is factored inside the step's section (lookahead), so that the serial panel overlaps the
// update instead of holding the team at every step.
//
// The interchanges of step k also apply to the columns left of it (the finished L). They are
// applied once at the end, column by column: each column of L takes all its later
// interchanges while it is in cache, where applying them step by step would fetch it again at
// every step.
#include <algorithm>

#include "factor/lu_internal.hpp"
#include "factor/step_width.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// kPanelRateFraction: the serial panel runs at about this fraction of gemm's rate (its leaves
// and pivot searches are not gemm), for the time a lookahead section must beat.
constexpr double kPanelRateFraction = 0.5;

// kSwapFlops: a row interchange costs about as long as this many gemm flops (two loads and
// two stores against gemm's FMAs), for the width of the final pass over L; a complex one moves
// twice the bytes.
constexpr double kSwapFlops = 8.0;

// kSwapChunk: columns per unit of the final pass.
constexpr index_t kSwapChunk = 64;

index_t block_override = 0;
int lookahead_override = -1;

// getrf_block_size(): the step width. Serially 256: the trailing gemm's k, and the panel's
// share of the flops stays small. On a team 128 below n = 2048, then 256.
// 128: 2-thread n = 256-1024 ran faster than with 32; 128, 192 and 256 were level from 1024
// on (docs/perf/lu.md, "Block size").
index_t getrf_block_size(bool on_team, index_t mn) {
  if (block_override > 0) return block_override;
  return on_team && mn < 2048 ? 128 : 256;
}

bool lookahead_enabled() { return lookahead_override != 0; }

// kFlopsPerMultiplyAdd: real flops of one multiply-add of T (a complex one is four real ones).
template <class T>
constexpr double kFlopsPerMultiplyAdd = is_complex_v<T> ? 8.0 : 2.0;

template <class T>
double step_flops(index_t rows_below, index_t kb, index_t right) {
  const double r = static_cast<double>(right);
  const double b = static_cast<double>(kb);
  // trsm + gemm
  return kFlopsPerMultiplyAdd<T> / 2.0 *
         (b * b * r + 2.0 * static_cast<double>(rows_below) * b * r);
}

template <class T>
double panel_flops(index_t rows, index_t kb) {
  const double b = static_cast<double>(kb);
  return kFlopsPerMultiplyAdd<T> / 2.0 * (static_cast<double>(rows) - b / 3.0) * b * b;
}

// swap_left(): the interchanges of every step after a column's block, on that column.
template <class T>
void swap_left(MatrixView<T> a, const int* ipiv, index_t mn, index_t nb, const StepWidth& steps,
               Exec& exec) {
  const index_t chunks_per_block = (nb + kSwapChunk - 1) / kSwapChunk;
  const index_t blocks = (mn + nb - 1) / nb;
  const auto chunk = [&](index_t u) {
    const index_t j = (u / chunks_per_block) * nb;
    const index_t block_end = std::min(mn, j + nb);
    const index_t c0 = j + (u % chunks_per_block) * kSwapChunk;
    const index_t c1 = std::min(block_end, c0 + kSwapChunk);
    if (c1 > c0) apply_swaps(a.block(0, c0, a.rows, c1 - c0), block_end, mn, ipiv, 0);
  };
  const auto units = static_cast<std::size_t>(blocks * chunks_per_block);
  const double swaps = static_cast<double>(mn) * static_cast<double>(mn) / 2.0;
  const std::size_t width = std::min(
      steps.choose(steps.serial_ns(swaps * kSwapFlops * (is_complex_v<T> ? 2.0 : 1.0))), units);
  if (width <= 1) {
    for (std::size_t u = 0; u < units; ++u) chunk(static_cast<index_t>(u));
    return;
  }
  ++exec.stats.sections;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, width);
  detail::run_claimed_units(*exec.team, width, units, *detail::exec_buffers(exec).ws,
                            [&](team::Section&, std::size_t u) { chunk(static_cast<index_t>(u)); });
}

template <class T>
index_t getrf_blocked(MatrixView<T> a, int* ipiv, Exec& exec) {
  const index_t m = a.rows;
  const index_t n = a.cols;
  const index_t mn = std::min(m, n);
  // The complex products run the real kernel (1m): the real type's rate, on four times the flops.
  const StepWidth steps(exec, sizeof(T) / (is_complex_v<T> ? 2 : 1));
  const index_t nb = getrf_block_size(steps.cap() > 1, mn);
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
  index_t info = 0;
  bool panel_ready = false;  // factored ahead by the previous step's section
  index_t ready_info = 0;
  for (index_t k = 0; k < mn; k += nb) {
    const index_t kb = std::min(nb, mn - k);
    const index_t panel_info =
        panel_ready ? ready_info : factor_panel(a.block(k, k, m - k, kb), ipiv + k, k);
    panel_ready = false;
    if (info == 0 && panel_info != 0) info = k + panel_info;
    const index_t right = n - k - kb;
    if (right == 0) break;
    const double step_ns = steps.serial_ns(step_flops<T>(m - k - kb, kb, right));
    const index_t next_kb = lookahead_enabled() ? std::min(nb, mn - k - kb) : 0;
    // With lookahead the next panel's strip is one participant's: a step with no columns
    // beyond it has nothing for the others to do.
    const std::size_t width = right > next_kb ? steps.choose(step_ns) : 1;
    if (width <= 1) {
      ++exec.stats.inline_regions;
      update_columns(MatrixView<const T>(a.block(k, k, m - k, kb)),
                     a.block(k, k + kb, m - k, right), ipiv, k);
      continue;
    }
    const StepWidth::WideStep timing;
    ready_info = getrf_parallel_step(a, k, kb, next_kb, ipiv, width, exec);
    // With lookahead the section also factors the next panel: inline, that work would have
    // been done too, so it belongs in the time the section must beat.
    const double next_panel_ns =
        next_kb > 0 ? steps.serial_ns(panel_flops<T>(m - k - kb, next_kb), kPanelRateFraction) : 0;
    timing.record(step_ns + next_panel_ns);
    panel_ready = next_kb > 0;
  }
  if (mn > nb) swap_left(a, ipiv, mn, nb, steps, exec);
  return info;
}

}  // namespace

void set_getrf_block_override(index_t nb) { block_override = nb; }
void set_getrf_lookahead_override(int enabled) { lookahead_override = enabled; }

}  // namespace teamla::linalg::level3_detail

namespace teamla::linalg {

template <class T>
index_t getrf(MatrixView<T> a, int* ipiv, Exec& exec) {
  check_getrf(a, ipiv);
  exec.stats = {};
  if (a.rows == 0 || a.cols == 0) return 0;
  return level3_detail::getrf_blocked(a, ipiv, exec);
}

template index_t getrf<double>(MatrixView<double>, int*, Exec&);
template index_t getrf<float>(MatrixView<float>, int*, Exec&);
template index_t getrf<std::complex<double>>(MatrixView<std::complex<double>>, int*, Exec&);
template index_t getrf<std::complex<float>>(MatrixView<std::complex<float>>, int*, Exec&);

}  // namespace teamla::linalg
