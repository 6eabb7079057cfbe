// SPDX-License-Identifier: Apache-2.0
// getrf_step.cpp: a getrf step's update of the columns right of its panel, inline or on a
// claimed section.
//
// The columns right of the panel are independent of one another in a step: each needs the
// panel's interchanges, its solve with L11 and its gemm with L21, and nothing from its
// neighbours. So the section's units are strips of columns, claimed in order: a participant
// that starts late leaves its strips to the others. Lookahead: the strip of the next panel
// comes first, and whoever finishes it factors that panel at once, while the others go on with
// the remaining strips; the next step then starts with its panel done.
//
// Every strip multiplies by the same L21. A strip's own gemm would pack L21 again for each
// strip (as many times as there are strips, where one gemm over all the columns packs it
// once), so with column-major storage the section first packs L21 once, in row groups that
// are units of their own, into the shared buffer; each strip then waits for the groups (all
// claimed before it, so their holders are running), packs its U12 and runs the microkernel
// over the packed L21, mc rows at a time so that a block of it stays in L2. A complex step does
// the same on the real kernel with 1m-packed operands (getrf_packing.hpp).
#include <algorithm>
#include <atomic>

#include "factor/getrf_packing.hpp"
#include "factor/lu_internal.hpp"
#include "isa_dispatch.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {
namespace {

// strip_cols(): the width of the strips after the lookahead strip: about kPerParticipant
// strips per participant, so that claiming can even out a late start, on multiples of 16
// columns, between kMin (each strip solves and packs its U12 and reads through L21 on its own:
// narrow strips would pay that for little work) and kMax (beyond it the last strips come too
// late to balance).
index_t strip_cols(index_t cols, std::size_t width) {
  constexpr index_t kPerParticipant = 4;
  constexpr index_t kMin = 64;
  constexpr index_t kMax = 256;
  const index_t share = cols / (kPerParticipant * static_cast<index_t>(width));
  return std::clamp<index_t>((share + 15) / 16 * 16, kMin, kMax);
}

// kUpdateChunk: the columns an inline update takes through its interchanges, solve and
// product at a time, so that the columns the interchanges bring into cache are still there.
// 512: faster than 64 and 128 at 1 thread, n = 1024 and 2048 (docs/perf/lu.md).
constexpr index_t kUpdateChunk = 512;

// kGroupRows: the rows of L21 one packing unit takes, a multiple of every kernel's MR.
constexpr index_t kGroupRows = 48;

// Strips: the section's units after the packing groups: the lookahead strip (`lead` columns,
// 0 without lookahead), then strips of `width` columns up to `right`.
struct Strips {
  index_t lead = 0;
  index_t width = 0;
  index_t right = 0;
  [[nodiscard]] index_t count() const {
    return (lead > 0 ? 1 : 0) + (right - lead + width - 1) / width;
  }
  // columns(): strip u's first column and its width.
  [[nodiscard]] std::pair<index_t, index_t> columns(index_t u) const {
    if (lead > 0 && u == 0) return {0, lead};
    const index_t c0 = lead + (lead > 0 ? u - 1 : u) * width;
    return {c0, std::min(width, right - c0)};
  }
};

// solve_u12(): a strip's interchanges and U12 = L11^-1 * A12.
template <class T>
void solve_u12(MatrixView<const T> panel, MatrixView<T> cols, const int* ipiv, index_t k) {
  const index_t kb = panel.cols;
  apply_swaps(cols, 0, kb, ipiv + k, k);
  trsm_left_serial<T>(true, true, panel.block(0, 0, kb, kb), cols.block(0, 0, kb, cols.cols));
}

// update_packed(): update_columns() on a column-major strip with L21 packed in a_packed. U12 is
// packed into the rank's pack_b slot, asked for after the solve (whose gemm calls use the
// rank's slots and may move them); without it, the strip's own gemm.
template <class T>
void update_packed(const StepPacking<T>& packing, MatrixView<const T> panel, MatrixView<T> cols,
                   const int* ipiv, index_t k, const typename StepPacking<T>::Packed* a_packed) {
  using Packed = typename StepPacking<T>::Packed;
  const index_t kb = panel.cols;
  solve_u12(panel, cols, ipiv, k);
  if (cols.rows == kb) return;
  const detail::RankBuffers mine = detail::unit_buffers();
  const std::size_t b_elems = packing.b_elems(cols.cols, kb);
  if (Packed* b_packed =
          mine.ws->try_buffer_of<Packed>(mine.rank, Workspace::Slot::pack_b, b_elems)) {
    packing.subtract(kb, cols, a_packed, b_packed);
    return;
  }
  team::note_shortfall(team::Shortfall::memory, b_elems * sizeof(Packed));
  Exec serial;
  gemm<T>(Op::none, Op::none, T(-1), panel.block(kb, 0, cols.rows - kb, kb),
          MatrixView<const T>(cols.block(0, 0, kb, cols.cols)), T(1),
          cols.block(kb, 0, cols.rows - kb, cols.cols), serial);
}

}  // namespace

