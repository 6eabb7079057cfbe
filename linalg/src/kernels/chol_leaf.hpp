// SPDX-License-Identifier: Apache-2.0
// chol_leaf.hpp: the leaf kernels of TRSM and POTRF (and, registered with them, GETRF's:
// kernels/lu_leaf.hpp), written once over an ISA description and
// compiled once per ISA (in kernels/<isa>/table_<isa>.cpp), as the gemm kernels are over Ops.
//
// CholLeaves<Isa> holds every leaf. Isa is a type local to its kernel file, so each file's
// instantiations have internal linkage and never merge with another ISA's under the
// one-definition rule. It says:
//   - kVecBytes: the width of the ISA's vectors (RegVec);
//   - kRegisterLeaves: whether 32- and 64-column leaves are factored in registers (RegLeaf).
//     The reference file says no: it serves CPUs without AVX2 and the tests' forced ISA, and
//     the fully unrolled leaves are slow to compile;
//   - kTiles: the MR x NR tiles of that ISA's gemm kernels, the only full tiles that
//     solve_panel_tile() meets, solved in registers (RegTileSolve).
// The loops are plain C++ with unit-stride inner loops, so the compiler vectorizes them at
// each file's ISA width.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "isa_dispatch.hpp"
#include "kernels/complex_lu_leaf.hpp"
#include "kernels/leaf_kernels.hpp"
#include "kernels/lu_leaf.hpp"

namespace teamla::linalg::level3_detail {

// TileShape: a register tile of solve_panel_tile(), mr rows by w columns.
struct TileShape {
  index_t mr;
  index_t w;
};

inline constexpr index_t kRegLeaf = 32;

// kIndex<decltype(i)>: the value of an index handed over by RegVec::each().
template <class C>
inline constexpr index_t kIndex = std::remove_cvref_t<C>::value;

template <class Isa>
struct CholLeaves {
  // RegVec: the ISA's vector of T and the helpers the register kernels share.
  template <class T>
  struct RegVec {
    typedef T V __attribute__((vector_size(Isa::kVecBytes)));
    static constexpr index_t kL = Isa::kVecBytes / static_cast<index_t>(sizeof(T));

    // each<N>(f) calls f(std::integral_constant<index_t, I>) for I = 0 .. N-1, so that every
    // index (and every vector lane) is a compile-time constant.
    template <index_t N, class F>
    static void each(F&& f) {
      [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
        (f(std::integral_constant<index_t, I>{}), ...);
      }
      (std::make_integer_sequence<index_t, N>{});
    }
    static V load(const T* p) {
      V v;
      std::memcpy(&v, p, sizeof(V));
      return v;
    }
    static void store(T* p, const V& v) { std::memcpy(p, &v, sizeof(V)); }
    static V splat(T x) { return V{} + x; }
  };

  // RegLeaf: the leaves of exactly kRegLeaf and kRegLeafLarge columns, the common ones (every
  // leaf of a power-of-two tile). With the sizes compile-time constants, a panel of kP columns
  // (16 vectors) is loaded once, updated by the columns left of it (left-looking, one vector
  // load and kP broadcasts per column), factored in registers with its pivots read from vector
  // lanes, and stored once. The general leaf (potf2_lower()) factors in memory, so each pivot
  // and multiplier is a scalar load of a vector just stored, and each short column loop pays
  // its own setup: its 32-column leaves held most of a small factorization's time. Leaves of
  // 64 stop the recursion a level earlier, saving a TRSM and a gemm call per pair of leaves
  // (docs/perf/blocking.md).
  template <class T, index_t kN = kRegLeaf>
  struct RegLeaf {
    static_assert(kN == kRegLeaf || kN == kRegLeafLarge);
    using B = RegVec<T>;
    using V = typename B::V;
    static constexpr index_t kL = B::kL;
    static constexpr index_t kV = kN / kL;                    // vectors per column
    static constexpr index_t kP = 16 / kV > 0 ? 16 / kV : 1;  // panel columns: 16 vectors

