// SPDX-License-Identifier: Apache-2.0
// batch_groups.cpp: batched GEMM given as groups (batch.hpp, GemmGroup): every group and
// every pointer an item will use is checked, then the items run as one region
// (batch_internal.hpp), inline or as one claimed section over contiguous runs of items.
//
// An item of a group differs from the group's shape only in its three pointers, so the shape
// is normalised to the BLAS convention once per group and unit, and an item is three loads and
// its kernel: through a per-item source (a search for the group, a descriptor built, checked,
// and built again to compute), a batch of 10000 4^3 items takes several times as long as the
// same batch given as one strided call (docs/perf/blocking.md; docs/gemm.md, "Batched GEMM").
// Complex groups take the same walk, each item the complex product (batch_complex.hpp).
#include <complex>
#include <cstddef>
#include <optional>
#include <string>

#include "gemm/batch_checks.hpp"
#include "gemm/batch_complex.hpp"
#include "gemm/batch_internal.hpp"
#include "teamla/linalg/batch.hpp"

namespace teamla::linalg {
namespace {

template <class T>
bool has_product(const GemmItem<T>& shape) {
  return shape.alpha != T(0) && batch::op_cols(shape.op_a, shape.a) > 0 && shape.c.rows > 0 &&
         shape.c.cols > 0;
}

// writes_c(): the reference's quick return: an empty C, or no product and beta == 1, is left
// untouched (and may be null).
template <class T>
bool writes_c(const GemmItem<T>& shape) {
  return shape.c.rows > 0 && shape.c.cols > 0 && (has_product(shape) || shape.beta != T(1));
}

std::string group_name(std::size_t g) { return "groups[" + std::to_string(g) + "]"; }

[[noreturn]] void null_matrix(std::size_t g, char array, std::size_t item) {
  const std::string name = group_name(g) + "." + array + "[" + std::to_string(item) + "]";
  throw NullBatchMatrix(
      g, array, item, name,
      name + " is null, and the item " + (array == 'c' ? "writes its C" : "computes a product"));
}

[[noreturn]] void null_array(std::size_t g, char array) {
  const std::string name = group_name(g) + "." + array;
  throw NullBatchMatrix(g, array, std::nullopt, name,
                        name + " is null, and the group's items " +
                            (array == 'c' ? "write their C" : "compute a product"));
}

// check_group(): the shape (with its data taken as present: the items bring their own) and
// every pointer an item will use.
template <class T>
void check_group(std::size_t g, const GemmGroup<T>& group) {
  GemmItem<T> shape = group.shape;
  static T present{};  // never read or written: item_ok() compares the data with null
  shape.a.data = &present;
  shape.b.data = &present;
  shape.c.data = &present;
  if (!batch::item_ok(shape)) batch::item_error("gemm_batch", group_name(g), shape);
  if (group.count == 0) return;
  const bool product = has_product(group.shape);
  const bool writes = writes_c(group.shape);
  if (product && group.a == nullptr) null_array(g, 'a');
  if (product && group.b == nullptr) null_array(g, 'b');
  if (writes && group.c == nullptr) null_array(g, 'c');
  for (std::size_t i = 0; i < group.count; ++i) {
    if (product && group.a[i] == nullptr) null_matrix(g, 'a', i);
    if (product && group.b[i] == nullptr) null_matrix(g, 'b', i);
    if (writes && group.c[i] == nullptr) null_matrix(g, 'c', i);
  }
}

// item_of(): item i of a checked group, as a GemmItem (the batch of one item).
template <class T>
GemmItem<T> item_of(const GemmGroup<T>& group, std::size_t i) {
  GemmItem<T> item = group.shape;
  item.a.data = has_product(group.shape) ? group.a[i] : nullptr;
  item.b.data = has_product(group.shape) ? group.b[i] : nullptr;
  item.c.data = writes_c(group.shape) ? group.c[i] : nullptr;
  return item;
}

// run_items(): items [begin, end) of the batch, the groups' items in order, on the calling
// participant: the unit finds its first group, then walks on.
template <class T>
void run_items(const detail::KernelSet<T>& ks, std::span<const GemmGroup<T>> groups,
               std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
  std::size_t g = 0;
  std::size_t first = 0;  // the batch index of group g's item 0
  while (first + groups[g].count <= begin) first += groups[g++].count;
  for (std::size_t i = begin; i < end; ++g) {
    const GemmGroup<T>& group = groups[g];
    const std::size_t stop = std::min(end, first + group.count);
    if (writes_c(group.shape)) {
      const batch::ShapeRun<T> run = batch::shape_run(ks, group.shape);
      const bool product = has_product(group.shape);
      const std::size_t offset = first;
      batch::run_items_of_shape(
          ks, run, i, stop,
          [&](std::size_t item) {
            const std::size_t at = item - offset;
            return batch::ItemMatrices<T>{product ? group.a[at] : nullptr,
                                          product ? group.b[at] : nullptr, group.c[at]};
          },
          ws, rank);
    }
    i = stop;
    first += group.count;
  }
}

// run_complex_group_items(): run_items() for complex groups: the same walk, each item the complex
// product (batch_complex.hpp).
template <class T>
void run_complex_group_items(std::span<const GemmGroup<T>> groups, std::size_t begin,
                             std::size_t end, Workspace& ws, std::size_t rank) {
  std::size_t g = 0;
  std::size_t first = 0;  // the batch index of group g's item 0
  while (first + groups[g].count <= begin) first += groups[g++].count;
  for (std::size_t i = begin; i < end; ++g) {
    const GemmGroup<T>& group = groups[g];
    const std::size_t stop = std::min(end, first + group.count);
    if (writes_c(group.shape)) {
      const std::size_t offset = first;
      batch::run_complex_items<real_t<T>>(
          i, stop, [&](std::size_t item) { return item_of(group, item - offset); }, ws, rank);
    }
    i = stop;
    first += group.count;
  }
}

}  // namespace

template <class T>
void gemm_batch(std::span<const GemmGroup<T>> groups, Exec& exec) {
  std::size_t count = 0;
  double flops = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    check_group(g, groups[g]);
    count += groups[g].count;
    if (writes_c(groups[g].shape)) {
      flops += batch::item_flops(groups[g].shape) * static_cast<double>(groups[g].count);
    }
  }
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (count == 0) return;
  if (count == 1) {
    std::size_t g = 0;
    while (groups[g].count == 0) ++g;
    batch::run_alone(item_of(groups[g], 0), exec);
    return;
  }
  if constexpr (is_complex_v<T>) {
    batch::run_region<T>(count, flops, exec,
                         [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
                           run_complex_group_items(groups, begin, end, ws, rank);
                         });
  } else {
    const detail::KernelSet<T> ks = detail::kernels<T>();
    batch::run_region<T>(count, flops, exec,
                         [&](std::size_t begin, std::size_t end, Workspace& ws, std::size_t rank) {
                           run_items(ks, groups, begin, end, ws, rank);
                         });
  }
}

template void gemm_batch<double>(std::span<const GemmGroup<double>>, Exec&);
template void gemm_batch<float>(std::span<const GemmGroup<float>>, Exec&);
template void gemm_batch<std::complex<double>>(std::span<const GemmGroup<std::complex<double>>>,
                                               Exec&);
template void gemm_batch<std::complex<float>>(std::span<const GemmGroup<std::complex<float>>>,
                                              Exec&);

}  // namespace teamla::linalg
