// SPDX-License-Identifier: Apache-2.0
// gemm_tiles_test.cpp: the tiny path's direct tiles (isa_dispatch.hpp, one_tile_b_cols,
// one_tile_b_rows, wide_tile_b_rows): every entry of each SIMD kernel set's tables computes its
// tile, and gemm_tiny_col_major(), which calls them a row of tiles at a time, matches the naive
// product for every m up to MR and n up to three strips, with padded leading dimensions, on
// every ISA; and the tall kernel (KernelFns::tall) over its strips, tiles and blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "isa_dispatch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/isa.hpp"

namespace teamla::linalg {
namespace {

using detail::Isa;

struct IsaGuard {
  ~IsaGuard() { detail::clear_isa_override(); }
};

// Operands of C(m x n) = alpha * A(m x k) * op(B) + beta * C, column-major with padded leading
// dimensions; op(B) is B (k x n) or, `b_rows`, B^T of an n x k B.
template <class T>
struct Operands {
  index_t m, n, k, lda, ldb, ldc;
  bool b_rows;
  std::vector<T> a, b, c;

  Operands(index_t m_, index_t n_, index_t k_, bool b_rows_, std::mt19937_64& rng)
      : m(m_),
        n(n_),
        k(k_),
        lda(m_ + 3),
        ldb((b_rows_ ? n_ : k_) + 2),
        ldc(m_ + 1),
        b_rows(b_rows_) {
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    const auto fill = [&](std::vector<T>& v, index_t size) {
      v.resize(static_cast<std::size_t>(size));
      for (T& x : v) x = static_cast<T>(value(rng));
    };
    fill(a, lda * k);
    fill(b, ldb * (b_rows ? k : n));
    fill(c, ldc * n);
  }
  [[nodiscard]] T b_at(index_t p, index_t j) const {
    return b_rows ? b[static_cast<std::size_t>(j + p * ldb)]
                  : b[static_cast<std::size_t>(p + j * ldb)];
  }
  // expected(): the product in double precision, and the rows and padding of C left alone.
  [[nodiscard]] std::vector<double> expected(T alpha, T beta) const {
    std::vector<double> out(c.begin(), c.end());
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = 0; i < m; ++i) {
        double sum = 0;
        for (index_t p = 0; p < k; ++p) {
          sum += static_cast<double>(a[static_cast<std::size_t>(i + p * lda)]) *
                 static_cast<double>(b_at(p, j));
        }
        double& cij = out[static_cast<std::size_t>(i + j * ldc)];
        cij = static_cast<double>(alpha) * sum + static_cast<double>(beta) * cij;
      }
    }
    return out;
  }
};

template <class T>
void expect_near(const std::vector<double>& want, const std::vector<T>& got, index_t k,
                 const std::string& where) {
  const double tolerance = (sizeof(T) == 4 ? 2e-6 : 4e-15) * static_cast<double>(k + 2);
  for (std::size_t x = 0; x < want.size(); ++x) {
    ASSERT_NEAR(want[x], static_cast<double>(got[x]), tolerance) << where << " element " << x;
  }
}

std::vector<Isa> simd_isas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (detail::isa_supported(isa)) isas.push_back(isa);
  }
  return isas;
}

// Every entry (m - 1) * NR + n - 1 of both tables computes C for m rows and n columns, and the
// wide tile for one vector's rows 2 NR columns wide.
template <class T>
void every_table_entry() {
  IsaGuard guard;
  std::mt19937_64 rng(29);
  const std::vector<Isa> isas = simd_isas();
  if (isas.empty()) GTEST_SKIP() << "no SIMD kernels on this CPU";
  for (Isa isa : isas) {
    detail::force_isa(isa);
    const detail::KernelFns<T>& fns = detail::kernels<T>().fns;
    ASSERT_NE(fns.one_tile_b_cols, nullptr) << fns.name;
    ASSERT_NE(fns.one_tile_b_rows, nullptr) << fns.name;
    ASSERT_NE(fns.wide_tile_b_rows, nullptr) << fns.name;
    for (index_t m = 1; m <= fns.row_step; ++m) {  // the 2 NR-column tile of one vector's rows
      Operands<T> x(m, 2 * fns.nr, 5, true, rng);
      const std::vector<double> want = x.expected(T(-1), T(2));
      fns.wide_tile_b_rows(m, 5, x.a.data(), x.lda, x.b.data(), x.ldb, x.c.data(), x.ldc, T(-1),
                           T(2));
      expect_near(want, x.c, 5, std::string(fns.name) + " wide tile, m " + std::to_string(m));
    }
    for (index_t m = 1; m <= fns.mr; ++m) {
      for (index_t n = 1; n <= fns.nr; ++n) {
        for (const bool b_rows : {false, true}) {
          const index_t k = 1 + (m + n) % 9;
          Operands<T> x(m, n, k, b_rows, rng);
          const std::vector<double> want = x.expected(T(1.5), T(-0.5));
          const auto* table = b_rows ? fns.one_tile_b_rows : fns.one_tile_b_cols;
          table[(m - 1) * fns.nr + n - 1](m, k, x.a.data(), x.lda, x.b.data(), x.ldb, x.c.data(),
                                          x.ldc, T(1.5), T(-0.5));
          expect_near(want, x.c, k,
                      std::string(fns.name) + " m " + std::to_string(m) + " n " +
                          std::to_string(n) + (b_rows ? " B rows" : " B columns"));
        }
      }
    }
  }
}