    // panel<P0>(): columns [P0, P0 + kP). Vectors start at the aligned row at or above P0; the
    // rows above P0 they carry are the tile's scratch upper triangle.
    template <index_t P0>
    static index_t panel(T* a, index_t lda) {
      constexpr index_t v0 = P0 / kL;
      V col[kP][kV] = {};
      B::template each<kP>([&](auto c) {
        B::template each<kV>([&](auto v) {
          if constexpr (v >= v0) col[c][v] = B::load(a + (P0 + c) * lda + v * kL);
        });
      });
      for (index_t k = 0; k < P0; ++k) {
        const T* lk = a + k * lda;
        V lv[kV] = {};
        B::template each<kV>([&](auto v) {
          if constexpr (v >= v0) lv[v] = B::load(lk + v * kL);
        });
        B::template each<kP>([&](auto c) {
          const V f = B::splat(lk[P0 + c]);
          B::template each<kV>([&](auto v) {
            if constexpr (v >= v0) col[c][v] -= lv[v] * f;
          });
        });
      }
      index_t info = 0;
      B::template each<kP>([&](auto c) {
        constexpr index_t j = P0 + kIndex<decltype(c)>;
        if (info != 0) return;
        const T pivot = col[c][j / kL][j % kL];
        if (!(pivot > T(0))) {  // NaN fails too
          info = j + 1;
          return;
        }
        const T diag = std::sqrt(pivot);
        const V inv = B::splat(T(1) / diag);
        B::template each<kV>([&](auto v) {
          if constexpr (v >= v0) col[c][v] *= inv;
        });
        col[c][j / kL][j % kL] = diag;
        B::template each<kP>([&](auto c2) {
          constexpr index_t right = kIndex<decltype(c2)>;
          constexpr index_t self = kIndex<decltype(c)>;
          constexpr index_t j2 = P0 + right;
          if constexpr (right > self) {
            const V f = B::splat(col[c][j2 / kL][j2 % kL]);
            B::template each<kV>([&](auto v) {
              if constexpr (v >= v0) col[c2][v] -= col[c][v] * f;
            });
          }
        });
      });
      if (info != 0) return info;
      B::template each<kP>([&](auto c) {
        B::template each<kV>([&](auto v) {
          if constexpr (v >= v0) B::store(a + (P0 + c) * lda + v * kL, col[c][v]);
        });
      });
      return 0;
    }

    // factor(): the kRegLeaf x kRegLeaf leaf at `a`; info as potf2_lower's.
    static index_t factor(T* a, index_t lda) {
      index_t info = 0;
      B::template each<kN / kP>([&](auto p) {
        if (info == 0) info = RegLeaf::template panel<kIndex<decltype(p)> * kP>(a, lda);
      });
      return info;
    }
  };

  // RegTileSolve<T, kMR, kW>: solve_panel_tile() on a full kMR x kW register tile: the tile is
  // loaded once, solved in registers (the multipliers broadcast from the packed diagonal
  // block), and stored once. The loop version loaded and stored each column once per column
  // to its left, a visible share of a 2-thread n = 4096 dpotrf in perf (docs/perf/blocking.md).
  template <class T, index_t kMR, index_t kW>
  struct RegTileSolve {
    using B = RegVec<T>;
    static constexpr index_t kVr = kMR / B::kL;  // vectors per column
    static void solve(T* x, const T* d, index_t d_step, const T* rdiag) {
      typename B::V col[kW][kVr];
      B::template each<kW>([&](auto c) {
        B::template each<kVr>([&](auto v) { col[c][v] = B::load(x + c * kMR + v * B::kL); });
      });
      B::template each<kW>([&](auto c) {
        B::template each<kW>([&](auto j) {
          constexpr index_t left = kIndex<decltype(j)>;
          constexpr index_t self = kIndex<decltype(c)>;
          if constexpr (left < self) {
            const auto f = B::splat(d[j * d_step + c]);
            B::template each<kVr>([&](auto v) { col[c][v] -= col[j][v] * f; });
          }
        });
        const auto r = B::splat(rdiag[c]);
        B::template each<kVr>([&](auto v) {
          col[c][v] *= r;
          B::store(x + c * kMR + v * B::kL, col[c][v]);
        });
      });
    }
  };

