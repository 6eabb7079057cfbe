// SPDX-License-Identifier: Apache-2.0
// ukernel_simd.hpp (internal): the GEMM microkernel, written once over a vector-ops type.
//
// Each ISA kernel file defines an `Ops` struct (in an anonymous namespace, so that every
// instantiation is private to its file and compiled with its flags) with:
//   V, T, Mask, kLanes, zero(), load(p), load_masked(p, mask), broadcast(p), fmadd(a, b, c),
//   mul(a, b), set1(x), store(p, v), store_masked(p, v, mask), mask_of(count)
// and registers simd_kernel_rows<Ops, MR, NR, false> for packed operands and
// simd_kernel_in_place, with its tiles (kOneTileTable), for the no-packing path (A in place:
// kUnpackedA). The accumulator tile is MR/kLanes x NR vectors held in registers; per k step it
// loads MR/kLanes vectors of A and broadcasts NR values of B (one cache line of packed B for
// NR = 8 doubles).
#pragma once

#include <array>
#include <type_traits>
#include <utility>

#include "isa_dispatch.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// BSource: where the NR values of B for step p are. Packed: b + p*NR + j. ColumnsB: B's
// columns in place, column j at b + j*ld, step p at + p (B column-major, op(B) = B). RowsB:
// B's rows in place, row p at b + p*ld, column j at + j (op(B) = B^T of a column-major B).
// The in-place forms read only the columns their NR names.
template <class T, int NR>
struct PackedB {
  const T* b;
  [[nodiscard]] const T* at(index_t j) const { return b + j; }
  void next() { b += NR; }
};
template <class T, int NR>
struct ColumnsB {
  const T* b;
  index_t ld;
  [[nodiscard]] const T* at(index_t j) const { return b + j * ld; }
  void next() { b += 1; }
};
template <class T, int NR>
struct RowsB {
  const T* b;
  index_t ld;
  [[nodiscard]] const T* at(index_t j) const { return b + j; }
  void next() { b += ld; }
};

// The phases of simd_kernel_any_b(): mask the rows, prefetch C, accumulate, scale, store. Each
// is forced inline so that the accumulator tile, passed by reference, stays in registers: the
// k loop compiles to the same instructions as one written inline (objdump, GCC 12).

// AccTile: the MR x NR accumulator tile, MR/kLanes vectors per column.
template <class Ops, int MR, int NR>
using AccTile = typename Ops::V[MR / Ops::kLanes][NR];

// zero_tile(): acc = 0.
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void zero_tile(AccTile<Ops, MR, NR>& acc) {
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < MR / Ops::kLanes; ++i) {
      acc[i][j] = Ops::zero();
    }
  }
}

// row_masks(): per vector of a column, the mask of its rows below m.
template <class Ops, int MR>
[[gnu::always_inline]] inline void row_masks(index_t m,
                                             typename Ops::Mask (&masks)[MR / Ops::kLanes]) {
  constexpr int kL = Ops::kLanes;
#pragma GCC unroll 8
  for (int i = 0; i < MR / kL; ++i) {
    const index_t left = m - i * kL;
    masks[i] = Ops::mask_of(left <= 0 ? 0 : (left >= kL ? kL : static_cast<int>(left)));
  }
}

// prefetch_c(): requests the C tile's lines so they arrive while the k loop runs (the store
// at the end would otherwise stall on up to MR/8 x NR misses).
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void prefetch_c(const typename Ops::T* c, index_t ldc) {
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < MR / Ops::kLanes; ++i) {
      __builtin_prefetch(c + j * ldc + i * Ops::kLanes, 1, 3);
    }
  }
}

// accumulate_step(): acc += one column of A(MR rows) * one row of B(NR values), then both
// sources move one step on. kMasked loads A's vectors under `amask`, so an unpacked A of fewer
// than MR rows is never read past its last row.
template <class Ops, int MR, int NR, bool kMasked, class BSource>
[[gnu::always_inline]] inline void accumulate_step(AccTile<Ops, MR, NR>& acc,
                                                   const typename Ops::T*& a, index_t a_step,
                                                   BSource& bsrc, const typename Ops::Mask* amask) {
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
  constexpr int kMv = MR / kL;
  V av[kMv];
#pragma GCC unroll 8
  for (int i = 0; i < kMv; ++i) {
    if constexpr (kMasked) {
      av[i] = Ops::load_masked(a + i * kL, amask[i]);
    } else {
      av[i] = Ops::load(a + i * kL);
    }
  }
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
    const V bj = Ops::broadcast(bsrc.at(j));
#pragma GCC unroll 8
    for (int i = 0; i < kMv; ++i) {
      acc[i][j] = Ops::fmadd(av[i], bj, acc[i][j]);
    }
  }
  a += a_step;
  bsrc.next();
}

