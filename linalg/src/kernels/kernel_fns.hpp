// SPDX-License-Identifier: Apache-2.0
// kernel_fns.hpp: the one registration of a SIMD kernel set. make_kernel_fns<Ops, MR, NR,
// Transpose>() fills every KernelFns entry that the templates over Ops provide, at MR x NR;
// a kernel file then sets only what its ISA has beyond them (its own packing of B, the dot and
// tall kernels). Included only by files compiled for the ISA of Ops (kernels/<isa>/).
#pragma once

#include "isa_dispatch.hpp"
#include "kernels/complex_pack.hpp"
#include "kernels/pack.hpp"
#include "kernels/ukernel_simd.hpp"
#include "kernels/ukernel_triangle.hpp"

namespace teamla::linalg::detail {

// pack_a_by_transposes(): pack_a_panels(), with a transposed A copied by `Transpose` (register
// transposes of a block) instead of element by element.
template <class Ops, int MR, CopyTransposed<typename Ops::T> Transpose>
void pack_a_by_transposes(index_t mc, index_t kc, const typename Ops::T* a, index_t rs, index_t cs,
                          typename Ops::T* dst) {
  pack_a_transposing<Ops, typename Ops::T, MR>(mc, kc, a, rs, cs, dst, Transpose);
}

template <class Ops, int MR, int NR, CopyTransposed<typename Ops::T> Transpose>
KernelFns<typename Ops::T> make_kernel_fns(const char* name) {
  using T = typename Ops::T;
  KernelFns<T> fns;
  fns.name = name;
  fns.mr = MR;
  fns.nr = NR;
  fns.row_step = Ops::kLanes;
  fns.packed = &simd_kernel_rows<Ops, MR, NR, false>;
  fns.packed_strip = &simd_packed_strip<Ops, MR, NR>;
  fns.packed_triangle = &simd_triangle_tile<Ops, MR, NR>;
  fns.in_place_b_cols = &simd_kernel_in_place<Ops, MR, NR, ColumnsB>;
  fns.in_place_b_rows = &simd_kernel_in_place<Ops, MR, NR, RowsB>;
  fns.one_tile_b_cols = kOneTileTable<Ops, MR, NR, ColumnsB>.data();
  fns.one_tile_b_rows = kOneTileTable<Ops, MR, NR, RowsB>.data();
  fns.wide_tile_b_rows = &simd_in_place_tile<Ops, Ops::kLanes, 2 * NR, RowsB>;
  fns.copy_transposed = Transpose;
  fns.pack_a = &pack_a_by_transposes<Ops, MR, Transpose>;
  fns.pack_b = &pack_b_panels<Ops, T, NR>;
  fns.pack_a_1m = &pack_a_1m<Ops, T>;
  fns.pack_b_1m = &pack_b_1m<Ops, T>;
  return fns;
}

}  // namespace teamla::linalg::detail