  // potf2_lower(): right-looking Cholesky of a contiguous column-major n x n lower triangle (n
  // is small: a leaf of the recursive diagonal-tile factorization, whose strict upper triangle
  // is scratch). Columns go in groups of kGroup: a group is factored among itself, then the
  // columns right of it get one rank-kGroup update each, a single pass with kGroup FMAs per
  // vector instead of kGroup passes. Every column loop starts at the vector-aligned row at or
  // above its first lower entry, so it runs whole vectors without a peel; the rows above the
  // diagonal that it also touches are scratch and never read into the factor.
  // kGroup = 8 (against 4) and the aligned starts: each sped up n = 64 (docs/perf/blocking.md).
  // Leaves of exactly 32 or 64 columns, the common cases, go to RegLeaf (above).
  template <class T>
  static index_t potf2_lower(T* a, index_t n, index_t lda) {
    if constexpr (Isa::kRegisterLeaves) {
      if (n == kRegLeaf) return RegLeaf<T>::factor(a, lda);
      if (n == kRegLeafLarge) return RegLeaf<T, kRegLeafLarge>::factor(a, lda);
    }
    constexpr index_t kVec = 64 / static_cast<index_t>(sizeof(T));
    constexpr index_t kGroup = 8;
    for (index_t j0 = 0; j0 < n; j0 += kGroup) {
      const index_t j1 = std::min(n, j0 + kGroup);
      // The group's own columns, one at a time.
      for (index_t j = j0; j < j1; ++j) {
        T* __restrict col = a + j * lda;
        const T pivot = col[j];
        if (!(pivot > T(0))) return j + 1;  // NaN fails too
        const T diag = std::sqrt(pivot);
        const T inv = T(1) / diag;
        for (index_t i = j / kVec * kVec; i < n; ++i) col[i] *= inv;
        col[j] = diag;
        for (index_t k = j + 1; k < j1; ++k) {
          const T f = col[k];
          T* __restrict dst = a + k * lda;
          for (index_t i = k / kVec * kVec; i < n; ++i) dst[i] -= f * col[i];
        }
      }
      // Every column right of the group: one pass per column.
      const T* __restrict c0 = a + j0 * lda;
      if (j1 - j0 == kGroup) {
        const T* __restrict c1 = c0 + lda;
        const T* __restrict c2 = c1 + lda;
        const T* __restrict c3 = c2 + lda;
        const T* __restrict c4 = c3 + lda;
        const T* __restrict c5 = c4 + lda;
        const T* __restrict c6 = c5 + lda;
        const T* __restrict c7 = c6 + lda;
        for (index_t k = j1; k < n; ++k) {
          const T f0 = c0[k], f1 = c1[k], f2 = c2[k], f3 = c3[k];
          const T f4 = c4[k], f5 = c5[k], f6 = c6[k], f7 = c7[k];
          T* __restrict dst = a + k * lda;
          for (index_t i = k / kVec * kVec; i < n; ++i) {
            dst[i] -= f0 * c0[i] + f1 * c1[i] + f2 * c2[i] + f3 * c3[i] + f4 * c4[i] + f5 * c5[i] +
                      f6 * c6[i] + f7 * c7[i];
          }
        }
      } else {
        for (index_t j = j0; j < j1; ++j) {
          const T* __restrict col = a + j * lda;
          for (index_t k = j1; k < n; ++k) {
            const T f = col[k];
            T* __restrict dst = a + k * lda;
            for (index_t i = k / kVec * kVec; i < n; ++i) dst[i] -= f * col[i];
          }
        }
      }
    }
    return 0;
  }

  // Row-contiguous B (cs == 1). Columns go in strips of kStrip (eight 512-bit vectors): row i
  // of a strip is accumulated in registers over the already solved rows j < i (one load and
  // one FMA per vector and j, no store; eight independent chains cover the FMA latency), then
  // stored once, both to B and to a contiguous copy of the strip that the later rows read.
  // Reading the solved rows back from B instead would walk a stride of ld: at ld = 512
  // doubles every row maps to the same L1 sets, and the kernel then takes a large share of a
  // 512 factorization, as the axpy form (load, FMA, store per vector and j) does at 256
  // (docs/cholesky.md, "TRSM"; docs/perf/blocking.md).
  template <class T>
  static constexpr index_t kStrip = 512 / static_cast<index_t>(sizeof(T));

