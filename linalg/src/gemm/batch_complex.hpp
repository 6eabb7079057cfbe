// SPDX-License-Identifier: Apache-2.0
// batch_complex.hpp (internal): a complex batch's items (batch.cpp, batch_groups.cpp).
//
// There is no complex tiny path and no complex KernelSet: each item is the complex product
// (complex_gemm.hpp) on the calling thread, with the buffers of the rank that runs it. The rest
// of the batch (the checks, the one planned region, units of contiguous items) is the real one's.
#pragma once

#include <complex>
#include <cstddef>

#include "gemm/complex_gemm.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/exec.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::batch {

// run_complex_item(): one validated item, on exec (a batch of one item may use the team inside
// its product; a unit's items pass an Exec without one). As gemm() does (complex_gemm.cpp), so
// that the results equal the loop of gemm() calls: a row-major C is the column-major
// C^T = op(B)^T op(A)^T.
template <class R>
void run_complex_item(const GemmItem<std::complex<R>>& it, Exec& exec) {
  const index_t k = it.op_a == Op::none ? it.a.cols : it.a.rows;
  const detail::ComplexOperand<R> a = detail::complex_operand(it.a, it.op_a);
  const detail::ComplexOperand<R> b = detail::complex_operand(it.b, it.op_b);
  const MatrixView<std::complex<R>>& c = it.c;
  if (c.layout == Layout::col_major) {
    detail::complex_product<R>({c.rows, c.cols, k, it.alpha, a, b, it.beta, c.data, c.ld}, exec);
  } else {
    detail::complex_product<R>(
        {c.cols, c.rows, k, it.alpha, b.transposed(), a.transposed(), it.beta, c.data, c.ld}, exec);
  }
}

// run_complex_items(): items [begin, end) of a checked batch, item i given by item_at(i), on the
// calling participant: each packs into `rank`'s slots of `ws`, as a real item does.
template <class R, class ItemAt>
void run_complex_items(std::size_t begin, std::size_t end, const ItemAt& item_at, Workspace& ws,
                       std::size_t rank) {
  const detail::UnitScope scope(detail::RankBuffers{&ws, rank});
  Exec serial;
  for (std::size_t i = begin; i < end; ++i) run_complex_item<R>(item_at(i), serial);
}

}  // namespace teamla::linalg::batch