TEST(GemmTiles, EveryTableEntryComputesItsTileDouble) { every_table_entry<double>(); }
TEST(GemmTiles, EveryTableEntryComputesItsTileFloat) { every_table_entry<float>(); }

// The tiny path over a row of tiles: n past NR (whole strips and a partial one), both forms of
// op(B), alpha and beta special values, on every ISA (the reference kernels have no tables).
template <class T>
void rows_of_tiles() {
  IsaGuard guard;
  std::mt19937_64 rng(31);
  for (Isa isa : {Isa::ref, Isa::avx2, Isa::avx512}) {
    if (!detail::isa_supported(isa)) continue;
    detail::force_isa(isa);
    const detail::KernelFns<T>& fns = detail::kernels<T>().fns;
    int turn = 0;
    for (index_t m = 1; m <= fns.mr; ++m) {
      for (index_t n = 1; n <= 3 * fns.nr + 1; ++n) {
        for (const bool b_rows : {false, true}) {
          const index_t k = 2 + (m * n) % 7;
          if (!gemm_is_tiny(m, n, k)) continue;
          const T alpha = turn % 3 == 0 ? T(1) : T(-2);
          const T beta = turn % 4 == 0 ? T(0) : (turn % 4 == 1 ? T(1) : T(0.25));
          ++turn;
          Operands<T> x(m, n, k, b_rows, rng);
          const std::vector<double> want = x.expected(alpha, beta);
          gemm_tiny_col_major<T>(Op::none, b_rows ? Op::transpose : Op::none, m, n, k, alpha,
                                 x.a.data(), x.lda, x.b.data(), x.ldb, beta, x.c.data(), x.ldc);
          expect_near(want, x.c, k,
                      std::string(fns.name) + " m " + std::to_string(m) + " n " +
                          std::to_string(n) + (b_rows ? " NT" : " NN"));
        }
      }
    }
  }
}

TEST(GemmTiles, RowsOfTilesMatchTheProductDouble) { rows_of_tiles<double>(); }
TEST(GemmTiles, RowsOfTilesMatchTheProductFloat) { rows_of_tiles<float>(); }

// The tall kernel (KernelFns::tall, kernels/ukernel_tall.hpp), called directly: n over every
// strip width and count up to kTallMaxColumns; m around its tiles (whole, one row short, a few
// over) and its blocks of 8 tiles (one, one and a tile, two and a few rows); k of one step, one
// straight block of 16, past it, and kTallMaxDepth; both forms of op(B); alpha and beta special
// values, with beta = 0 over a C of NaN, which must not be read. AVX-512 has it.
template <class T>
void tall_kernel_matches_the_product() {
  IsaGuard guard;
  if (!detail::isa_supported(Isa::avx512)) GTEST_SKIP() << "no AVX-512 on this CPU";
  detail::force_isa(Isa::avx512);
  const detail::KernelFns<T>& fns = detail::kernels<T>().fns;
  ASSERT_NE(fns.tall, nullptr) << fns.name;
  const index_t tile = detail::kTallVectors * fns.row_step;
  std::mt19937_64 rng(37);
  int turn = 0;
  for (const index_t m : {index_t{1}, tile - 1, tile, tile + 3, 3 * tile + 5, 8 * tile,
                          9 * tile + 1, 16 * tile + 7}) {
    for (const index_t n : {1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 16, 17, 24, 31, 32}) {
      for (const index_t k : {index_t{1}, index_t{16}, index_t{23}, detail::kTallMaxDepth}) {
        for (const bool b_rows : {false, true}) {
          const T alpha = turn % 3 == 0 ? T(1) : T(-0.5);
          const T beta = turn % 4 == 0 ? T(0) : (turn % 4 == 1 ? T(1) : T(2));
          ++turn;
          Operands<T> x(m, n, k, b_rows, rng);
          const std::vector<double> want = x.expected(alpha, beta);
          if (beta == T(0)) {
            for (index_t j = 0; j < n; ++j) {
              for (index_t i = 0; i < m; ++i) {
                x.c[static_cast<std::size_t>(i + j * x.ldc)] = std::numeric_limits<T>::quiet_NaN();
              }
            }
          }
          const index_t b_rs = b_rows ? x.ldb : 1;
          const index_t b_cs = b_rows ? 1 : x.ldb;
          fns.tall(m, n, k, x.a.data(), x.lda, x.b.data(), b_rs, b_cs, x.c.data(), x.ldc, alpha,
                   beta);
          expect_near(want, x.c, k,
                      std::string(fns.name) + " tall m " + std::to_string(m) + " n " +
                          std::to_string(n) + " k " + std::to_string(k) + (b_rows ? " NT" : " NN"));
        }
      }
    }
  }
}

TEST(GemmTiles, TallKernelMatchesTheProductDouble) { tall_kernel_matches_the_product<double>(); }
TEST(GemmTiles, TallKernelMatchesTheProductFloat) { tall_kernel_matches_the_product<float>(); }

}  // namespace
}  // namespace teamla::linalg