  // solve_strip(): the columns [c0, c0 + w) of B, w a compile-time width.
  template <class T, bool kLower, index_t w>
  static void solve_strip(const T* t, const T* rdiag, bool unit, index_t k, T* b, index_t rs,
                          index_t c0, T* solved) {
    for (index_t step = 0; step < k; ++step) {
      const index_t i = kLower ? step : k - 1 - step;
      T acc[w];
      T* __restrict bi = b + i * rs + c0;
      for (index_t c = 0; c < w; ++c) acc[c] = bi[c];
      const index_t j0 = kLower ? 0 : i + 1;
      const index_t j1 = kLower ? i : k;
      for (index_t j = j0; j < j1; ++j) {
        const T f = t[i + j * k];
        const T* __restrict xj = solved + j * w;
        for (index_t c = 0; c < w; ++c) acc[c] -= f * xj[c];
      }
      if (!unit) {
        const T r = rdiag[i];
        for (index_t c = 0; c < w; ++c) acc[c] *= r;
      }
      T* __restrict xi = solved + i * w;
      for (index_t c = 0; c < w; ++c) {
        xi[c] = acc[c];
        bi[c] = acc[c];
      }
    }
  }

  template <class T, bool kLower>
  static void solve_rows(const T* t, const T* rdiag, bool unit, index_t k, T* b, index_t rs,
                         index_t nrhs) {
    // Strips of 8, 4, 2 and 1 512-bit vectors: the diagonal tiles of small factorizations
    // (n = 64: 32 right-hand sides) fit the narrow ones instead of the axpy tail below.
    constexpr index_t wide = kStrip<T>;
    alignas(64) T solved[kLeafSolve * wide];
    index_t c0 = 0;
    for (; c0 + wide <= nrhs; c0 += wide) {
      solve_strip<T, kLower, wide>(t, rdiag, unit, k, b, rs, c0, solved);
    }
    if (c0 + wide / 2 <= nrhs) {
      solve_strip<T, kLower, wide / 2>(t, rdiag, unit, k, b, rs, c0, solved);
      c0 += wide / 2;
    }
    if (c0 + wide / 4 <= nrhs) {
      solve_strip<T, kLower, wide / 4>(t, rdiag, unit, k, b, rs, c0, solved);
      c0 += wide / 4;
    }
    if (c0 + wide / 8 <= nrhs) {
      solve_strip<T, kLower, wide / 8>(t, rdiag, unit, k, b, rs, c0, solved);
      c0 += wide / 8;
    }
    const index_t len = nrhs - c0;
    if (len == 0) return;
    for (index_t step = 0; step < k; ++step) {
      const index_t i = kLower ? step : k - 1 - step;
      T* __restrict bi = b + i * rs + c0;
      const index_t j0 = kLower ? 0 : i + 1;
      const index_t j1 = kLower ? i : k;
      for (index_t j = j0; j < j1; ++j) {
        const T f = t[i + j * k];
        const T* __restrict bj = b + j * rs + c0;
        for (index_t c = 0; c < len; ++c) bi[c] -= f * bj[c];
      }
      if (!unit) {
        const T r = rdiag[i];
        for (index_t c = 0; c < len; ++c) bi[c] *= r;
      }
    }
  }

  // Column-contiguous B (rs == 1): each column is a forward/backward substitution whose
  // updates are axpys down a (packed, contiguous) column of the triangle.
  template <class T>
  static void solve_lower_cols(const T* l, const T* rdiag, bool unit, index_t k, T* b, index_t cs,
                               index_t nrhs) {
    for (index_t c = 0; c < nrhs; ++c) {
      T* __restrict x = b + c * cs;
      for (index_t j = 0; j < k; ++j) {
        if (!unit) x[j] *= rdiag[j];
        const T f = x[j];
        const T* __restrict lj = l + j * k;
        for (index_t i = j + 1; i < k; ++i) x[i] -= f * lj[i];
      }
    }
  }

  template <class T>
  static void solve_upper_cols(const T* u, const T* rdiag, bool unit, index_t k, T* b, index_t cs,
                               index_t nrhs) {
    for (index_t c = 0; c < nrhs; ++c) {
      T* __restrict x = b + c * cs;
      for (index_t j = k - 1; j >= 0; --j) {
        if (!unit) x[j] *= rdiag[j];
        const T f = x[j];
        const T* __restrict uj = u + j * k;
        for (index_t i = 0; i < j; ++i) x[i] -= f * uj[i];
      }
    }
  }

