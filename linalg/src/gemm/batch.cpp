// SPDX-License-Identifier: Apache-2.0
// batch.cpp: batched GEMM (batch.hpp): validate every item, then run the items serially
// or in one claimed section whose units are contiguous runs of items.
//
// Each item runs as batch_internal.hpp's run_shape(): gemm_serial() with the rank's workspace
// buffers, a tiny item through gemm_tiny()'s shortcuts first; the small-matrix path reads small A
// and B in place, so a batch packs no more than the same loop of gemm() calls. The width is
// planned once, for the batch's total flops (RegionKind::gemm_batch); a section then costs one
// dispatch for the whole batch instead of none per item (too small to pay) or one per item.
// A complex item runs the complex product instead, on the same thread (batch_complex.hpp).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>

#include "gemm/batch_checks.hpp"
#include "gemm/batch_complex.hpp"
#include "gemm/batch_internal.hpp"
#include "gemm/gemm_internal.hpp"
#include "teamla/linalg/batch.hpp"

namespace teamla::linalg {
namespace {

// run_batch(): `count` validated items of `flops` in all: none, one alone (first_item(): it may
// use the team inside its product), or batch_internal.hpp's region over run_range().
template <class T, class FirstItem, class RunRange>
void run_batch(std::size_t count, double flops, Exec& exec, const FirstItem& first_item,
               const RunRange& run_range) {
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (count == 0) return;
  if (count == 1) {
    batch::run_alone(first_item(), exec);
    return;
  }
  batch::run_region<T>(count, flops, exec, run_range);
}

// run_validated(): the items, all already validated, each normalised to the BLAS convention
// as it runs.
template <class T, class ItemAt>
void run_validated(std::size_t count, const ItemAt& item_at, double flops, Exec& exec) {
  if constexpr (is_complex_v<T>) {
    run_batch<T>(
        count, flops, exec, [&] { return item_at(0); },
        [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
          batch::run_complex_items<real_t<T>>(begin, end, item_at, ws, rank);
        });
  } else {
    const detail::KernelSet<T> ks = detail::kernels<T>();
    run_batch<T>(
        count, flops, exec, [&] { return item_at(0); },
        [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
          for (std::size_t i = begin; i < end; ++i) {
            const GemmItem<T>& it = item_at(i);
            batch::run_shape(ks, batch::col_major_shape(it), it.a.data, it.b.data, it.c.data, ws,
                             rank);
          }
        });
  }
}

// validate_all(): every item checked before any is computed; returns the total flops.
template <class T, class ItemAt>
double validate_all(const char* routine, std::size_t count, const ItemAt& item_at) {
  double flops = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const GemmItem<T> it = item_at(i);
    if (!batch::item_ok(it)) batch::item_error(routine, "items[" + std::to_string(i) + "]", it);
    flops += batch::item_flops(it);
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

// moved(): item `index`'s matrix of a strided batch (null stays null: an unused operand).
template <class Pointer>
Pointer moved(Pointer data, index_t stride, std::size_t index) {
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
  if (!batch::item_ok(first)) batch::item_error("gemm_batch_strided", "items[0]", first);
  const auto n = static_cast<std::size_t>(count);
  const double flops = batch::item_flops(first) * static_cast<double>(n);
  if constexpr (is_complex_v<T>) {
    const auto item_at = [&](std::size_t i) {
      GemmItem<T> it = first;
      it.a.data = moved(a.data, stride_a, i);
      it.b.data = moved(b.data, stride_b, i);
      it.c.data = moved(c.data, stride_c, i);
      return it;
    };
    run_batch<T>(
        n, flops, exec, [&] { return first; },
        [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
          batch::run_complex_items<real_t<T>>(begin, end, item_at, ws, rank);
        });
  } else {
    // The items differ only in their pointers: the shape is normalised (and its kernel call
    // resolved) once, as the group form's is per group (batch_groups.cpp), and an item is
    // three pointers and its kernel.
    const detail::KernelSet<T> ks = detail::kernels<T>();
    const batch::ShapeRun<T> run = batch::shape_run(ks, first);
    const auto at_item = [&](std::size_t i) {
      return batch::ItemMatrices<T>{moved(a.data, stride_a, i), moved(b.data, stride_b, i),
                                    moved(c.data, stride_c, i)};
    };
    run_batch<T>(
        n, flops, exec, [&] { return first; },
        [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
          batch::run_items_of_shape(ks, run, begin, end, at_item, ws, rank);
        });
  }
}

#define TEAMLA_GEMM_BATCH_INSTANTIATE(T)                                                       \
  template void gemm_batch<T>(std::span<const GemmItem<T>>, Exec&);                            \
  template void gemm_batch<T>(const GemmBatchSource<T>&, Exec&);                               \
  template void gemm_batch_strided<T>(Op, Op, T, MatrixView<const T>, index_t,                 \
                                      MatrixView<const T>, index_t, T, MatrixView<T>, index_t, \
                                      index_t, Exec&);
TEAMLA_GEMM_BATCH_INSTANTIATE(double)
TEAMLA_GEMM_BATCH_INSTANTIATE(float)
TEAMLA_GEMM_BATCH_INSTANTIATE(std::complex<double>)
TEAMLA_GEMM_BATCH_INSTANTIATE(std::complex<float>)
#undef TEAMLA_GEMM_BATCH_INSTANTIATE

}  // namespace teamla::linalg