// KLoop: how far accumulate() unrolls its k loop. by_four: four k steps per loop iteration; the
// rolled loop's own increments and branch cost 1-thread dgemm 1024 about a tenth (AVX2;
// docs/perf/blocking.md). by_sixteen: sixteen, so that the tall
// kernel's k of at most 16 (ukernel_tall.hpp) runs as one straight block with no loop branch.
enum class KLoop { by_four, by_sixteen };

// accumulate(): acc += A(MR x kc) * B(kc x NR). (GCC 12 takes no template argument in
// `#pragma GCC unroll`, hence one loop per KLoop.)
template <class Ops, int MR, int NR, bool kMasked, KLoop kLoop = KLoop::by_four, class BSource>
[[gnu::always_inline]] inline void accumulate(AccTile<Ops, MR, NR>& acc, index_t kc,
                                              const typename Ops::T* a, index_t a_step,
                                              BSource bsrc, const typename Ops::Mask* amask) {
  if constexpr (kLoop == KLoop::by_sixteen) {
#pragma GCC unroll 16
    for (index_t p = 0; p < kc; ++p) {
      accumulate_step<Ops, MR, NR, kMasked>(acc, a, a_step, bsrc, amask);
    }
  } else {
#pragma GCC unroll 4
    for (index_t p = 0; p < kc; ++p) {
      accumulate_step<Ops, MR, NR, kMasked>(acc, a, a_step, bsrc, amask);
    }
  }
}

// scale(): acc *= alpha, once here so the stores need no multiply (alpha == 1, the common
// case, then costs nothing: a multiply takes an FMA slot).
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void scale(AccTile<Ops, MR, NR>& acc, typename Ops::V va) {
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < MR / Ops::kLanes; ++i) {
      acc[i][j] = Ops::mul(va, acc[i][j]);
    }
  }
}

// store_full(): C = acc (+ beta C), or with `accumulate` C += alpha acc, on a whole tile.
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void store_full(const AccTile<Ops, MR, NR>& acc, typename Ops::T* c,
                                              index_t ldc, typename Ops::V va, typename Ops::V vb,
                                              bool accumulate, bool add_c) {
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
    typename Ops::T* cj = c + j * ldc;
#pragma GCC unroll 8
    for (int i = 0; i < MR / kL; ++i) {
      V r = acc[i][j];
      if (accumulate) {
        r = Ops::fmadd(va, r, Ops::load(cj + i * kL));
      } else if (add_c) {
        r = Ops::fmadd(vb, Ops::load(cj + i * kL), r);
      }
      Ops::store(cj + i * kL, r);
    }
  }
}

// store_edge(): store_full() on the m x n corner of an edge tile, rows under masks (acc ends
// holding the results). Every load of C comes before the first store: when ldc is not a
// multiple of the vector, the masked-off lanes of column j's last masked store lie in column
// j + 1, and a load of column j + 1 issued after that store cannot take its data from it and
// waits until it is written: more than half of a 12 x 12 x 12 dgemm (docs/perf/blocking.md).
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void store_edge(AccTile<Ops, MR, NR>& acc, index_t m, index_t n,
                                              typename Ops::T* c, index_t ldc, typename Ops::V va,
                                              typename Ops::V vb, bool accumulate, bool add_c) {
  using V = typename Ops::V;
  constexpr int kL = Ops::kLanes;
  typename Ops::Mask cmask[MR / kL];
  row_masks<Ops, MR>(m, cmask);
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
    if (j >= n) {
      break;
    }
    const typename Ops::T* cj = c + j * ldc;
#pragma GCC unroll 8
    for (int i = 0; i < MR / kL; ++i) {
      V r = acc[i][j];
      if (accumulate) {
        r = Ops::fmadd(va, r, Ops::load_masked(cj + i * kL, cmask[i]));
      } else if (add_c) {
        r = Ops::fmadd(vb, Ops::load_masked(cj + i * kL, cmask[i]), r);
      }
      acc[i][j] = r;  // the result, stored below
    }
  }
