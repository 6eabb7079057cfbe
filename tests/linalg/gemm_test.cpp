// SPDX-License-Identifier: Apache-2.0
// gemm_test.cpp: correctness of linalg::gemm against the naive triple loop and the reference
// kernel, on every ISA path this CPU can run.
//
// Covers: random shapes (0, 1, primes, sizes around MR/NR/MC/KC boundaries), both operand
// transposes, both layouts of A, B and C, padded leading dimensions (padding must stay
// untouched), alpha/beta special values, the small (unpacked-A) path, tiny forced blocking
// sizes that put every edge tile within reach of small matrices, the BLAS edge rules (NaN in
// C with beta = 0, alpha = 0, k = 0, empty C), bad input (clear error, C untouched), and
// workspace reuse (no growth in steady state).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "isa_dispatch.hpp"
#include "linalg/naive.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/isa.hpp"
#include "teamla/linalg/workspace.hpp"

namespace teamla::linalg {
namespace {

using detail::Isa;
using test::naive_gemm;

std::vector<Isa> available_isas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::ref, Isa::avx2, Isa::avx512}) {
    if (detail::isa_supported(isa)) {
      isas.push_back(isa);
    }
  }
  return isas;
}

// Restores the ISA and blocking overrides when a test ends, even on failure.
struct OverrideGuard {
  ~OverrideGuard() {
    detail::clear_isa_override();
    detail::clear_blocking_override();
  }
};

// A matrix in its own storage with a padded leading dimension.
template <class T>
struct Stored {
  std::vector<T> storage;
  MatrixView<T> view;

  Stored(index_t rows, index_t cols, Layout layout, index_t pad, std::mt19937_64& rng) {
    const index_t inner = layout == Layout::col_major ? rows : cols;
    const index_t outer = layout == Layout::col_major ? cols : rows;
    const index_t ld = std::max<index_t>(inner, 1) + pad;
    storage.resize(static_cast<std::size_t>(std::max<index_t>(ld * outer, 1)));
    test::fill_random(storage, rng);
    view = {storage.data(), rows, cols, ld, layout};
  }
  // Another Stored with the same storage contents, viewed the same way.
  Stored(const Stored& other) : storage(other.storage), view(other.view) {
    view.data = storage.data();
  }
  Stored& operator=(const Stored&) = delete;
  [[nodiscard]] MatrixView<const T> cview() const { return view; }
};

struct Case {
  index_t m, n, k;
  Op op_a, op_b;
  Layout la, lb, lc;
  index_t pad;
  double alpha, beta;
};

std::string describe(const Case& c) {
  const auto op = [](Op o) { return o == Op::none ? "N" : "T"; };
  const auto lay = [](Layout l) { return l == Layout::col_major ? "C" : "R"; };
  return "m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) +
         " op=" + op(c.op_a) + op(c.op_b) + " layout=" + lay(c.la) + lay(c.lb) + lay(c.lc) +
         " pad=" + std::to_string(c.pad) + " alpha=" + std::to_string(c.alpha) +
         " beta=" + std::to_string(c.beta) + " isa=" + std::string(active_isa());
}

