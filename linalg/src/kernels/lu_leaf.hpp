// SPDX-License-Identifier: Apache-2.0
// lu_leaf.hpp: the unblocked LU of getrf's narrowest panels (LAPACK's dgetf2), written once
// and compiled once per ISA beside the Cholesky leaves (kernels/chol_leaf.hpp, whose ISA
// description it takes, so that its instantiations never merge across ISAs).
//
// The leaf is a few columns of a tall panel, column-major. Each column: the pivot search, the
// interchange across the leaf, the scaling below the pivot, and a rank-1 update of the leaf's
// later columns. Those loops run over the panel's whole height, so they are written for the
// compiler to vectorize at the file's ISA width: unit stride, no early exit. The pivot search
// (idamax: the first entry of largest magnitude, NaN never larger) is a vectorizable maximum
// over the magnitudes' bit patterns, which order as the magnitudes do, block by block, then a
// scan of the first block that reaches it.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/leaf_kernels.hpp"

namespace teamla::linalg::level3_detail {

template <class Isa>
struct LuLeaf {
  template <class T>
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

  // magnitude_bits(): |x|'s bit pattern. For numbers it orders as |x| does; every NaN's is
  // larger than infinity's.
  template <class T>
  static Bits<T> magnitude_bits(T x) {
    constexpr Bits<T> kSign = Bits<T>(1) << (sizeof(T) * 8 - 1);
    return std::bit_cast<Bits<T>>(x) & ~kSign;
  }

  // pivot_index_exact(): idamax's loop as the reference writes it, for a column with a NaN.
  template <class T>
  static index_t pivot_index_exact(const T* x, index_t n, index_t rs) {
    index_t best = 0;
    T best_abs = std::fabs(x[0]);
    for (index_t i = 1; i < n; ++i) {
      if (std::fabs(x[i * rs]) > best_abs) {
        best_abs = std::fabs(x[i * rs]);
        best = i;
      }
    }
    return best;
  }

  // pivot_index(): idamax over x[0], x[rs], ... x[(n - 1) * rs], n >= 1, in one pass: the
  // largest magnitude of each block of kBlock entries (a vectorized maximum), the first block
  // that holds the largest, then the first entry of that block that reaches it. A NaN (its
  // bits beat every number's) sends the column to the reference loop.
  template <class T, bool kUnitRows>
  static index_t pivot_index(const T* __restrict x, index_t n, index_t rs_in) {
    constexpr index_t kBlock = 16;
    constexpr Bits<T> kInf = std::bit_cast<Bits<T>>(std::numeric_limits<T>::infinity());
    const index_t rs = kUnitRows ? 1 : rs_in;
    Bits<T> best = 0;
    index_t best_start = 0;
    index_t start = 0;
    for (; start + kBlock <= n; start += kBlock) {
      Bits<T> block = 0;
      for (index_t i = 0; i < kBlock; ++i)
        block = std::max(block, magnitude_bits(x[(start + i) * rs]));
      if (block > best) {
        best = block;
        best_start = start;
      }
    }
    for (index_t i = start; i < n; ++i) {
      if (magnitude_bits(x[i * rs]) > best) {
        best = magnitude_bits(x[i * rs]);
        best_start = i;
      }
    }
    if (best > kInf) return pivot_index_exact(x, n, rs);
    index_t i = best_start;
    while (magnitude_bits(x[i * rs]) != best) ++i;
    return i;
  }

  // factor(): getf2() with the row stride a compile-time 1 (column-major: the loops vectorize)
  // or the run-time rs.
  template <class T, bool kUnitRows>
  static index_t factor(T* a, index_t m, index_t n, index_t rs_in, index_t cs, int* ipiv,
                        index_t base) {
    const index_t rs = kUnitRows ? 1 : rs_in;
    index_t info = 0;
    for (index_t j = 0; j < n; ++j) {
      T* __restrict col = a + j * cs;
      const index_t piv = j + pivot_index<T, kUnitRows>(col + j * rs, m - j, rs);
      ipiv[j] = static_cast<int>(piv + 1 + base);
      const T pivot = col[piv * rs];
      if (pivot != T(0)) {
        if (piv != j) {
          for (index_t c = 0; c < n; ++c) std::swap(a[j * rs + c * cs], a[piv * rs + c * cs]);
        }
        // The reciprocal where it is finite, else a division (LAPACK's sfmin test).
        if (std::fabs(pivot) >= std::numeric_limits<T>::min()) {
          const T r = T(1) / pivot;
          for (index_t i = j + 1; i < m; ++i) col[i * rs] *= r;
        } else {
          for (index_t i = j + 1; i < m; ++i) col[i * rs] /= pivot;
        }
      } else if (info == 0) {
        info = j + 1;
      }
      for (index_t c = j + 1; c < n; ++c) {
        T* __restrict dst = a + c * cs;
        const T u = dst[j * rs];
        for (index_t i = j + 1; i < m; ++i) dst[i * rs] -= col[i * rs] * u;
      }
    }
    return info;
  }

  // getf2(): a (m x n, m >= n, element (i, j) at a[i * rs + j * cs]) factored in place;
  // ipiv[j] = the pivot row of column j, 1-based, plus base. Returns the 1-based column of the
  // first zero pivot, or 0.
  template <class T>
  static index_t getf2(T* a, index_t m, index_t n, index_t rs, index_t cs, int* ipiv,
                       index_t base) {
    return rs == 1 ? factor<T, true>(a, m, n, rs, cs, ipiv, base)
                   : factor<T, false>(a, m, n, rs, cs, ipiv, base);
  }
};

}  // namespace teamla::linalg::level3_detail