#pragma GCC unroll 64
  for (int j = 0; j < NR; ++j) {
    if (j >= n) {
      break;
    }
    typename Ops::T* cj = c + j * ldc;
#pragma GCC unroll 8
    for (int i = 0; i < MR / kL; ++i) {
      Ops::store_masked(cj + i * kL, acc[i][j], cmask[i]);
    }
  }
}

// finish_tile(): C(m x n) = alpha acc + beta C, the tile's last phase.
template <class Ops, int MR, int NR>
[[gnu::always_inline]] inline void finish_tile(AccTile<Ops, MR, NR>& acc, index_t m, index_t n,
                                               typename Ops::T* c, index_t ldc,
                                               typename Ops::T alpha, typename Ops::T beta) {
  using V = typename Ops::V;
  using T = typename Ops::T;
  const V va = Ops::set1(alpha);
  const V vb = Ops::set1(beta);
  // beta == 1 (every update of TRSM, SYRK and POTRF, alpha = -1): C += alpha * AB is one FMA
  // per vector with alpha folded in, instead of a multiply pass and an FMA.
  const bool accumulate_c = beta == T(1);
  const bool add_c = beta != T(0);
  if (alpha != T(1) && !accumulate_c) scale<Ops, MR, NR>(acc, va);
  if (m == MR && n == NR) {
    store_full<Ops, MR, NR>(acc, c, ldc, va, vb, accumulate_c, add_c);
  } else {
    store_edge<Ops, MR, NR>(acc, m, n, c, ldc, va, vb, accumulate_c, add_c);
  }
}

// recompute_c_addresses(): an empty asm that the compiler must assume changes `c` and `ldc`,
// so that the C tile's column addresses are computed again for the stores. Otherwise GCC keeps
// the ones prefetch_c() computed live through the k loop, in the registers of B's column
// offsets (ColumnsB): those went to the stack, every broadcast waited on a reload, and the loop
// counter lived in memory (objdump, GCC 12). Recomputed, dgemm NN, NT and TN 12^3-16^3 run
// faster, TN the most (docs/perf/blocking.md).
template <class T>
[[gnu::always_inline]] inline void recompute_c_addresses(T*& c, index_t& ldc) {
  asm("" : "+r"(c), "+r"(ldc));
}

// simd_kernel_any_b(): C(m x n) = alpha A B + beta C for one tile, m <= MR, n <= NR, B read
// through `bsrc`.
// kColdCLd: a leading dimension past which C is taken to be cold (columns of more than 256
// rows: no small product's C).
inline constexpr index_t kColdCLd = 256;

template <class Ops, int MR, int NR, bool kUnpackedA, class BSource>
void simd_kernel_any_b(index_t m, index_t n, index_t kc, const typename Ops::T* a, index_t a_step,
                       BSource bsrc, typename Ops::T* c, index_t ldc, typename Ops::T alpha,
                       typename Ops::T beta) {
  constexpr int kMv = MR / Ops::kLanes;
  static_assert(MR % Ops::kLanes == 0);

  AccTile<Ops, MR, NR> acc;
  zero_tile<Ops, MR, NR>(acc);
  // Short loops (k <= 64) on small matrices, whose C is hot anyway, skip the prefetch: it would
  // take load slots for nothing (at k = 64 it slowed dgemm 64 x 64 x 64;
  // docs/perf/blocking.md). A C of long columns (ldc > kColdCLd) is fetched
  // whatever kc: PBLAS's rank-32 updates of a 4000 x 2000 C (pdgemm) stalled on its lines at every
  // tile's store.
  if (kc > 64 || ldc > kColdCLd) prefetch_c<Ops, MR, NR>(c, ldc);

  if (!kUnpackedA || m == MR) {
    accumulate<Ops, MR, NR, false>(acc, kc, a, a_step, bsrc, nullptr);
  } else {
    typename Ops::Mask amask[kMv];
    row_masks<Ops, MR>(m, amask);
    accumulate<Ops, MR, NR, true>(acc, kc, a, a_step, bsrc, amask);
  }
  recompute_c_addresses(c, ldc);
  finish_tile<Ops, MR, NR>(acc, m, n, c, ldc, alpha, beta);
}