// check_case(): gemm against the naive loop, elementwise with a forward error bound, and the
// padding of C unchanged. Returns the computed C storage.
template <class T>
std::vector<T> check_case(const Case& cs, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(cs));
  const Stored<T> a(cs.op_a == Op::none ? cs.m : cs.k, cs.op_a == Op::none ? cs.k : cs.m, cs.la,
                    cs.pad, rng);
  const Stored<T> b(cs.op_b == Op::none ? cs.k : cs.n, cs.op_b == Op::none ? cs.n : cs.k, cs.lb,
                    cs.pad + 1, rng);
  Stored<T> c(cs.m, cs.n, cs.lc, cs.pad, rng);
  Stored<T> expected(c);
  std::vector<long double> mag;
  naive_gemm<T>(cs.op_a, cs.op_b, T(cs.alpha), a.cview(), b.cview(), T(cs.beta), expected.view,
                &mag);
  Exec exec;
  gemm<T>(cs.op_a, cs.op_b, T(cs.alpha), a.cview(), b.cview(), T(cs.beta), c.view, exec);
  EXPECT_EQ(exec.stats.max_width_used, 1u);

  int reported = 0;
  for (index_t j = 0; j < cs.n; ++j) {
    for (index_t i = 0; i < cs.m; ++i) {
      const long double got = c.view(i, j);
      const long double want = expected.view(i, j);
      const long double bound = test::error_bound<T>(cs.k, mag[i + j * cs.m]);
      if (!(std::fabs(got - want) <= bound) && reported++ < 5) {
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << static_cast<double>(got) << ", want "
                      << static_cast<double>(want) << " (bound " << static_cast<double>(bound)
                      << ")";
      }
    }
  }
  // Everything outside the view (padding) is untouched: expected only wrote inside it.
  for (std::size_t x = 0; x < c.storage.size(); ++x) {
    const auto ld = static_cast<std::size_t>(c.view.ld);
    const std::size_t inner = x % ld;
    const std::size_t outer = x / ld;
    const auto rows_in = static_cast<std::size_t>(cs.lc == Layout::col_major ? cs.m : cs.n);
    const auto cols_in = static_cast<std::size_t>(cs.lc == Layout::col_major ? cs.n : cs.m);
    if (inner >= rows_in || outer >= cols_in) {
      if (c.storage[x] != expected.storage[x] && reported++ < 5) {
        ADD_FAILURE() << "padding element " << x << " of C was written";
      }
    }
  }
  return c.storage;
}

const index_t kSizes[] = {0,  1,  2,  3,  4,  5,  7,  8,  11, 13, 16, 17, 23, 24,
                          25, 31, 32, 33, 47, 48, 49, 53, 64, 65, 71, 97, 101};
const double kAlphas[] = {1.0, -1.0, 0.5, 2.5, 0.0};
const double kBetas[] = {0.0, 1.0, -1.0, 0.3};

Case random_case(std::mt19937_64& rng, index_t max_size) {
  std::vector<index_t> sizes;
  for (index_t s : kSizes) {
    if (s <= max_size) sizes.push_back(s);
  }
  const auto pick = [&](auto& range) {
    return range[std::uniform_int_distribution<std::size_t>(0, std::size(range) - 1)(rng)];
  };
  const auto coin = [&] { return std::uniform_int_distribution<int>(0, 1)(rng) == 1; };
  Case c{};
  c.m = pick(sizes);
  c.n = pick(sizes);
  c.k = pick(sizes);
  c.op_a = coin() ? Op::transpose : Op::none;
  c.op_b = coin() ? Op::transpose : Op::none;
  c.la = coin() ? Layout::row_major : Layout::col_major;
  c.lb = coin() ? Layout::row_major : Layout::col_major;
  c.lc = coin() ? Layout::row_major : Layout::col_major;
  c.pad = coin() ? 3 : 0;
  c.alpha = pick(kAlphas);
  c.beta = pick(kBetas);
  return c;
}

template <class T>
void random_sweep(int cases, index_t max_size, std::uint64_t seed) {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < cases; ++i) {
      check_case<T>(random_case(rng, max_size), rng);
    }
  }
}

TEST(Gemm, RandomShapesDouble) { random_sweep<double>(300, 101, 1); }
TEST(Gemm, RandomShapesFloat) { random_sweep<float>(300, 101, 2); }

// Tiny blocking: mc = MR, kc = 3, nc = NR, so that 20 x 20 matrices cross every block and
// micro-tile boundary, with and without the unpacked-A path.
template <class T>
void tiny_blocking_sweep(index_t small_n, std::uint64_t seed) {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    detail::force_blocking(1, 3, 1, small_n);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 200; ++i) {
      check_case<T>(random_case(rng, 53), rng);
    }
  }
}

TEST(Gemm, TinyBlockingPackedDouble) { tiny_blocking_sweep<double>(0, 3); }
TEST(Gemm, TinyBlockingPackedFloat) { tiny_blocking_sweep<float>(0, 4); }
TEST(Gemm, TinyBlockingUnpackedADouble) { tiny_blocking_sweep<double>(1 << 20, 5); }
TEST(Gemm, TinyBlockingUnpackedAFloat) { tiny_blocking_sweep<float>(1 << 20, 6); }

// Small shapes (the tiny path, m * n * k <= kTinyGemmVolume, and the in-place paths up to 64):
// every m and n of kSmallSizes against k in {1, 5, 16, 64}, all four transposes, C row- or
// column-major, ld padding on every other case, alpha and beta cycling through their special
// values, on every ISA. Each n below NR reaches its own in-place kernel instantiation.
const index_t kSmallSizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64};