  // Any other strides (a sub-view of a view with both strides > 1 cannot occur for valid
  // views, but a 1-row or 1-column view can have either): element-wise.
  template <class T>
  static void solve_lower_strided(const T* l, const T* rdiag, bool unit, index_t k, T* b,
                                  index_t rs, index_t cs, index_t nrhs) {
    for (index_t c = 0; c < nrhs; ++c) {
      for (index_t j = 0; j < k; ++j) {
        T& xj = b[j * rs + c * cs];
        if (!unit) xj *= rdiag[j];
        for (index_t i = j + 1; i < k; ++i) b[i * rs + c * cs] -= xj * l[i + j * k];
      }
    }
  }

  template <class T>
  static void solve_upper_strided(const T* u, const T* rdiag, bool unit, index_t k, T* b,
                                  index_t rs, index_t cs, index_t nrhs) {
    for (index_t c = 0; c < nrhs; ++c) {
      for (index_t j = k - 1; j >= 0; --j) {
        T& xj = b[j * rs + c * cs];
        if (!unit) xj *= rdiag[j];
        for (index_t i = 0; i < j; ++i) b[i * rs + c * cs] -= xj * u[i + j * k];
      }
    }
  }

  // Column-contiguous B with many columns: each strip of columns is transposed into a row-major
  // buffer, solved by solve_strip, and transposed back. The copies cost 2 k w moves against
  // k^2 w / 2 FMAs; solving columns one by one (solve_*_cols) runs axpys of at most k = 32
  // elements, each waiting on the last, and made the upper-triangle potrf half as fast as the
  // lower one. Strips of 8, 4, 2 and 1 512-bit vectors, as solve_rows(): with whole strips only,
  // fewer than 128 float right-hand sides (a trsm slice of 32 or 64 columns) would take the
  // axpys, which ran 1-thread strsm 128 x 64 at under half dtrsm's rate (docs/perf/blocking.md).
  template <class T, bool kLower, index_t w>
  static void solve_cols_strip(const T* t, const T* rdiag, bool unit, index_t k, T* b, index_t cs,
                               index_t c0, T* rows, T* solved) {
    for (index_t c = 0; c < w; ++c) {
      const T* __restrict col = b + (c0 + c) * cs;
      for (index_t i = 0; i < k; ++i) rows[i * w + c] = col[i];
    }
    solve_strip<T, kLower, w>(t, rdiag, unit, k, rows, w, 0, solved);
    for (index_t c = 0; c < w; ++c) {
      T* __restrict col = b + (c0 + c) * cs;
      for (index_t i = 0; i < k; ++i) col[i] = rows[i * w + c];
    }
  }

  // kNarrowestColStrip: the narrowest strip solve_cols_by_strips() takes (one 512-bit vector).
  template <class T>
  static constexpr index_t kNarrowestColStrip = kStrip<T> / 8;

  template <class T, bool kLower>
  static index_t solve_cols_by_strips(const T* t, const T* rdiag, bool unit, index_t k, T* b,
                                      index_t cs, index_t nrhs) {
    constexpr index_t w = kStrip<T>;
    alignas(64) T rows[kLeafSolve * w];
    alignas(64) T solved[kLeafSolve * w];
    index_t c0 = 0;
    for (; c0 + w <= nrhs; c0 += w) {
      solve_cols_strip<T, kLower, w>(t, rdiag, unit, k, b, cs, c0, rows, solved);
    }
    if (c0 + w / 2 <= nrhs) {
      solve_cols_strip<T, kLower, w / 2>(t, rdiag, unit, k, b, cs, c0, rows, solved);
      c0 += w / 2;
    }
    if (c0 + w / 4 <= nrhs) {
      solve_cols_strip<T, kLower, w / 4>(t, rdiag, unit, k, b, cs, c0, rows, solved);
      c0 += w / 4;
    }
    if (c0 + w / 8 <= nrhs) {
      solve_cols_strip<T, kLower, w / 8>(t, rdiag, unit, k, b, cs, c0, rows, solved);
      c0 += w / 8;
    }
    return c0;
  }

