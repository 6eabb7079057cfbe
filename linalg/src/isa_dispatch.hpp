// SPDX-License-Identifier: Apache-2.0
// isa_dispatch.hpp (internal): the kernel registration tables and the run-time choice.
//
// Each ISA registers one table (kernels/<isa>/table_<isa>.cpp) holding, per scalar type, its
// microkernels, its packing routines and its blocking sizes, with what chose them (the
// figures: docs/perf/blocking.md). kernels<T>() returns the active ISA's set. Tests may force
// an ISA and tiny blocking sizes through the hooks at the bottom (not thread-safe: call them
// between calls only).
#pragma once

#include <atomic>
#include <complex>
#include <cstddef>
#include <string_view>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {
template <class T>
struct LeafKernels;  // TRSM's, POTRF's and GETRF's leaves (kernels/leaf_kernels.hpp)
}  // namespace teamla::linalg::level3_detail

namespace teamla::linalg::detail {

enum class Isa : unsigned char { ref, avx2, avx512 };

std::string_view isa_name(Isa isa);

// MicroKernel: C[0:m, 0:n] = alpha * A * B + beta * C for a tile of m <= MR rows and n <= NR
// columns, with C column-major (leading dimension ldc). B is a packed micro-panel: kc rows
// of NR values. A is a packed micro-panel (kc columns of MR values, a_step == MR, zero
// padded). beta == 0: C is not read.
template <class T>
using MicroKernel = void (*)(index_t m, index_t n, index_t kc, const T* a, index_t a_step,
                             const T* b, T* c, index_t ldc, T alpha, T beta);

// TriangleTile: one tile of a packed triangle's strip (TRMM's diagonal blocks): as
// MicroKernel, with the vectors of the tile's rows reaching k steps that end (lower) or start
// (upper) a row_step apart from step `diag` on (kernels/ukernel_triangle.hpp).
template <class T>
using TriangleTile = void (*)(bool lower, index_t m, index_t n, index_t kc, index_t diag,
                              const T* a, index_t a_step, const T* b, T* c, index_t ldc, T alpha,
                              T beta);

// MicroKernelInPlace: the no-packing kernel: C[0:m, 0:n] = alpha*A*B + beta*C for any m rows
// and n columns (computed MR x NR at a time, a strip of NR columns after another), with A
// column-major in place (lda; rows 0..m-1 read) and B in place, leading dimension ldb:
// `in_place_b_cols` reads column j of B at b + j*ldb (B column-major), `in_place_b_rows` reads
// row p at b + p*ldb (op(B) = B^T). Columns of B past n are not read.
template <class T>
using MicroKernelInPlace = void (*)(index_t m, index_t n, index_t kc, const T* a, index_t lda,
                                    const T* b, index_t ldb, T* c, index_t ldc, T alpha, T beta);

// MicroTileInPlace: one tile of the no-packing kernel: MicroKernelInPlace for m no more than
// the tile's rows and n equal to its columns (the tile's own; not an argument).
template <class T>
using MicroTileInPlace = void (*)(index_t m, index_t kc, const T* a, index_t lda, const T* b,
                                  index_t ldb, T* c, index_t ldc, T alpha, T beta);

// MicroKernelTall: C[0:m, 0:n] = alpha*A*op(B) + beta*C with A column-major in place (lda) and
// op(B)'s element (p, j) at b[p*b_rs + j*b_cs], for n <= kTallMaxColumns and k <= kTallMaxDepth
// only (its copy of op(B) lives on the stack): the tall in-place products
// (kernels/ukernel_tall.hpp).
template <class T>
using MicroKernelTall = void (*)(index_t m, index_t n, index_t k, const T* a, index_t lda,
                                 const T* b, index_t b_rs, index_t b_cs, T* c, index_t ldc, T alpha,
                                 T beta);
inline constexpr index_t kTallMaxColumns = 32;  // gemm.cpp's in-place rule: 4 strips of NR = 8
inline constexpr index_t kTallMaxDepth = 32;    // deeper it lost to the tiles (docs/gemm.md)
inline constexpr int kTallVectors = 3;          // its tiles' rows: 3 vectors (row_step each)

// MicroKernelDot: C[0:m, 0:n] = alpha * op(A) * B + beta * C for any m, n, k, with the rows of
// op(A) contiguous (row i at a + i*lda: A^T of a k x m column-major A) and B column-major
// (column j at b + j*ldb), as dot products along k (kernels/ukernel_dot.hpp). beta == 0: C is
// not read.
template <class T>
using MicroKernelDot = void (*)(index_t m, index_t n, index_t k, T alpha, const T* a, index_t lda,
                                const T* b, index_t ldb, T beta, T* c, index_t ldc);

// CopyTransposed: dst (m x k, column-major, ld ldd) = op(A) for op(A) = A^T of a k x m
// column-major A (lda): element (i, p) of dst is a[p + i*lda]. ldd is m rounded up to
// kTransposeRowUnit; rows m..ldd-1 of dst may be written (with zeros).
template <class T>
using CopyTransposed = void (*)(index_t m, index_t k, const T* a, index_t lda, T* dst, index_t ldd);
inline constexpr index_t kTransposeRowUnit = 8;

// PackA: packs rows [0, mc) x columns [0, kc) of a matrix with element (i, p) at
// a[i*rs + p*cs] into ceil(mc/MR) micro-panels of MR x kc, zero padded.
template <class T>
using PackA = void (*)(index_t mc, index_t kc, const T* a, index_t rs, index_t cs, T* dst);
// PackB: packs rows [0, kc) x columns [0, nc) of a matrix with element (p, j) at
// b[p*rs + j*cs] into ceil(nc/NR) micro-panels of kc x NR, zero padded.
template <class T>
using PackB = void (*)(index_t kc, index_t nc, const T* b, index_t rs, index_t cs, T* dst);

// PackA1m / PackB1m: the 1m method's packing of a complex A and B (kernels/complex_pack.hpp):
// alpha * op(A) into PackA's format of 2 * half_mr real rows, op(B) into PackB's of nr columns,
// each at real depth 2 kc; op(X)'s element (i, j) at x[i*rs + j*cs], conjugated where `conj`.
template <class T>
using PackA1m = void (*)(index_t half_mr, index_t rows, index_t kc, const std::complex<T>* a,
                         index_t rs, index_t cs, bool conj, std::complex<T> alpha, T* dst);
template <class T>
using PackB1m = void (*)(index_t nr, index_t kc, index_t cols, const std::complex<T>* b, index_t rs,
                         index_t cs, bool conj, T* dst);

// KernelFns: what one kernel file provides.
template <class T>
struct KernelFns {
  const char* name = "";  // e.g. "avx512_d24x8"
  int mr = 0;
  int nr = 0;
  // row_step: the rows one vector of the kernel holds. `packed` on m <= MR - row_step rows runs
  // a narrower tile, and may start at any multiple of row_step rows into a packed micro-panel
  // (a_step == MR): the triangle's diagonal tiles skip the rows they do not keep that way.
  int row_step = 0;
  MicroKernel<T> packed = nullptr;                  // A and B packed, one tile (m <= MR)
  MicroKernel<T> packed_strip = nullptr;            // A and B packed, a strip of any m rows
  TriangleTile<T> packed_triangle = nullptr;        // a triangle's strip (nullptr: per vector)
  MicroKernelInPlace<T> in_place_b_cols = nullptr;  // A and B in place, B column-major
  MicroKernelInPlace<T> in_place_b_rows = nullptr;  // A and B in place, op(B) = B^T
  // one_tile_b_cols/_rows: the tile that in_place_b_cols/_rows runs for a product of one tile
  // (m <= mr, n <= nr), at entry (m - 1) * nr + n - 1: one indirect call where the in-place
  // kernel passes through two more levels (nullptr where a kernel file has no tiles).
  const MicroTileInPlace<T>* one_tile_b_cols = nullptr;
  const MicroTileInPlace<T>* one_tile_b_rows = nullptr;
  // wide_tile_b_rows: in_place_b_rows's tile for one vector's rows (m <= row_step): 2 nr
  // columns of B's rows (set wherever the one-tile tables are).
  MicroTileInPlace<T> wide_tile_b_rows = nullptr;
  MicroKernelDot<T> dot = nullptr;    // A^T and B in place, dot products on k
  MicroKernelTall<T> tall = nullptr;  // tall A in place, narrow op(B) copied (nullptr: none)
  PackA<T> pack_a = nullptr;
  PackB<T> pack_b = nullptr;
  PackA1m<T> pack_a_1m = nullptr;
  PackB1m<T> pack_b_1m = nullptr;
  CopyTransposed<T> copy_transposed = nullptr;
};

// Blocking: BLIS's MC/KC/NC, plus the small-path limit and the serial rate for the cost
// model. mc is a multiple of MR, nc of NR.
struct Blocking {
  index_t mc = 0;
  index_t kc = 0;
  index_t nc = 0;
  // small_n: with n <= small_n (and op(A) column-contiguous), A is read in place instead
  // of packed: each A block is then used by too few B micro-panels to repay its packing.
  index_t small_n = 0;
  double serial_gflops = 0;  // measured rate at large n, single thread
};

template <class T>
struct KernelSet {
  KernelFns<T> fns;
  Blocking blocking;
  const level3_detail::LeafKernels<T>* leaves;  // TRSM's and POTRF's (kernels/chol_leaf.hpp)
};

struct IsaTable {
  Isa isa;
  KernelSet<double> d;
  KernelSet<float> s;
};

// The kernel files (kernels/<isa>/gemm_<isa>_<type><MR>x<NR>.cpp; kernels/ref/gemm_ref.cpp).
KernelFns<double> ref_kernels_d4x4();
KernelFns<float> ref_kernels_s4x4();
KernelFns<double> avx2_kernels_d8x6();
KernelFns<float> avx2_kernels_s16x6();
KernelFns<double> avx512_kernels_d24x8();
KernelFns<float> avx512_kernels_s48x8();

// The registration tables (kernels/<isa>/table_<isa>.cpp), built once per process by
// table_of() (isa.cpp).
IsaTable isa_table_ref();
IsaTable isa_table_avx2();
IsaTable isa_table_avx512();

// active_table() is the table of the active ISA (TEAMLA_ISA or cpuid, or a test override):
// once resolved with no override active, a load of g_resolved, inline (a tiny gemm asks for
// its kernels on every call); otherwise resolve_active_table() (isa.cpp).
extern std::atomic<const IsaTable*> g_resolved;
const IsaTable& resolve_active_table();
inline const IsaTable& active_table() {
  if (const IsaTable* cached = g_resolved.load(std::memory_order_acquire)) return *cached;
  return resolve_active_table();
}

template <class T>
const KernelSet<T>& kernels() {
  const IsaTable& t = active_table();
  if constexpr (sizeof(T) == 8) {
    return t.d;
  } else {
    return t.s;
  }
}

// isa_supported() says whether this CPU can run `isa`.
bool isa_supported(Isa isa);
// parse_isa() maps "avx512" / "avx2" / "ref" to an Isa; throws std::runtime_error otherwise.
Isa parse_isa(std::string_view name);

// Test hooks. force_isa() overrides the active ISA (throws if unsupported);
// clear_isa_override() returns to TEAMLA_ISA / cpuid. force_blocking() replaces mc/kc/nc
// (rounded up to MR/NR multiples) and small_n for every ISA and type until cleared, so that
// small matrices reach every edge tile.
void force_isa(Isa isa);
void clear_isa_override();
void force_blocking(index_t mc, index_t kc, index_t nc, index_t small_n);
void clear_blocking_override();

}  // namespace teamla::linalg::detail