// varied_case(): the sweeps' case number `turn`: C row-major on every third, ld padding of
// `pad` on every other, alpha and beta cycling through their special values.
Case varied_case(index_t m, index_t n, index_t k, Op op_a, Op op_b, int turn, index_t pad) {
  return Case{m,
              n,
              k,
              op_a,
              op_b,
              Layout::col_major,
              Layout::col_major,
              turn % 3 == 0 ? Layout::row_major : Layout::col_major,
              turn % 2 == 0 ? pad : 0,
              kAlphas[turn % std::size(kAlphas)],
              kBetas[turn % std::size(kBetas)]};
}

template <class T>
void small_sweep() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(13);
    int turn = 0;
    for (index_t m : kSmallSizes) {
      for (index_t n : kSmallSizes) {
        for (index_t k : {1, 5, 16, 64}) {
          for (int ops = 0; ops < 4; ++ops) {
            const Op op_a = (ops & 1) != 0 ? Op::transpose : Op::none;
            const Op op_b = (ops & 2) != 0 ? Op::transpose : Op::none;
            check_case<T>(varied_case(m, n, k, op_a, op_b, ++turn, 2), rng);
          }
        }
      }
    }
  }
}

TEST(GemmSmall, EveryShapeUpTo64Double) { small_sweep<double>(); }
TEST(GemmSmall, EveryShapeUpTo64Float) { small_sweep<float>(); }

// Deep transposed products (TN with k from kDotDepth x max(m, n) up, m, n <= 64): the dot-
// product kernel, its k tail under a mask (k not a multiple of the lanes), its k chunks (520
// and 1030 cross the double and float chunk), its edge blocks (m, n not multiples of 4), alpha
// and beta special values, row- and column-major C (a row-major C swaps the operands: A^T B
// becomes B^T A), on every ISA. NaN in C with beta = 0: small_beta_zero_ignores_nan below.
template <class T>
void deep_transposed_sweep() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(29);
    int turn = 0;
    for (index_t m : {1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 33, 64}) {
      for (index_t n : {1, 3, 4, 6, 16, 17, 32, 64}) {
        for (index_t k : {63, 64, 65, 257, 520, 1030}) {
          check_case<T>(varied_case(m, n, k, Op::transpose, Op::none, ++turn, 3), rng);
        }
      }
    }
  }
}

TEST(GemmSmall, DeepTransposedProductsDouble) { deep_transposed_sweep<double>(); }
TEST(GemmSmall, DeepTransposedProductsFloat) { deep_transposed_sweep<float>(); }

// The dot products with op(A) and B at every element offset from a 64-byte boundary, k below,
// at and past one vector (a k inside the masked tail alone, whole vectors, a tail after them),
// on every ISA.
template <class T>
void deep_transposed_at_every_offset() {
  OverrideGuard guard;
  constexpr index_t kPerLine = 64 / sizeof(T);
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(31);
    for (index_t offset = 0; offset < kPerLine; ++offset) {
      for (index_t m : {1, 4, 5}) {
        for (index_t k : {4, 7, 9, 16, 17, 31, 100, 257}) {
          const index_t n = m == 1 ? 1 : 3;  // k >= kDotDepth x max(m, n): 4 (8) x 1 from k = 4
          // One 64-byte-aligned allocation holds A (k x m) and then B (k x n), each at `offset`
          // elements from a line, B's offset shifted by one so that the two differ.
          const index_t a_at = offset;
          const index_t b_at =
              (a_at + k * m + kPerLine - 1) / kPerLine * kPerLine + (offset + 1) % kPerLine;
          std::vector<T> storage(static_cast<std::size_t>(b_at + k * n + kPerLine));
          test::fill_random(storage, rng);
          T* base = storage.data();
          while (reinterpret_cast<std::uintptr_t>(base) % 64 != 0) ++base;
          ASSERT_LE(base + b_at + k * n, storage.data() + storage.size());
          const auto a = col_major<const T>(base + a_at, k, m);
          const auto b = col_major<const T>(base + b_at, k, n);
          std::vector<T> c(static_cast<std::size_t>(m * n));
          test::fill_random(c, rng);
          std::vector<T> expected = c;
          std::vector<long double> mag;
          naive_gemm<T>(Op::transpose, Op::none, T(1.5), a, b, T(0.5),
                        col_major(expected.data(), m, n), &mag);
          Exec exec;
          gemm<T>(Op::transpose, Op::none, T(1.5), a, b, T(0.5), col_major(c.data(), m, n), exec);
          for (std::size_t x = 0; x < c.size(); ++x) {
            ASSERT_LE(std::fabs(static_cast<long double>(c[x]) - expected[x]),
                      test::error_bound<T>(k, mag[x]))
                << "offset " << offset << " m " << m << " k " << k << " element " << x << " isa "
                << active_isa();
          }
        }
      }
    }
  }
}