template <class T>
void update_columns(MatrixView<const T> panel, MatrixView<T> cols, const int* ipiv, index_t k) {
  const index_t kb = panel.cols;
  const index_t below = panel.rows - kb;
  const MatrixView<const T> l11 = panel.block(0, 0, kb, kb);
  const MatrixView<const T> l21 = panel.block(kb, 0, below, kb);
  Exec serial;
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
  const index_t below = m - k - kb;
  const MatrixView<const T> panel = a.block(k, k, m - k, kb);
  MatrixView<T> trailing = a.block(k, k + kb, m - k, right);
  const index_t lead = std::min(next_kb, right);
  const Strips strips{lead, strip_cols(right - lead, width), right};
  Workspace& ws = *detail::exec_buffers(exec).ws;
  // The packed L21 in the shared buffer (column-major only: the microkernel writes C by
  // columns); without it, each strip's own gemm.
  using Packed = typename StepPacking<T>::Packed;
  const StepPacking<T> packing;
  const std::size_t a_elems = packing.a_elems(below, kb);
  Packed* a_packed = a.layout == Layout::col_major && below > 0
                         ? static_cast<Packed*>(ws.try_shared_buffer(a_elems * sizeof(Packed)))
                         : nullptr;
  if (a.layout == Layout::col_major && below > 0 && a_packed == nullptr) {
    team::note_shortfall(team::Shortfall::memory, a_elems * sizeof(Packed));
  }
  const index_t groups = a_packed != nullptr ? (below + kGroupRows - 1) / kGroupRows : 0;
  const auto units = static_cast<std::size_t>(groups + strips.count());
  std::atomic<index_t> groups_done{0};
  index_t next_info = 0;
  ++exec.stats.sections;
  exec.stats.max_width_used = std::max(exec.stats.max_width_used, std::min(width, units));
  detail::run_claimed_units(
      *exec.team, std::min(width, units), units, ws, [&](team::Section& s, std::size_t unit) {
        const auto u = static_cast<index_t>(unit);
        if (u < groups) {
          const index_t r0 = u * kGroupRows;
          packing.pack_rows(panel.block(kb + r0, 0, std::min(kGroupRows, below - r0), kb), r0,
                            a_packed);
          groups_done.fetch_add(1, std::memory_order_acq_rel);
          return;
        }
        const auto [c0, w] = strips.columns(u - groups);
        MatrixView<T> cols = trailing.block(0, c0, m - k, w);
        if (a_packed == nullptr) {
          update_columns(panel, cols, ipiv, k);
        } else {
          s.wait_for([&] { return groups_done.load(std::memory_order_acquire) == groups; });
          update_packed(packing, panel, cols, ipiv, k, a_packed);
        }
        if (lead > 0 && c0 == 0) {
          // The next panel: rows k + kb .. m of the strip just updated.
          next_info = factor_panel(a.block(k + kb, k + kb, below, lead), ipiv + k + kb, k + kb);
        }
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
template void update_columns<std::complex<double>>(MatrixView<const std::complex<double>>,
                                                   MatrixView<std::complex<double>>, const int*,
                                                   index_t);
template void update_columns<std::complex<float>>(MatrixView<const std::complex<float>>,
                                                  MatrixView<std::complex<float>>, const int*,
                                                  index_t);
template index_t getrf_parallel_step<std::complex<double>>(MatrixView<std::complex<double>>,
                                                           index_t, index_t, index_t, int*,
                                                           std::size_t, Exec&);
template index_t getrf_parallel_step<std::complex<float>>(MatrixView<std::complex<float>>, index_t,
                                                          index_t, index_t, int*, std::size_t,
                                                          Exec&);

}  // namespace teamla::linalg::level3_detail