// simd_kernel_rows(): the MicroKernel entry (packed B). Edge tiles of m <= MR - kLanes rows
// run a narrower instantiation, so a tile of 8 rows costs 8/24 of a full tile, not all of it.
template <class Ops, int MR, int NR, bool kUnpackedA>
void simd_kernel_rows(index_t m, index_t n, index_t kc, const typename Ops::T* a, index_t a_step,
                      const typename Ops::T* b, typename Ops::T* c, index_t ldc,
                      typename Ops::T alpha, typename Ops::T beta) {
  constexpr int kL = Ops::kLanes;
  if constexpr (MR > kL) {
    if (m <= MR - kL) {
      simd_kernel_rows<Ops, MR - kL, NR, kUnpackedA>(m, n, kc, a, a_step, b, c, ldc, alpha, beta);
      return;
    }
  }
  simd_kernel_any_b<Ops, MR, NR, kUnpackedA>(m, n, kc, a, a_step, PackedB<typename Ops::T, NR>{b},
                                             c, ldc, alpha, beta);
}

// simd_packed_strip(): the MicroKernel entry for a strip of any m rows of packed A (one
// micro-panel of MR x kc after another) against one packed micro-panel of B: full tiles run
// the tile body inline (flattened), a call per strip instead of per tile (at k = 16 a tile is
// ~100 cycles of multiply-adds, and the call, masks and alpha/beta setup are a quarter of it).
// Packed B is one pointer, so the inlined tile keeps its registers, unlike the in-place tiles
// below.
template <class Ops, int MR, int NR>
[[gnu::flatten]] void simd_packed_strip(index_t m, index_t n, index_t kc, const typename Ops::T* a,
                                        index_t /*a_step == MR*/, const typename Ops::T* b,
                                        typename Ops::T* c, index_t ldc, typename Ops::T alpha,
                                        typename Ops::T beta) {
  index_t ir = 0;
  for (; ir + MR <= m; ir += MR) {
    simd_kernel_any_b<Ops, MR, NR, false>(
        MR, n, kc, a + ir * kc, MR, PackedB<typename Ops::T, NR>{b}, c + ir, ldc, alpha, beta);
  }
  if (ir < m) {
    simd_kernel_rows<Ops, MR, NR, false>(m - ir, n, kc, a + ir * kc, MR, b, c + ir, ldc, alpha,
                                         beta);
  }
}

// simd_in_place_tile(): the no-packing tile, A column-major in place (a_step = lda), n == NR
// columns of B read in place through BForm. Out of line: inlined into the strip, the tile's
// eight column pointers of B did not fit in the registers the strip's loop left free, and GCC
// parked them in vector registers, so each broadcast first waited for its pointer to come back
// (dgemm 16 x 16 x 16 ran faster out of line). With C's addresses recomputed after the k
// loop (recompute_c_addresses()) the inlined tile keeps its registers, and still runs dgemm NN
// and NT 2048 x 16 x 16 slower than the out-of-line one (docs/perf/blocking.md).
template <class Ops, int MR, int NR, template <class, int> class BForm>
[[gnu::noinline]] void simd_in_place_tile(index_t m, index_t kc, const typename Ops::T* a,
                                          index_t lda, const typename Ops::T* b, index_t ldb,
                                          typename Ops::T* c, index_t ldc, typename Ops::T alpha,
                                          typename Ops::T beta) {
  simd_kernel_any_b<Ops, MR, NR, true>(m, NR, kc, a, lda, BForm<typename Ops::T, NR>{b, ldb}, c,
                                       ldc, alpha, beta);
}