TEST(GemmSmall, DeepTransposedProductsAtEveryOffsetDouble) {
  deep_transposed_at_every_offset<double>();
}
TEST(GemmSmall, DeepTransposedProductsAtEveryOffsetFloat) {
  deep_transposed_at_every_offset<float>();
}

// NaN in C with beta = 0 never reaches the result on the small paths either.
template <class T>
void small_beta_zero_ignores_nan() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    for (index_t n : {1, 3, 4, 6, 9, 17, 32, 64}) {
      for (const index_t k : {n, 8 * n}) {  // 8n: a TN product runs as dot products
        for (const Op op_a : {Op::none, Op::transpose}) {
          for (const Op op_b : {Op::none, Op::transpose}) {
            const auto ak = static_cast<std::size_t>(n * k);
            const std::vector<T> a(ak, T(1));
            const std::vector<T> b(ak, T(2));
            std::vector<T> c(static_cast<std::size_t>(n * n), std::numeric_limits<T>::quiet_NaN());
            Exec exec;
            const auto a_view = op_a == Op::none ? col_major<const T>(a.data(), n, k)
                                                 : col_major<const T>(a.data(), k, n);
            const auto b_view = op_b == Op::none ? col_major<const T>(b.data(), k, n)
                                                 : col_major<const T>(b.data(), n, k);
            gemm<T>(op_a, op_b, T(1), a_view, b_view, T(0), col_major(c.data(), n, n), exec);
            for (T x : c)
              ASSERT_EQ(x, T(2 * k)) << "n=" << n << " k=" << k << " isa=" << active_isa();
          }
        }
      }
    }
  }
}

TEST(GemmSmall, BetaZeroIgnoresNanDouble) { small_beta_zero_ignores_nan<double>(); }
TEST(GemmSmall, BetaZeroIgnoresNanFloat) { small_beta_zero_ignores_nan<float>(); }

// The tiny bound: 32^3 multiply-adds, whatever the shape, and no overflow for huge ones.
TEST(GemmSmall, TinyBoundIsAVolume) {
  EXPECT_TRUE(gemm_is_tiny(32, 32, 32));
  EXPECT_FALSE(gemm_is_tiny(32, 32, 33));
  EXPECT_TRUE(gemm_is_tiny(1, 1, kTinyGemmVolume));
  EXPECT_TRUE(gemm_is_tiny(4096, 8, 1));
  EXPECT_TRUE(gemm_is_tiny(0, 0, 0));
  EXPECT_FALSE(gemm_is_tiny(1 << 20, 1 << 20, 1 << 20));
  EXPECT_FALSE(gemm_is_tiny(kTinyGemmVolume + 1, 1, 0));
}

// gemm_tiny() computes what gemm() computes, for a transposed A too large to copy onto the
// stack (it packs through the thread's workspace) as for a small one.
TEST(GemmSmall, TinyMatchesGemm) {
  for (const index_t m : {3, 1024}) {
    const index_t k = m == 3 ? 64 : 32;  // 3 x 64 fits the stack copy, 1024 x 32 does not
    std::mt19937_64 rng(17);
    std::vector<double> a(static_cast<std::size_t>(m * k));
    std::vector<double> b(static_cast<std::size_t>(k));
    test::fill_random(a, rng);
    test::fill_random(b, rng);
    std::vector<double> via_tiny(static_cast<std::size_t>(m), 0.5);
    std::vector<double> via_gemm = via_tiny;
    const auto av = col_major<const double>(a.data(), k, m);
    const auto bv = col_major<const double>(b.data(), k, 1);
    ASSERT_TRUE(gemm_is_tiny(m, 1, k));
    gemm_tiny(Op::transpose, Op::none, 1.5, av, bv, -1.0, col_major(via_tiny.data(), m, 1));
    std::vector<long double> mag;
    naive_gemm<double>(Op::transpose, Op::none, 1.5, av, bv, -1.0, col_major(via_gemm.data(), m, 1),
                       &mag);
    for (index_t i = 0; i < m; ++i) {
      EXPECT_NEAR(via_tiny[i], via_gemm[i],
                  static_cast<double>(test::error_bound<double>(k, mag[i])))
          << "m=" << m << " i=" << i;
    }
  }
}

