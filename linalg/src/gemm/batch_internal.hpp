// SPDX-License-Identifier: Apache-2.0
// batch_internal.hpp (internal): what the batch forms share (batch.cpp: items, a source,
// strided; batch_groups.cpp: groups of pointers): an item in the BLAS convention, run on
// the calling thread, and the region that runs a checked batch inline or as one claimed section.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gemm/batch_complex.hpp"
#include "gemm/gemm_internal.hpp"
#include "gemm/gemm_tiny.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/vector_view.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::batch {

// ColMajorShape: an item's arguments but its matrices' data, in the BLAS convention (gemm()'s
// layout normalisation: a row-major C is the column-major C^T = op(B)^T op(A)^T, so that C is
// n x m and the operands trade places: `swapped`).
template <class T>
struct ColMajorShape {
  Op op_a = Op::none;
  Op op_b = Op::none;
  index_t m = 0, n = 0, k = 0;
  T alpha = T(1);
  T beta = T(0);
  index_t lda = 0, ldb = 0, ldc = 0;
  bool swapped = false;
};

inline Op flipped(Op op) { return op == Op::none ? Op::transpose : Op::none; }

// as_col_major(): the op that reads `v`'s storage as the column-major matrix at v.data, v.ld.
template <class T>
Op as_col_major(Op op, const MatrixView<const T>& v) {
  return (op == Op::none) == (v.layout == Layout::col_major) ? Op::none : Op::transpose;
}

template <class T>
[[gnu::always_inline]] inline ColMajorShape<T> col_major_shape(const GemmItem<T>& it) {
  const index_t k = it.op_a == Op::none ? it.a.cols : it.a.rows;
  const Op op_a = as_col_major(it.op_a, it.a);
  const Op op_b = as_col_major(it.op_b, it.b);
  if (it.c.layout == Layout::col_major) {
    return {op_a,    op_b,    it.c.rows, it.c.cols, k,    it.alpha,
            it.beta, it.a.ld, it.b.ld,   it.c.ld,   false};
  }
  return {flipped(op_b), flipped(op_a), it.c.cols, it.c.rows, k,   it.alpha,
          it.beta,       it.b.ld,       it.a.ld,   it.c.ld,   true};
}

// run_shape(): one item on the calling thread with rank `rank`'s buffers; a tiny item takes
// gemm_tiny()'s shortcuts inline, with nothing built but its pointers (docs/gemm.md, "Batched
// GEMM").
template <class T>
[[gnu::always_inline]] inline void run_shape(const detail::KernelSet<T>& ks,
                                             const ColMajorShape<T>& s, const T* a, const T* b,
                                             T* c, Workspace& ws, std::size_t rank) {
  const T* first = s.swapped ? b : a;
  const T* second = s.swapped ? a : b;
  const auto kernel_set = [&ks]() -> const detail::KernelSet<T>& { return ks; };
  if (gemm_is_tiny(s.m, s.n, s.k) &&
      detail::tiny_shortcut(kernel_set, s.op_a, s.op_b, s.m, s.n, s.k, s.alpha, first, s.lda,
                            second, s.ldb, s.beta, c, s.ldc)) {
    return;
  }
  detail::gemm_serial(ks, s.m, s.n, s.k, s.alpha, detail::col_major_operand(s.op_a, first, s.lda),
                      detail::col_major_operand(s.op_b, second, s.ldb), s.beta, c, s.ldc, ws, rank);
}

// ItemMatrices: one item's matrices (a and b null where the item computes no product).
template <class T>
struct ItemMatrices {
  const T* a;
  const T* b;
  T* c;
};

// ShapeRun: how a batch runs its items of one shape: the shape in the BLAS convention, and the
// one kernel call it resolves to where it does (gemm_tiny.hpp, one_kernel_call()).
template <class T>
struct ShapeRun {
  ColMajorShape<T> shape;
  detail::OneKernelCall<T> call;
};

template <class T>
ShapeRun<T> shape_run(const detail::KernelSet<T>& ks, const GemmItem<T>& it) {
  const ColMajorShape<T> s = col_major_shape(it);
  return {s, detail::one_kernel_call(ks, s.op_a, s.op_b, s.m, s.n, s.k, s.alpha)};
}

// run_items_of_shape(): items [begin, end) of one shape, item i's matrices at_item(i) (a struct
// with a, b and c): one resolved kernel call each, else run_shape(). Resolved once, batches of
// 10000 items of 8^3 and of 4^3 ran faster at 1 and 2 threads (docs/perf/batch.md,
// docs/perf/blocking.md; docs/gemm.md, "Batched GEMM").
template <class T, class AtItem>
[[gnu::always_inline]] inline void run_items_of_shape(const detail::KernelSet<T>& ks,
                                                      const ShapeRun<T>& run, std::size_t begin,
                                                      std::size_t end, const AtItem& at_item,
                                                      Workspace& ws, std::size_t rank) {
  const ColMajorShape<T>& s = run.shape;
  if (run.call.tile != nullptr) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto item = at_item(i);
      run.call.tile(s.m, s.k, s.swapped ? item.b : item.a, s.lda, s.swapped ? item.a : item.b,
                    s.ldb, item.c, s.ldc, s.alpha, s.beta);
    }
  } else if (run.call.in_place != nullptr) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto item = at_item(i);
      run.call.in_place(s.m, s.n, s.k, s.swapped ? item.b : item.a, s.lda,
                        s.swapped ? item.a : item.b, s.ldb, item.c, s.ldc, s.alpha, s.beta);
    }
  } else {
    for (std::size_t i = begin; i < end; ++i) {
      const auto item = at_item(i);
      run_shape(ks, s, item.a, item.b, item.c, ws, rank);
    }
  }
}