// simd_in_place_rows(): the edge tile of m < MR rows runs the instantiation of as many vectors
// as its rows need, as in simd_kernel_rows(): one call, the choice inline.
template <class Ops, int MR, int NR, template <class, int> class BForm>
[[gnu::always_inline]] inline void simd_in_place_rows(index_t m, index_t kc,
                                                      const typename Ops::T* a, index_t lda,
                                                      const typename Ops::T* b, index_t ldb,
                                                      typename Ops::T* c, index_t ldc,
                                                      typename Ops::T alpha, typename Ops::T beta) {
  constexpr int kL = Ops::kLanes;
  if constexpr (MR > kL) {
    if (m <= MR - kL) {
      simd_in_place_rows<Ops, MR - kL, NR, BForm>(m, kc, a, lda, b, ldb, c, ldc, alpha, beta);
      return;
    }
  }
  simd_in_place_tile<Ops, MR, NR, BForm>(m, kc, a, lda, b, ldb, c, ldc, alpha, beta);
}

// simd_in_place_strip(): a strip of m rows (any m) and NR columns, MR rows at a time; the
// last, partial tile goes to simd_in_place_rows(). Every tile is a call of its own: the tile
// holds its B pointers in registers, where the strip's loop state, inlined around it, pushed
// them out (simd_in_place_tile()).
template <class Ops, int MR, int NR, template <class, int> class BForm>
void simd_in_place_strip(index_t m, index_t kc, const typename Ops::T* a, index_t lda,
                         const typename Ops::T* b, index_t ldb, typename Ops::T* c, index_t ldc,
                         typename Ops::T alpha, typename Ops::T beta) {
  constexpr int kL = Ops::kLanes;
  // A strip of exactly four vectors' rows on a three-vector kernel (double m = 32 on the 24-row
  // one, float 64 on the 48-row one) runs as two tiles of four vectors by NR / 2 columns: as
  // many accumulators as one full tile, with four loads of A and NR / 2 broadcasts per NR * 2
  // multiply-adds, where two-vector tiles (16 + 16 rows by NR) load two and broadcast NR per
  // 2 * NR: dgemm at m = 32 and sgemm 64 x 64 x 64 run faster than the split. Partial
  // vectors (m = 25-31, 49-63) gained nothing sure this way (masked loads in every step) and
  // keep the split below (docs/perf/blocking.md).
  if constexpr (MR == 3 * kL && NR % 2 == 0) {
    if (m == MR + kL) {
      const BForm<typename Ops::T, NR> columns{b, ldb};
      simd_in_place_tile<Ops, MR + kL, NR / 2, BForm>(m, kc, a, lda, b, ldb, c, ldc, alpha, beta);
      simd_in_place_tile<Ops, MR + kL, NR / 2, BForm>(m, kc, a, lda, columns.at(NR / 2), ldb,
                                                      c + NR / 2 * ldc, ldc, alpha, beta);
      return;
    }
  }
  // A remainder of one vector's rows or fewer after a full tile (double m = 25-31: 24 + 1-7)
  // is run as two tiles of at least two vectors instead (16 + 9-15): a one-vector tile has NR
  // accumulators, one FMA chain each, and waits on their latency (split, dgemm and sgemm NN
  // 56 x 56 x 56 run a little faster; docs/perf/blocking.md).
  index_t full_end = m / MR * MR;
  if constexpr (MR > 2 * kL) {
    if (full_end >= MR && m - full_end > 0 && m - full_end <= kL) full_end -= MR;
  }
  index_t ir = 0;
  for (; ir < full_end; ir += MR) {
    simd_in_place_tile<Ops, MR, NR, BForm>(MR, kc, a + ir, lda, b, ldb, c + ir, ldc, alpha, beta);
  }
  if (m - ir > MR) {
    simd_in_place_tile<Ops, MR - kL, NR, BForm>(MR - kL, kc, a + ir, lda, b, ldb, c + ir, ldc,
                                                alpha, beta);
    ir += MR - kL;
  }
  if (ir < m) {
    simd_in_place_rows<Ops, MR, NR, BForm>(m - ir, kc, a + ir, lda, b, ldb, c + ir, ldc, alpha,
                                           beta);
  }
}