// Sizes one below, at and one above the default blocking sizes of every ISA.
template <class T>
void blocking_boundaries() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    const detail::KernelSet<T> ks = detail::kernels<T>();
    std::mt19937_64 rng(7);
    const index_t mc = ks.blocking.mc;
    const index_t kc = ks.blocking.kc;
    const index_t mr = ks.fns.mr;
    const index_t nr = ks.fns.nr;
    const index_t smalln = ks.blocking.small_n;
    for (index_t m : {mr - 1, mr + 1, mc - 1, mc, mc + 1}) {
      for (index_t k : {kc - 1, kc + 1}) {
        for (index_t n : {nr + 1, smalln, smalln + 1}) {
          check_case<T>(Case{m, n, k, Op::none, Op::none, Layout::col_major, Layout::col_major,
                             Layout::col_major, 0, 1.0, 0.5},
                        rng);
          check_case<T>(Case{m, n, k, Op::transpose, Op::transpose, Layout::col_major,
                             Layout::row_major, Layout::row_major, 1, -1.0, 0.0},
                        rng);
          // op(B) with contiguous rows, packed kPanelsPerStep micro-panels at a time: at
          // n = small_n + 1, whole groups and a last one ending in a one-column panel.
          check_case<T>(Case{m, n, k, Op::none, Op::transpose, Layout::col_major, Layout::col_major,
                             Layout::col_major, 2, 0.5, 1.0},
                        rng);
        }
      }
    }
  }
}

// A tall op(A) against a narrow op(B) with a short k: the A blocks sized to half of L1 (many
// of them, a partial panel at the end) and a transposed A packed by register transposes.
template <class T>
void tall_times_narrow() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(11);
    for (index_t m : {1000, 2053}) {
      for (index_t n : {1, 8, 17, 129}) {
        for (index_t k : {16, 63}) {
          for (Op op_a : {Op::none, Op::transpose}) {
            const Op op_b = n % 2 == 0 ? Op::transpose : Op::none;
            check_case<T>(Case{m, n, k, op_a, op_b, Layout::col_major, Layout::col_major,
                               Layout::col_major, n == 17 ? 3 : 0, 1.0, n == 8 ? 0.0 : 0.5},
                          rng);
          }
        }
      }
    }
  }
}

TEST(Gemm, TallTimesNarrowDouble) { tall_times_narrow<double>(); }
TEST(Gemm, TallTimesNarrowFloat) { tall_times_narrow<float>(); }

// A tall A against at most kTallInPlaceStrips strips of B, with a short k, is read in place:
// nothing is packed, so the workspace is never touched (docs/gemm.md, "Reading A in place").
// Past the strips (n = 129) A and B are packed as before.
TEST(Gemm, TallANarrowBIsReadInPlace) {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    if (detail::kernels<double>().blocking.small_n == 0) continue;  // no in-place kernels
    for (const index_t n : {8, 20, 129}) {
      const index_t m = 2053;
      const index_t k = 8;
      std::vector<double> a(m * k, 0.5);
      std::vector<double> b(k * n, 2.0);
      std::vector<double> c(m * n, 1.0);
      Workspace ws;
      Exec exec;
      exec.workspace = &ws;
      gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), m, k),
                   col_major<const double>(b.data(), k, n), 1.0, col_major(c.data(), m, n), exec);
      EXPECT_EQ(ws.reserved_bytes() == 0, n < 129) << "n=" << n << " " << detail::isa_name(isa);
      for (const double x : c) ASSERT_EQ(x, 1.0 + k) << "n=" << n << " " << detail::isa_name(isa);
    }
  }
}

TEST(Gemm, BlockingBoundariesDouble) { blocking_boundaries<double>(); }
TEST(Gemm, BlockingBoundariesFloat) { blocking_boundaries<float>(); }

