// SPDX-License-Identifier: Apache-2.0
// gemm_batch.cpp: batched GEMM (batch.hpp): validate every item, then run the items serially
// or in one claimed section whose units are contiguous runs of items.
//
// Each item goes through gemm_serial() with the rank's workspace buffers: the small-matrix
// path reads small A and B in place, so a batch packs no more than the same loop of gemm()
// calls. The width is planned once, for the batch's total flops (RegionKind::gemm_batch); a
// section then costs one dispatch for the whole batch instead of none per item (too small to
// pay) or one per item.
#include <algorithm>
#include <cstdint>
#include <string>

#include "gemm_internal.hpp"
#include "gemm_tiny.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

// kUnitsPerParticipant: a batch section cuts its items into up to this many units per
// participant. More than gemm's 4: items have no micro-tiles to keep whole, a claim costs
// ~100 ns, and finer units let the others absorb the share of a late or preempted
// participant, and even out items of unequal sizes.
constexpr std::size_t kUnitsPerParticipant = 16;
// kMinUnitNs: a unit covers at least this much estimated serial work, so that its claim (one
// CAS on a shared line) stays under ~5 % of it.
constexpr double kMinUnitNs = 2000;

bool view_ok(index_t rows, index_t cols, index_t ld, Layout layout, const void* data) {
  if (rows < 0 || cols < 0) return false;
  if (layout != Layout::col_major && layout != Layout::row_major) return false;
  const index_t inner = layout == Layout::col_major ? rows : cols;
  if (ld < std::max<index_t>(1, inner)) return false;
  return data != nullptr || rows == 0 || cols == 0;
}

bool op_ok(Op op) { return op == Op::none || op == Op::transpose; }

template <class T>
index_t op_rows(Op op, const MatrixView<const T>& v) {
  return op == Op::none ? v.rows : v.cols;
}
template <class T>
index_t op_cols(Op op, const MatrixView<const T>& v) {
  return op == Op::none ? v.cols : v.rows;
}

// item_ok(): the checks of gemm() and the engine's validate_gemm(), as one cheap test; the
// message is built by item_error() only when it fails.
template <class T>
bool item_ok(const GemmItem<T>& it) {
  const auto& a = it.a;
  const auto& b = it.b;
  const auto& c = it.c;
  return op_ok(it.op_a) && op_ok(it.op_b) && view_ok(a.rows, a.cols, a.ld, a.layout, a.data) &&
         view_ok(b.rows, b.cols, b.ld, b.layout, b.data) &&
         view_ok(c.rows, c.cols, c.ld, c.layout, c.data) && op_rows(it.op_a, a) == c.rows &&
         op_rows(it.op_b, b) == op_cols(it.op_a, a) && op_cols(it.op_b, b) == c.cols;
}