// simd_kernel_in_place(): the MicroKernelInPlace entry, all n columns: whole strips of NR
// columns by direct calls, then the last strip of n < NR columns by the NR = n instantiation,
// found in a table (one indirect call, where a chain of NR - n nested calls passing eleven
// arguments each cost ~5 ns a level at n = 1): it reads no column of B past the last (which
// may not exist) and does no multiply-add for the missing ones, so a 4 x 4 product costs a
// 4 x 4 tile. The loop over strips is here, not in the caller, so that a small product is one
// indirect call in all (docs/gemm.md, "Tiny products").
// tiny_shortcut() (gemm_tiny.hpp) runs the same tiles for m <= MR itself, through
// kOneTileTable and wide_tile_b_rows: a change to the tiles chosen here belongs there too.
template <class Ops, int MR, template <class, int> class BForm, int... kColumns>
void strip_of_width(std::integer_sequence<int, kColumns...> /*widths - 1*/, index_t m, index_t n,
                    index_t kc, const typename Ops::T* a, index_t lda, const typename Ops::T* b,
                    index_t ldb, typename Ops::T* c, index_t ldc, typename Ops::T alpha,
                    typename Ops::T beta) {
  using Strip = void (*)(index_t, index_t, const typename Ops::T*, index_t, const typename Ops::T*,
                         index_t, typename Ops::T*, index_t, typename Ops::T, typename Ops::T);
  static constexpr Strip kStrips[] = {&simd_in_place_strip<Ops, MR, kColumns + 1, BForm>...};
  kStrips[n - 1](m, kc, a, lda, b, ldb, c, ldc, alpha, beta);
}

template <class Ops, int MR, int NR, template <class, int> class BForm>
void simd_kernel_in_place(index_t m, index_t n, index_t kc, const typename Ops::T* a, index_t lda,
                          const typename Ops::T* b, index_t ldb, typename Ops::T* c, index_t ldc,
                          typename Ops::T alpha, typename Ops::T beta) {
  const BForm<typename Ops::T, NR> columns{b, ldb};
  index_t jr = 0;
  // One vector's rows against B's rows in place (op(B) = B^T): tiles of 2 NR columns, B read
  // through its one row pointer. An NR-column tile of one vector has only NR independent FMA
  // chains and waits on their latency (sgemm NT 16 x 16 x 16 ran faster with 2 NR; docs/gemm.md,
  // "Small path"; docs/perf/blocking.md).
  if constexpr (std::is_same_v<BForm<typename Ops::T, 1>, RowsB<typename Ops::T, 1>>) {
    if (m <= Ops::kLanes) {
      for (; jr + 2 * NR <= n; jr += 2 * NR) {
        simd_in_place_tile<Ops, Ops::kLanes, 2 * NR, BForm>(m, kc, a, lda, columns.at(jr), ldb,
                                                            c + jr * ldc, ldc, alpha, beta);
      }
    }
  }
  for (; jr + NR <= n; jr += NR) {
    simd_in_place_strip<Ops, MR, NR, BForm>(m, kc, a, lda, columns.at(jr), ldb, c + jr * ldc, ldc,
                                            alpha, beta);
  }
  if (jr < n) {
    strip_of_width<Ops, MR, BForm>(std::make_integer_sequence<int, NR>{}, m, n - jr, kc, a, lda,
                                   columns.at(jr), ldb, c + jr * ldc, ldc, alpha, beta);
  }
}

// kOneTileTable: for a product of one tile (m <= MR, n <= NR), the tile simd_kernel_in_place()
// runs for it, at entry (m - 1) * NR + n - 1: the narrowest tile of whole vectors that holds
// m rows, n columns wide (the same tile, so the same sums). Called straight from the tiny path,
// it saves the in-place kernel's and the strip's calls, each passing ten arguments and saving
// six registers: one-tile products run faster without them (docs/gemm.md, "Tiny products";
// docs/perf/small.md).
template <class Ops, int NR, template <class, int> class BForm, int... kEntry>
constexpr auto one_tile_table(std::integer_sequence<int, kEntry...> /*entries*/) {
  constexpr int kL = Ops::kLanes;
  return std::array<MicroTileInPlace<typename Ops::T>, sizeof...(kEntry)>{
      &simd_in_place_tile<Ops, (kEntry / NR + kL) / kL * kL, kEntry % NR + 1, BForm>...};
}
template <class Ops, int MR, int NR, template <class, int> class BForm>
inline constexpr auto kOneTileTable =
    one_tile_table<Ops, NR, BForm>(std::make_integer_sequence<int, MR * NR>{});

}  // namespace teamla::linalg::detail