// The vector kernels agree with the reference kernel (the oracle) to rounding.
TEST(Gemm, VectorKernelsMatchReferenceKernel) {
  OverrideGuard guard;
  const Case cs{77,
                61,
                300,
                Op::none,
                Op::transpose,
                Layout::col_major,
                Layout::col_major,
                Layout::col_major,
                2,
                1.5,
                -0.5};
  detail::force_isa(Isa::ref);
  std::mt19937_64 rng_ref(11);
  const std::vector<double> want = check_case<double>(cs, rng_ref);
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    std::mt19937_64 rng(11);
    const std::vector<double> got = check_case<double>(cs, rng);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t x = 0; x < got.size(); ++x) {
      ASSERT_NEAR(got[x], want[x], 1e-12 * 300)
          << "element " << x << " isa " << detail::isa_name(isa);
    }
  }
}

// The `packed` kernel started row_step rows (or a multiple) into a packed micro-panel, on the
// rows left, computes those rows of the whole tile (the triangle's diagonal tiles rely on it:
// syrk_tiles.hpp). The panel is sized exactly, so under asan a kernel that reads past it
// (a row_step finer than its vectors) fails too.
template <class T>
void packed_kernel_starts_at_any_row_step() {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    const detail::KernelFns<T>& f = detail::kernels<T>().fns;
    const index_t mr = f.mr;
    const index_t nr = f.nr;
    const index_t kc = 37;
    ASSERT_GT(f.row_step, 0) << detail::isa_name(isa);
    ASSERT_EQ(mr % f.row_step, 0) << detail::isa_name(isa);
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<T> a(static_cast<std::size_t>(mr * kc));
    std::vector<T> b(static_cast<std::size_t>(kc * nr));
    for (T& v : a) v = static_cast<T>(dist(rng));
    for (T& v : b) v = static_cast<T>(dist(rng));
    std::vector<T> ap(a.size());
    std::vector<T> bp(b.size());
    f.pack_a(mr, kc, a.data(), 1, mr, ap.data());
    f.pack_b(kc, nr, b.data(), 1, kc, bp.data());
    std::vector<T> whole(static_cast<std::size_t>(mr * nr));
    f.packed(mr, nr, kc, ap.data(), mr, bp.data(), whole.data(), mr, T(1), T(0));
    for (index_t first = f.row_step; first < mr; first += f.row_step) {
      std::vector<T> part(whole.size(), T(0));
      f.packed(mr - first, nr, kc, ap.data() + first, mr, bp.data(), part.data() + first, mr, T(1),
               T(0));
      for (index_t j = 0; j < nr; ++j) {
        for (index_t i = first; i < mr; ++i) {
          ASSERT_EQ(part[i + j * mr], whole[i + j * mr])
              << detail::isa_name(isa) << " first " << first << " (" << i << ", " << j << ")";
        }
      }
    }
  }
}
TEST(Gemm, PackedKernelStartsAtAnyRowStepDouble) { packed_kernel_starts_at_any_row_step<double>(); }
TEST(Gemm, PackedKernelStartsAtAnyRowStepFloat) { packed_kernel_starts_at_any_row_step<float>(); }

template <class T>
std::vector<T> filled(std::size_t count, T value) {
  return std::vector<T>(count, value);
}

TEST(Gemm, BetaZeroDoesNotReadC) {
  OverrideGuard guard;
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    for (index_t n : {1, 7, 33, 100}) {
      std::vector<double> a = filled<double>(n * n, 1.0);
      std::vector<double> b = filled<double>(n * n, 2.0);
      std::vector<double> c = filled<double>(n * n, std::numeric_limits<double>::quiet_NaN());
      Exec exec;
      gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), n, n),
                   col_major<const double>(b.data(), n, n), 0.0, col_major(c.data(), n, n), exec);
      for (double x : c) {
        ASSERT_EQ(x, 2.0 * static_cast<double>(n)) << detail::isa_name(isa);
      }
    }
  }
}

