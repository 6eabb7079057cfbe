// SPDX-License-Identifier: Apache-2.0
// gemm_tiny.hpp (internal): the shortcuts that take a tiny product (blas3.hpp, gemm_is_tiny) to
// its kernel in one call, inline in each caller: gemm_tiny_col_major() (the ABI's and
// CpuEngine's tiny path) and a batch's items (gemm/batch.cpp), where going through gemm_serial()
// (two Strided operands copied onto the stack, one more call) takes a fifth of a batch of 10000
// 4^3 items (docs/gemm.md, "Batched GEMM").
#pragma once

#include "gemm/gemm_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// kScalarVolume: products of at most this many multiply-adds (n = 1-2) run as a plain loop: a
// vector tile's setup (masks, the strip table, the masked stores) is most of such a call.
// 8: the loop beat the vector tile at 1^3-2^3 and tied at 4^3 (docs/perf/blocking.md).
constexpr index_t kScalarVolume = 8;

// gemm_scalar(): C = alpha op(A) op(B) + beta C element by element (beta == 0: C not read).
template <class T>
void gemm_scalar(index_t m, index_t n, index_t k, T alpha, Strided<T> a, Strided<T> b, T beta, T* c,
                 index_t ldc);

// col_major_operand(): op(X) of a column-major X at x with leading dimension ldx, as strides.
template <class T>
Strided<T> col_major_operand(Op op, const T* x, index_t ldx) {
  return op == Op::none ? Strided<T>{x, 1, ldx} : Strided<T>{x, ldx, 1};
}

// in_place_block(): tiny_shortcut()'s second test, for one_kernel_call(): whether it takes the
// product past the scalar loop as one block of the in-place path (A as it lies; so m, n, k > 0,
// and the volume excludes the scalar products). tiny_shortcut() keeps the test written out:
// through this function GCC 12 allocated gemm_tiny_col_major()'s registers otherwise (916
// instructions against 904), and the single calls are the ones measured against OpenBLAS
// (docs/perf/small.md).
template <class T>
[[gnu::always_inline]] inline bool in_place_block(const KernelSet<T>& ks, Op op_a, index_t m,
                                                  index_t n, index_t k, T alpha) {
  return op_a == Op::none && alpha != T(0) && m <= ks.blocking.small_n &&
         n <= ks.blocking.small_n && m <= ks.blocking.mc && k <= ks.blocking.kc &&
         m * n * k > kScalarVolume;
}

