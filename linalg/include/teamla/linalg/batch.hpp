// SPDX-License-Identifier: Apache-2.0
// batch.hpp: batched GEMM: many independent products C_i = alpha_i op(A_i) op(B_i) + beta_i C_i
// in one call, split across the team.
//
// A batch of small products cannot use a team one product at a time: each product is far
// below the size at which a section pays (width.hpp). gemm_batch() makes the batch itself the
// parallel region: its width comes from the batch's total flops, and its claimed units are
// contiguous runs of items, each item computed by the serial gemm path (small items read in
// place, never packed beyond what a single gemm call packs). Width 1 runs inline.
//
// Every item is validated before any is computed: a bad item throws InvalidArgument (naming
// the item) with every C untouched. The items' C must not overlap one another (they may be
// written concurrently); A and B may be shared freely. Item semantics are gemm()'s
// (blas3.hpp): beta == 0 does not read C, alpha == 0 or k == 0 only scales C.
//
// T is double, float, std::complex<double> or std::complex<float>; a complex item may take
// Op::conj_transpose and runs the complex product (no tiny path) on the calling thread, the
// width planned from 8 m n k real flops per item.
#pragma once

#include <cstddef>
#include <span>

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg {

// GemmItem: one product of a batch, with gemm()'s arguments.
template <class T>
struct GemmItem {
  Op op_a = Op::none;
  Op op_b = Op::none;
  T alpha = T(1);
  MatrixView<const T> a;
  MatrixView<const T> b;
  T beta = T(0);
  MatrixView<T> c;
};

// GemmBatchSource: a batch that is not stored as an array of items (items computed on demand):
// `count` items, item i produced by item(context, i). item() must be cheap and thread-safe:
// it is called once per item to validate and once more to compute, from any participant.
template <class T>
struct GemmBatchSource {
  std::size_t count = 0;
  const void* context = nullptr;
  GemmItem<T> (*item)(const void* context, std::size_t index) = nullptr;
};

// GemmGroup: `count` products that share everything but their matrices (the CBLAS group form,
// cblas_?gemm_batch, and cuBLAS's pointer-array batches): `shape` gives op_a, op_b, alpha, beta
// and the rows, columns, leading dimensions and layouts of A, B and C (the data of its views
// is not read); item i's matrices are a[i], b[i], c[i]. An item reads A and B only when it has
// a product to compute (alpha != 0, k > 0, C not empty), and writes C only when C is not empty
// and it has a product or beta != 1: the arrays (or their entries) it does not use may be null.
template <class T>
struct GemmGroup {
  GemmItem<T> shape;
  std::size_t count = 0;
  const T* const* a = nullptr;
  const T* const* b = nullptr;
  T* const* c = nullptr;
};

// gemm_batch(): every item of `items`, on exec.team when the batch's flops pay for it.
template <class T>
void gemm_batch(std::span<const GemmItem<T>> items, Exec& exec);

// gemm_batch(): the same for a batch given by a source.
template <class T>
void gemm_batch(const GemmBatchSource<T>& source, Exec& exec);

// gemm_batch(): every item of every group, as one batch (the groups' items in order). A bad
// group, or a null matrix an item would use, throws InvalidArgument naming it ("groups[1]",
// "groups[1].c[7]") before anything is computed. Each item costs its kernel and three pointer
// loads: no per-item descriptor is built or read.
template <class T>
void gemm_batch(std::span<const GemmGroup<T>> groups, Exec& exec);

// gemm_batch_strided(): `count` products of the same shape; item i's A, B and C are the views
// `a`, `b`, `c` moved by i * stride_a, i * stride_b, i * stride_c elements. Strides are
// non-negative (0 shares A or B across the batch); when count > 1, stride_c must be at least
// the span of one C (ld * columns, column-major; ld * rows, row-major) so that no two Cs
// overlap.
template <class T>
void gemm_batch_strided(Op op_a, Op op_b, T alpha, MatrixView<const T> a, index_t stride_a,
                        MatrixView<const T> b, index_t stride_b, T beta, MatrixView<T> c,
                        index_t stride_c, index_t count, Exec& exec);

}  // namespace teamla::linalg