TEST(Gemm, AlphaZeroOnlyScalesC) {
  const index_t n = 9;
  std::vector<double> a = filled<double>(n * n, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> b = a;
  std::vector<double> c = filled<double>(n * n, 3.0);
  Exec exec;
  gemm<double>(Op::none, Op::none, 0.0, col_major<const double>(a.data(), n, n),
               col_major<const double>(b.data(), n, n), 0.5, col_major(c.data(), n, n), exec);
  for (double x : c) ASSERT_EQ(x, 1.5);
  gemm<double>(Op::none, Op::none, 0.0, col_major<const double>(a.data(), n, n),
               col_major<const double>(b.data(), n, n), 0.0, col_major(c.data(), n, n), exec);
  for (double x : c) ASSERT_EQ(x, 0.0);
}

TEST(Gemm, KZeroScalesC) {
  std::vector<float> c = filled<float>(12, 2.0F);
  Exec exec;
  gemm<float>(Op::none, Op::none, 1.0F, col_major<const float>(nullptr, 3, 0),
              col_major<const float>(nullptr, 0, 4), -1.0F, col_major(c.data(), 3, 4), exec);
  for (float x : c) ASSERT_EQ(x, -2.0F);
  std::vector<float> nan_c = filled<float>(12, std::numeric_limits<float>::quiet_NaN());
  gemm<float>(Op::none, Op::none, 1.0F, col_major<const float>(nullptr, 3, 0),
              col_major<const float>(nullptr, 0, 4), 0.0F, col_major(nan_c.data(), 3, 4), exec);
  for (float x : nan_c) ASSERT_EQ(x, 0.0F);
}

TEST(Gemm, EmptyCIsANoOp) {
  std::vector<double> a = filled<double>(20, 1.0);
  std::vector<double> c = filled<double>(4, std::numeric_limits<double>::quiet_NaN());
  Exec exec;
  gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), 0, 5),
               col_major<const double>(a.data(), 5, 4), 1.0, col_major(c.data(), 0, 4), exec);
  gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), 4, 5),
               col_major<const double>(a.data(), 5, 0), 1.0, col_major(c.data(), 4, 0), exec);
  for (double x : c) ASSERT_TRUE(std::isnan(x));
}

TEST(Gemm, BadInputThrowsAndLeavesCUntouched) {
  std::vector<double> a = filled<double>(100, 1.0);
  std::vector<double> c = filled<double>(100, 7.0);
  const auto cv = [&](index_t r, index_t cc, index_t ld) {
    return MatrixView<double>{c.data(), r, cc, ld, Layout::col_major};
  };
  const auto av = [&](index_t r, index_t cc, index_t ld) {
    return MatrixView<const double>{a.data(), r, cc, ld, Layout::col_major};
  };
  Exec exec;
  const auto expect_throw = [&](MatrixView<const double> A, MatrixView<const double> B,
                                MatrixView<double> C, const char* what) {
    try {
      gemm<double>(Op::none, Op::none, 1.0, A, B, 0.0, C, exec);
      ADD_FAILURE() << "no error for " << what;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("teamla::gemm"), std::string::npos) << e.what();
      EXPECT_FALSE(e.argument().empty());
    }
    for (double x : c) ASSERT_EQ(x, 7.0) << what;
  };
  expect_throw(av(-1, 3, 1), av(3, 3, 3), cv(3, 3, 3), "negative rows of A");
  expect_throw(av(3, 3, 3), av(3, -2, 3), cv(3, 3, 3), "negative cols of B");
  expect_throw(av(5, 3, 3), av(3, 3, 3), cv(5, 3, 5), "lda < rows");
  expect_throw(av(3, 3, 3), av(3, 3, 2), cv(3, 3, 3), "ldb < rows");
  expect_throw(av(3, 3, 3), av(3, 3, 3), cv(3, 3, 2), "ldc < rows");
  expect_throw(av(3, 4, 3), av(3, 3, 3), cv(3, 3, 3), "k mismatch");
  expect_throw(av(3, 3, 3), av(3, 3, 3), cv(4, 3, 4), "m mismatch");
  expect_throw({nullptr, 3, 3, 3, Layout::col_major}, av(3, 3, 3), cv(3, 3, 3), "null A");
  expect_throw(av(3, 3, 3), {nullptr, 3, 3, 3, Layout::col_major}, cv(3, 3, 3), "null B");
  MatrixView<const double> row_a{a.data(), 3, 5, 4, Layout::row_major};
  expect_throw(row_a, av(5, 3, 5), cv(3, 3, 3), "row-major lda < cols");
  MatrixView<double> null_c{nullptr, 3, 3, 3, Layout::col_major};
  EXPECT_THROW(gemm<double>(Op::none, Op::none, 1.0, av(3, 3, 3), av(3, 3, 3), 0.0, null_c, exec),
               InvalidArgument);
}