// run_alone(): a batch of one item is a gemm: it may still use the team inside the product.
template <class T>
void run_alone(const GemmItem<T>& it, Exec& exec) {
  if constexpr (is_complex_v<T>) {
    run_complex_item<real_t<T>>(it, exec);
  } else {
    const index_t k = it.op_a == Op::none ? it.a.cols : it.a.rows;
    const detail::Strided<T> sa = detail::strided_op(it.a, it.op_a);
    const detail::Strided<T> sb = detail::strided_op(it.b, it.op_b);
    if (it.c.layout == Layout::col_major) {
      detail::gemm_strided(it.c.rows, it.c.cols, k, it.alpha, sa, sb, it.beta, it.c.data, it.c.ld,
                           exec);
    } else {
      detail::gemm_strided(it.c.cols, it.c.rows, k, it.alpha, {sb.data, sb.cs, sb.rs},
                           {sa.data, sa.cs, sa.rs}, it.beta, it.c.data, it.c.ld, exec);
    }
  }
}

// item_flops(): real flops, 8 per complex multiply-add (the rates the planner's model uses).
template <class T>
double item_flops(const GemmItem<T>& it) {
  if (it.alpha == T(0)) return 0;
  const index_t k = it.op_a == Op::none ? it.a.cols : it.a.rows;
  return (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(it.c.rows) *
         static_cast<double>(it.c.cols) * static_cast<double>(k);
}

// kUnitsPerParticipant: a batch section cuts its items into up to this many units per
// participant: finer units let the others absorb the share of a late or preempted participant
// and even out items of unequal sizes, but each switch to another run of items costs more
// than its claim.
// 8: beat 16 and 64 at 2 threads; 4 lost on double, gained on float (docs/perf/batch.md).
constexpr std::size_t kUnitsPerParticipant = 8;
// kMinUnitNs: a unit covers at least this much estimated serial work, so that its claim (one
// CAS on a shared line) stays a small share of it (a twentieth at most).
constexpr double kMinUnitNs = 2000;

// batch_units(): contiguous runs of items for a section of `width`, each at least kMinUnitNs
// of estimated work, at most kUnitsPerParticipant per participant, never more than the items.
inline std::size_t batch_units(std::size_t count, std::size_t width, double serial_ns) {
  const auto by_work = static_cast<std::size_t>(std::max(0.0, serial_ns / kMinUnitNs));
  const std::size_t wanted = std::clamp(by_work, width, kUnitsPerParticipant * width);
  return std::min(count, wanted);
}

// run_region(): `count` checked items of `flops` in all, as one region: inline, or as one
// claimed section whose units are contiguous runs of items. run_range(begin, end, ws, rank)
// computes items [begin, end) on the calling participant.
template <class T, class RunRange>
void run_region(std::size_t count, double flops, Exec& exec, const RunRange& run_range) {
  Workspace& ws = *detail::exec_buffers(exec).ws;
  RegionPlan plan;
  if (exec.team != nullptr && flops > 0) {
    plan = plan_region(RegionKind::gemm_batch, sizeof(real_t<T>), flops, exec);
    plan.width = std::min(plan.width, count);  // at most one participant per item
    exec.stats.inline_regions = plan.width == 1 ? 1 : 0;
  }
  const std::uint64_t start_ns = plan.timed || plan.width > 1 ? team::monotonic_ns() : 0;
  // Every rank's slots exist before the section; without the memory for them the items run
  // inline (each item's buffers then fall back to the stack as gemm_serial's do).
  const bool wide = plan.width > 1 && ws.try_prepare(plan.width);
  if (plan.width > 1 && !wide) team::note_shortfall(team::Shortfall::memory, 0);
  if (wide) {
    const std::size_t units = batch_units(count, plan.width, plan.must_beat_ns);
    detail::run_home_units(
        *exec.team, plan.width, units, ws, [&](team::Section& s, std::size_t unit) {
          run_range(unit * count / units, (unit + 1) * count / units, ws, s.rank());
        });
    exec.stats.max_width_used = plan.width;
    exec.stats.sections = 1;
  } else {
    run_range(std::size_t{0}, count, ws, std::size_t{0});
  }
  if (start_ns != 0 && (wide || plan.width == 1)) {
    record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  }
}

}  // namespace teamla::linalg::batch