// tiny_shortcut(): the common tiny calls, each one call past here: with blas::gemm inline in
// dgemm_, skipping gemm_without_workspace()'s checks and gemm_in_place()'s loops saves dgemm_
// NN 4 x 4 x 4 and 8 x 8 x 8 7-8 ns of 26-44 (docs/perf/blocking.md).
// False, having done nothing, for a product neither shortcut takes whole. `kernel_set()` gives
// the KernelSet, asked for only past the scalar loop.
template <class T, class KernelSetFn>
[[gnu::always_inline]] inline bool tiny_shortcut(const KernelSetFn& kernel_set, Op op_a, Op op_b,
                                                 index_t m, index_t n, index_t k, T alpha,
                                                 const T* a, index_t lda, const T* b, index_t ldb,
                                                 T beta, T* c, index_t ldc) {
  // A product to compute (alpha != 0, k > 0) of n = 1-2: the scalar loop.
  if (alpha != T(0) && k > 0 && m <= kScalarVolume && n <= kScalarVolume && k <= kScalarVolume &&
      m * n * k <= kScalarVolume) {
    gemm_scalar(m, n, k, alpha, col_major_operand(op_a, a, lda), col_major_operand(op_b, b, ldb),
                beta, c, ldc);
    return true;
  }
  // A as it lies, past the scalar loop's volume (so m, n, k > 0), one block of the in-place
  // path: for one row of tiles (m <= MR) the tiles themselves (isa_dispatch.hpp,
  // one_tile_b_cols), the ones the in-place kernel would run; else the in-place kernel.
  const KernelSet<T>& ks = kernel_set();
  if (op_a == Op::none && alpha != T(0) && m <= ks.blocking.small_n && n <= ks.blocking.small_n &&
      m <= ks.blocking.mc && k <= ks.blocking.kc && m * n * k > kScalarVolume) {
    const bool b_cols = op_b == Op::none;
    const MicroTileInPlace<T>* tiles = b_cols ? ks.fns.one_tile_b_cols : ks.fns.one_tile_b_rows;
    if (tiles != nullptr && m <= ks.fns.mr) {
      const index_t nr = ks.fns.nr;
      const index_t b_step = b_cols ? ldb : 1;  // from one column of op(B) to the next
      index_t j = 0;
      // One vector's rows against B's rows: 2 NR columns a tile, as in the in-place kernel.
      if (!b_cols && m <= ks.fns.row_step) {
        for (; j + 2 * nr <= n; j += 2 * nr) {
          ks.fns.wide_tile_b_rows(m, k, a, lda, b + j, ldb, c + j * ldc, ldc, alpha, beta);
        }
        if (j == n) return true;
      }
      const MicroTileInPlace<T>* row = tiles + (m - 1) * nr;
      for (; j + nr < n; j += nr) {
        row[nr - 1](m, k, a, lda, b + j * b_step, ldb, c + j * ldc, ldc, alpha, beta);
      }
      row[n - j - 1](m, k, a, lda, b + j * b_step, ldb, c + j * ldc, ldc, alpha, beta);
      return true;
    }
    const MicroKernelInPlace<T> kernel = b_cols ? ks.fns.in_place_b_cols : ks.fns.in_place_b_rows;
    kernel(m, n, k, a, lda, b, ldb, c, ldc, alpha, beta);
    return true;
  }
  return false;
}

// OneKernelCall: the one kernel call tiny_shortcut() makes for a tiny product's shape, where it
// makes one: a single tile (m <= MR, n <= NR) or the in-place kernel. A batch whose items share
// a shape resolves it once and calls it per item (batch_internal.hpp): the same kernel on the
// same operands, without tiny_shortcut()'s tests and table look-ups each time.
template <class T>
struct OneKernelCall {
  MicroTileInPlace<T> tile = nullptr;        // (m, k, a, lda, b, ldb, c, ldc, alpha, beta)
  MicroKernelInPlace<T> in_place = nullptr;  // (m, n, k, a, lda, b, ldb, c, ldc, alpha, beta)
};

// one_kernel_call(): the call for a column-major shape (op_a, op_b, m, n, k, alpha), or an empty
// one where tiny_shortcut() would do more or other (the scalar loop, several tiles, no shortcut).
template <class T>
OneKernelCall<T> one_kernel_call(const KernelSet<T>& ks, Op op_a, Op op_b, index_t m, index_t n,
                                 index_t k, T alpha) {
  OneKernelCall<T> call;
  if (!gemm_is_tiny(m, n, k) || !in_place_block(ks, op_a, m, n, k, alpha)) return call;
  const bool b_cols = op_b == Op::none;
  const MicroTileInPlace<T>* tiles = b_cols ? ks.fns.one_tile_b_cols : ks.fns.one_tile_b_rows;
  if (tiles != nullptr && m <= ks.fns.mr) {
    // One row of tiles: a single tile when n <= NR (tiny_shortcut()'s wide and full-tile loops
    // then do nothing); more than one is left to tiny_shortcut().
    if (n <= ks.fns.nr) call.tile = tiles[(m - 1) * ks.fns.nr + (n - 1)];
    return call;
  }
  call.in_place = b_cols ? ks.fns.in_place_b_cols : ks.fns.in_place_b_rows;
  return call;
}

}  // namespace teamla::linalg::detail
