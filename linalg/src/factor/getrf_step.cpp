// SPDX-License-Identifier: Apache-2.0
// getrf_step.cpp: a getrf step's update of the columns right of its panel, inline or on a
// claimed section.
//
// The columns right of the panel are independent of one another in a step: each needs the
// panel's interchanges, its solve with L11 and its gemm with L21, and nothing from its
// neighbours. So the section's units are strips of columns, claimed in order: a participant
// that starts late leaves its strips to the others, and no unit waits for another. Lookahead:
// the strip of the next panel comes first, and whoever finishes it factors that panel at
// once, while the others go on with the remaining strips; the next step then starts with its
// panel done.
#include <algorithm>
#include <atomic>

#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// strip_cols(): the width of the strips after the lookahead strip: about kStripsPerParticipant
// strips per participant, so that claiming can even out a late start, on multiples of 16
// columns, between kMinStrip (a strip's gemm re-reads L21: narrow strips would pay that for
// little work) and kMaxStrip (beyond it the last strips come too late to balance).
constexpr index_t kStripsPerParticipant = 4;
constexpr index_t kMinStrip = 64;
constexpr index_t kMaxStrip = 256;

// kUpdateChunk: the columns an update takes through its interchanges, solve and product at a
// time.
constexpr index_t kUpdateChunk = 512;

index_t strip_cols(index_t cols, std::size_t width) {
  const index_t share = cols / (kStripsPerParticipant * static_cast<index_t>(width));
  return std::clamp<index_t>((share + 15) / 16 * 16, kMinStrip, kMaxStrip);
}

}  // namespace

template <class T>
void update_columns(MatrixView<const T> panel, MatrixView<T> cols, const int* ipiv, index_t k) {
  const index_t kb = panel.cols;
  const index_t below = panel.rows - kb;
  const MatrixView<const T> l11 = panel.block(0, 0, kb, kb);
  const MatrixView<const T> l21 = panel.block(kb, 0, below, kb);
  Exec serial;
  // In chunks, so that the columns the interchanges bring into cache are still there for the
  // solve and the product.
  for (index_t c0 = 0; c0 < cols.cols; c0 += kUpdateChunk) {
    MatrixView<T> chunk = cols.block(0, c0, cols.rows, std::min(kUpdateChunk, cols.cols - c0));
    apply_swaps(chunk, 0, kb, ipiv + k, k);
    MatrixView<T> u12 = chunk.block(0, 0, kb, chunk.cols);
    trsm_left_serial<T>(true, true, l11, u12);
    if (below > 0) {
      gemm<T>(Op::none, Op::none, T(-1), l21, MatrixView<const T>(u12), T(1),
              chunk.block(kb, 0, below, chunk.cols), serial);
    }
  }
}

template <class T>
index_t getrf_parallel_step(MatrixView<T> a, index_t k, index_t kb, index_t next_kb, int* ipiv,
                            std::size_t width, Exec& exec) {
  const index_t m = a.rows;
  const index_t right = a.cols - k - kb;
  const MatrixView<const T> panel = a.block(k, k, m - k, kb);
  MatrixView<T> trailing = a.block(k, k + kb, m - k, right);
  const index_t lead = std::min(next_kb, right);
  const index_t strip = strip_cols(right - lead, width);
  const index_t strips = (right - lead + strip - 1) / strip;
  const auto units = static_cast<std::size_t>(strips + (lead > 0 ? 1 : 0));
  index_t next_info = 0;
  ++exec.stats.sections;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, std::min(width, units));
  Workspace& ws = *detail::exec_buffers(exec).ws;
  detail::run_claimed_units(
      *exec.team, std::min(width, units), units, ws, [&](team::Section&, std::size_t unit) {
        auto u = static_cast<index_t>(unit);
        if (lead > 0 && u == 0) {
          update_columns(panel, trailing.block(0, 0, m - k, lead), ipiv, k);
          // The next panel: rows k + kb .. m of the strip just updated.
          next_info =
              factor_panel(a.block(k + kb, k + kb, m - k - kb, lead), ipiv + k + kb, k + kb);
          return;
        }
        if (lead > 0) --u;
        const index_t c0 = lead + u * strip;
        const index_t c1 = std::min(right, c0 + strip);
        update_columns(panel, trailing.block(0, c0, m - k, c1 - c0), ipiv, k);
      });
  return next_info;
}

template void update_columns<double>(MatrixView<const double>, MatrixView<double>, const int*,
                                     index_t);
template void update_columns<float>(MatrixView<const float>, MatrixView<float>, const int*,
                                    index_t);
template index_t getrf_parallel_step<double>(MatrixView<double>, index_t, index_t, index_t, int*,
                                             std::size_t, Exec&);
template index_t getrf_parallel_step<float>(MatrixView<float>, index_t, index_t, index_t, int*,
                                            std::size_t, Exec&);

}  // namespace teamla::linalg::level3_detail