std::string shape(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

template <class T>
std::string view_problem(const char* name, const MatrixView<const T>& v) {
  const std::string n(name);
  if (!view_ok(v.rows, v.cols, v.ld, v.layout, v.data)) {
    return n + " (" + shape(v.rows, v.cols) + ", ld " + std::to_string(v.ld) +
           ") has a negative shape, an invalid layout, an ld below its " +
           (v.layout == Layout::row_major ? "columns" : "rows") + ", or null data";
  }
  return {};
}

template <class T>
[[noreturn, gnu::noinline]] void item_error(const char* routine, std::size_t index,
                                            const GemmItem<T>& it) {
  const std::string item = "items[" + std::to_string(index) + "]";
  std::string why;
  if (!op_ok(it.op_a) || !op_ok(it.op_b)) {
    why = "op_a or op_b is not Op::none or Op::transpose";
  } else if (std::string p = view_problem("A", it.a); !p.empty()) {
    why = p;
  } else if (std::string p2 = view_problem("B", it.b); !p2.empty()) {
    why = p2;
  } else if (std::string p3 = view_problem("C", MatrixView<const T>(it.c)); !p3.empty()) {
    why = p3;
  } else {
    why = "op(A) is " + shape(op_rows(it.op_a, it.a), op_cols(it.op_a, it.a)) + ", op(B) " +
          shape(op_rows(it.op_b, it.b), op_cols(it.op_b, it.b)) + " and C " +
          shape(it.c.rows, it.c.cols) + ": they do not chain";
  }
  throw InvalidArgument(routine, item, item + ": " + why);
}

template <class T>
double item_flops(const GemmItem<T>& it) {
  if (it.alpha == T(0)) return 0;
  return 2.0 * static_cast<double>(it.c.rows) * static_cast<double>(it.c.cols) *
         static_cast<double>(op_cols(it.op_a, it.a));
}

// as_col_major(): the op that reads `v`'s storage as the column-major matrix at v.data, v.ld.
template <class T>
Op as_col_major(Op op, const MatrixView<const T>& v) {
  return (op == Op::none) == (v.layout == Layout::col_major) ? Op::none : Op::transpose;
}

Op flipped(Op op) { return op == Op::none ? Op::transpose : Op::none; }

// run_item(): one item on the calling thread with rank `rank`'s buffers, in the BLAS convention
// (gemm()'s layout normalisation: a row-major C is the column-major C^T = op(B)^T op(A)^T); a
// tiny item takes gemm_tiny()'s shortcuts inline, with nothing built but its pointers.
template <class T>
[[gnu::always_inline]] inline void run_col_major(const detail::KernelSet<T>& ks, Op op_a, Op op_b,
                                                 index_t m, index_t n, index_t k, T alpha,
                                                 const T* a, index_t lda, const T* b, index_t ldb,
                                                 T beta, T* c, index_t ldc, Workspace& ws,
                                                 std::size_t rank) {
  const auto kernel_set = [&ks]() -> const detail::KernelSet<T>& { return ks; };
  if (gemm_is_tiny(m, n, k) &&
      detail::tiny_shortcut(kernel_set, op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) {
    return;
  }
  detail::gemm_serial(ks, m, n, k, alpha, detail::col_major_operand(op_a, a, lda),
                      detail::col_major_operand(op_b, b, ldb), beta, c, ldc, ws, rank);
}

template <class T>
void run_item(const detail::KernelSet<T>& ks, const GemmItem<T>& it, Workspace& ws,
              std::size_t rank) {
  const index_t k = op_cols(it.op_a, it.a);
  const Op op_a = as_col_major(it.op_a, it.a);
  const Op op_b = as_col_major(it.op_b, it.b);
  if (it.c.layout == Layout::col_major) {
    run_col_major(ks, op_a, op_b, it.c.rows, it.c.cols, k, it.alpha, it.a.data, it.a.ld, it.b.data,
                  it.b.ld, it.beta, it.c.data, it.c.ld, ws, rank);
  } else {
    run_col_major(ks, flipped(op_b), flipped(op_a), it.c.cols, it.c.rows, k, it.alpha, it.b.data,
                  it.b.ld, it.a.data, it.a.ld, it.beta, it.c.data, it.c.ld, ws, rank);
  }
}

// run_alone(): a batch of one item is a gemm: it may still use the team inside the product.
template <class T>
void run_alone(const GemmItem<T>& it, Exec& exec) {
  const index_t k = op_cols(it.op_a, it.a);
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

// batch_units(): contiguous runs of items for a section of `width`, each at least kMinUnitNs
// of estimated work, at most kUnitsPerParticipant per participant, never more than the items.
std::size_t batch_units(std::size_t count, std::size_t width, double serial_ns) {
  const auto by_work = static_cast<std::size_t>(std::max(0.0, serial_ns / kMinUnitNs));
  const std::size_t wanted = std::clamp(by_work, width, kUnitsPerParticipant * width);
  return std::min(count, wanted);
}

// plan_batch(): the width for `flops` of items, at most one participant per item.
RegionPlan plan_batch(std::size_t scalar_bytes, std::size_t count, double flops, Exec& exec) {
  RegionPlan plan;
  if (exec.team == nullptr || flops <= 0) return plan;
  plan = plan_region(RegionKind::gemm_batch, scalar_bytes, flops, exec);
  plan.width = std::min(plan.width, count);
  exec.stats.inline_regions = plan.width == 1 ? 1 : 0;
  return plan;
}

// run_validated(): the items, all already validated, with `flops` their total.
template <class T, class ItemAt>
void run_validated(std::size_t count, const ItemAt& item_at, double flops, Exec& exec) {
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (count == 0) return;
  if (count == 1) {
    run_alone(item_at(0), exec);
    return;
  }
  Workspace& ws = exec.workspace != nullptr ? *exec.workspace : thread_local_workspace();
  const detail::KernelSet<T> ks = detail::kernels<T>();
  const RegionPlan plan = plan_batch(sizeof(T), count, flops, exec);
  const std::uint64_t start_ns = plan.timed || plan.width > 1 ? team::monotonic_ns() : 0;
  // Every rank's slots exist before the section; without the memory for them the items run
  // inline (each item's buffers then fall back to the stack as gemm_serial's do).
  const bool wide = plan.width > 1 && ws.try_prepare(plan.width);
  if (plan.width > 1 && !wide) team::note_shortfall(team::Shortfall::memory, 0);
  if (wide) {
    const std::size_t units = batch_units(count, plan.width, plan.must_beat_ns);
    exec.team->run_claimed(plan.width, units, [&](team::Section& s, std::size_t unit) {
      const std::size_t end = (unit + 1) * count / units;
      for (std::size_t i = unit * count / units; i < end; ++i) {
        run_item(ks, item_at(i), ws, s.rank());
      }
    });
    exec.stats.max_width_used = plan.width;
    exec.stats.sections = 1;
  } else {
    for (std::size_t i = 0; i < count; ++i) run_item(ks, item_at(i), ws, 0);
  }
  if (start_ns != 0 && (wide || plan.width == 1)) {
    record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  }
}

// validate_all(): every item checked before any is computed; returns the total flops.
template <class T, class ItemAt>
double validate_all(const char* routine, std::size_t count, const ItemAt& item_at) {
  double flops = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const GemmItem<T> it = item_at(i);
    if (!item_ok(it)) item_error(routine, i, it);
    flops += item_flops(it);
  }
  return flops;
}

// extent(): the elements one view spans (0 when empty).
template <class T>
index_t extent(const MatrixView<T>& v) {
  if (v.rows == 0 || v.cols == 0) return 0;
  return v.layout == Layout::col_major ? (v.cols - 1) * v.ld + v.rows
                                       : (v.rows - 1) * v.ld + v.cols;
}

[[noreturn]] void stride_error(const char* name, index_t stride, const std::string& need) {
  throw InvalidArgument("gemm_batch_strided", name,
                        std::string(name) + " = " + std::to_string(stride) + " " + need);
}

template <class T>
void check_strides(index_t stride_a, index_t stride_b, const MatrixView<T>& c, index_t stride_c,
                   index_t count) {
  if (count < 0) {
    throw InvalidArgument("gemm_batch_strided", "count",
                          "count = " + std::to_string(count) + " is negative");
  }
  if (stride_a < 0) stride_error("stride_a", stride_a, "is negative");
  if (stride_b < 0) stride_error("stride_b", stride_b, "is negative");
  if (count > 1 && stride_c < extent(c)) {
    stride_error("stride_c", stride_c,
                 "is less than the " + std::to_string(extent(c)) +
                     " elements one C spans: the Cs would overlap");
  }
}

template <class T>
const T* moved(const T* data, index_t stride, std::size_t index) {
  return data == nullptr ? data : data + stride * static_cast<index_t>(index);
}

}  // namespace

template <class T>
void gemm_batch(std::span<const GemmItem<T>> items, Exec& exec) {
  const auto item_at = [items](std::size_t i) -> const GemmItem<T>& { return items[i]; };
  const double flops = validate_all<T>("gemm_batch", items.size(), item_at);
  run_validated<T>(items.size(), item_at, flops, exec);
}

template <class T>
void gemm_batch(const GemmBatchSource<T>& source, Exec& exec) {
  if (source.count != 0 && source.item == nullptr) {
    throw InvalidArgument("gemm_batch", "source", "source.item is null");
  }
  const auto item_at = [&source](std::size_t i) { return source.item(source.context, i); };
  const double flops = validate_all<T>("gemm_batch", source.count, item_at);
  run_validated<T>(source.count, item_at, flops, exec);
}

template <class T>
void gemm_batch_strided(Op op_a, Op op_b, T alpha, MatrixView<const T> a, index_t stride_a,
                        MatrixView<const T> b, index_t stride_b, T beta, MatrixView<T> c,
                        index_t stride_c, index_t count, Exec& exec) {
  check_strides(stride_a, stride_b, c, stride_c, count);
  const GemmItem<T> first{op_a, op_b, alpha, a, b, beta, c};
  if (!item_ok(first)) item_error("gemm_batch_strided", 0, first);
  const auto item_at = [&](std::size_t i) {
    GemmItem<T> it = first;
    it.a.data = moved(a.data, stride_a, i);
    it.b.data = moved(b.data, stride_b, i);
    it.c.data = c.data == nullptr ? c.data : c.data + stride_c * static_cast<index_t>(i);
    return it;
  };
  const auto n = static_cast<std::size_t>(count);
  run_validated<T>(n, item_at, item_flops(first) * static_cast<double>(n), exec);
}

#define TEAMLA_GEMM_BATCH_INSTANTIATE(T)                                                       \
  template void gemm_batch<T>(std::span<const GemmItem<T>>, Exec&);                            \
  template void gemm_batch<T>(const GemmBatchSource<T>&, Exec&);                               \
  template void gemm_batch_strided<T>(Op, Op, T, MatrixView<const T>, index_t,                 \
                                      MatrixView<const T>, index_t, T, MatrixView<T>, index_t, \
                                      index_t, Exec&);
TEAMLA_GEMM_BATCH_INSTANTIATE(double)
TEAMLA_GEMM_BATCH_INSTANTIATE(float)
#undef TEAMLA_GEMM_BATCH_INSTANTIATE

}  // namespace teamla::linalg