TEST(Gemm, WorkspaceIsReusedWithoutGrowth) {
  Workspace ws;
  EXPECT_EQ(ws.reserved_bytes(), 0u);
  const index_t n = 300;
  std::vector<double> a(n * n, 0.5);
  std::vector<double> c(n * n, 0.0);
  Exec exec;
  exec.workspace = &ws;
  gemm<double>(Op::none, Op::none, 1.0, col_major<const double>(a.data(), n, n),
               col_major<const double>(a.data(), n, n), 0.0, col_major(c.data(), n, n), exec);
  const std::size_t after_first = ws.reserved_bytes();
  EXPECT_GT(after_first, 0u);
  for (int i = 0; i < 3; ++i) {
    gemm<double>(Op::none, Op::transpose, 1.0, col_major<const double>(a.data(), n, n),
                 col_major<const double>(a.data(), n, n), 1.0, col_major(c.data(), n, n), exec);
  }
  EXPECT_EQ(ws.reserved_bytes(), after_first);
  EXPECT_EQ(c[0], 0.25 * n * 4);
}

TEST(Gemm, WorkspaceBuffersAreAlignedAndGrow) {
  Workspace ws;
  ws.prepare(2);
  void* p = ws.buffer(1, Workspace::Slot::pack_a, 100);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % Workspace::kAlignment, 0u);
  void* q = ws.buffer(1, Workspace::Slot::pack_a, 10);
  EXPECT_EQ(p, q);
  void* s = ws.shared_buffer(1 << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s) % Workspace::kAlignment, 0u);
  EXPECT_GE(ws.reserved_bytes(), (1u << 20) + 100u);
  ws.release();
  EXPECT_EQ(ws.reserved_bytes(), 0u);
}

// Evening out gives every rank the largest size of each slot, and no more: a second pass
// moves nothing (grown past the others, ranks would leapfrog at every section).
TEST(Gemm, WorkspaceRanksAreEvenedOutExactly) {
  Workspace ws;
  ws.prepare(3);
  (void)ws.buffer(0, Workspace::Slot::pack_a, 3 * Workspace::kAlignment);
  (void)ws.buffer(2, Workspace::Slot::pack_a, 5 * Workspace::kAlignment);
  (void)ws.buffer(1, Workspace::Slot::scratch, Workspace::kAlignment);
  ASSERT_TRUE(ws.try_equalize(3));
  EXPECT_EQ(ws.reserved_bytes(), (3 * 5 + 3 * 1) * Workspace::kAlignment);
  void* const rank0 = ws.buffer(0, Workspace::Slot::pack_a, 5 * Workspace::kAlignment);
  void* const rank1 = ws.buffer(1, Workspace::Slot::scratch, Workspace::kAlignment);
  ASSERT_TRUE(ws.try_equalize(3));
  EXPECT_EQ(ws.reserved_bytes(), (3 * 5 + 3 * 1) * Workspace::kAlignment);
  EXPECT_EQ(ws.buffer(0, Workspace::Slot::pack_a, 1), rank0);
  EXPECT_EQ(ws.buffer(1, Workspace::Slot::scratch, 1), rank1);
  // Ranks past the width are left alone.
  ws.prepare(4);
  (void)ws.buffer(3, Workspace::Slot::pack_b, 7 * Workspace::kAlignment);
  ASSERT_TRUE(ws.try_equalize(3));
  EXPECT_EQ(ws.reserved_bytes(), (3 * 5 + 3 * 1 + 7) * Workspace::kAlignment);
}

TEST(Isa, NamesAndOverrides) {
  OverrideGuard guard;
  const std::string_view active = active_isa();
  EXPECT_TRUE(active == "avx512" || active == "avx2" || active == "ref") << active;
  EXPECT_THROW(detail::parse_isa("sse9"), std::runtime_error);
  EXPECT_EQ(detail::parse_isa("avx2"), Isa::avx2);
  for (Isa isa : available_isas()) {
    detail::force_isa(isa);
    EXPECT_EQ(active_isa(), detail::isa_name(isa));
  }
  if (!detail::isa_supported(Isa::avx512)) {
    EXPECT_THROW(detail::force_isa(Isa::avx512), std::runtime_error);
  }
}

}  // namespace
}  // namespace teamla::linalg