  // solve(): the leaf solve by the lower (kLower) or upper triangle t, on the form that B's
  // strides allow: strips of columns, rows, single columns or single elements.
  template <class T, bool kLower>
  static void solve(const T* t, const T* rdiag, bool unit, index_t k, T* b, index_t rs, index_t cs,
                    index_t nrhs) {
    if (rs == 1 && cs != 1 && nrhs >= kNarrowestColStrip<T>) {
      const index_t done = solve_cols_by_strips<T, kLower>(t, rdiag, unit, k, b, cs, nrhs);
      b += done * cs;
      nrhs -= done;
    }
    if (cs == 1 && nrhs > 1) {
      solve_rows<T, kLower>(t, rdiag, unit, k, b, rs, nrhs);
    } else if (rs == 1) {
      if constexpr (kLower) {
        solve_lower_cols(t, rdiag, unit, k, b, cs, nrhs);
      } else {
        solve_upper_cols(t, rdiag, unit, k, b, cs, nrhs);
      }
    } else if constexpr (kLower) {
      solve_lower_strided(t, rdiag, unit, k, b, rs, cs, nrhs);
    } else {
      solve_upper_strided(t, rdiag, unit, k, b, rs, cs, nrhs);
    }
  }

  // solve_register_tile(): RegTileSolve on x when (mr, w) is one of Isa::kTiles whose rows
  // fill whole vectors; false when it is none.
  template <class T, std::size_t... I>
  static bool solve_register_tile(T* x, index_t mr, index_t w, const T* d, index_t d_step,
                                  const T* rdiag, std::index_sequence<I...>) {
    [[maybe_unused]] const auto try_tile =
        [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
          constexpr TileShape kTile = Isa::kTiles[J];
          if constexpr (kTile.mr % RegVec<T>::kL == 0) {
            if (mr == kTile.mr && w == kTile.w) {
              RegTileSolve<T, kTile.mr, kTile.w>::solve(x, d, d_step, rdiag);
              return true;
            }
          }
          return false;
        };
    return (try_tile(std::integral_constant<std::size_t, I>{}) || ...);
  }

  // solve_panel_tile(): X * D^T = X in place for one register tile of a panel solve. X is
  // column-major mr x w (ld mr), D the w x w lower diagonal block of L11 with D(c2, c) at
  // d[c * d_step + c2] (packed as gemm's B micro-panel, potrf_step.cpp), rdiag its reciprocal
  // diagonal. Left-looking: each column is loaded once, updated by the solved columns to its
  // left and scaled: w (w - 1) / 2 multiply-adds a row, little beside its gemm update's k w.
  template <class T>
  static void solve_panel_tile(T* x, index_t mr, index_t w, const T* d, index_t d_step,
                               const T* rdiag) {
    // The full tiles of the gemm kernels this ISA's leaves run beside, in registers.
    if (solve_register_tile<T>(x, mr, w, d, d_step, rdiag,
                               std::make_index_sequence<Isa::kTiles.size()>{})) {
      return;
    }
    for (index_t c = 0; c < w; ++c) {
      T* __restrict xc = x + c * mr;
      for (index_t j = 0; j < c; ++j) {
        const T f = d[j * d_step + c];
        const T* __restrict xj = x + j * mr;
        for (index_t i = 0; i < mr; ++i) xc[i] -= f * xj[i];
      }
      const T r = rdiag[c];
      for (index_t i = 0; i < mr; ++i) xc[i] *= r;
    }
  }

  // table(): the leaves of this ISA, for its registration (kernels/<isa>/table_<isa>.cpp).
  template <class T>
  static const LeafKernels<T>& table() {
    static const LeafKernels<T> kernels{&potf2_lower<T>,
                                        &solve<T, true>,
                                        &solve<T, false>,
                                        &solve_panel_tile<T>,
                                        &LuLeaf<Isa>::template getf2<T>,
                                        &ComplexLuLeaf<Isa>::template getf2<T>,
                                        &ComplexVector<Isa>::template solve_rows<T>};
    return kernels;
  }
};

}  // namespace teamla::linalg::level3_detail
