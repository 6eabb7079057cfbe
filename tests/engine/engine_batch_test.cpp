// SPDX-License-Identifier: Apache-2.0
// Contract covered: CpuEngine::gemm_batch (span and source) and gemm_batch_strided equal the
// loop of engine.gemm() calls on the same items, in every mode (held and per_call on 2
// threads, serial), and record their call, in double and in std::complex<double> (conjugate
// transposes included); a bad item or stride throws InvalidArgument with every C untouched,
// and the engine stays usable.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"

namespace teamla::engine {
namespace {

using linalg::col_major;
using linalg::row_major;

struct ModeCase {
  Mode mode;
  std::size_t threads;
};

class EngineBatch : public ::testing::TestWithParam<ModeCase> {
 protected:
  CpuEngine make_engine() const {
    EngineConfig config;
    config.mode = GetParam().mode;
    config.threads = GetParam().threads;
    return CpuEngine(config);
  }
};

// Batch: `count` items of assorted small shapes, one buffer per item and operand.
struct Batch {
  std::vector<std::vector<double>> a, b, c;
  std::vector<GemmItem<double>> items;
};

Batch make_batch(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Batch batch;
  batch.a.resize(count);
  batch.b.resize(count);
  batch.c.resize(count);
  const auto fill = [&](std::vector<double>& s, index_t size) {
    s.resize(static_cast<std::size_t>(std::max<index_t>(1, size)));
    for (double& v : s) v = entry(rng);
  };
  for (std::size_t i = 0; i < count; ++i) {
    const auto m = static_cast<index_t>(i % 7 * 3), n = static_cast<index_t>(i % 5 * 4 + 1);
    const auto k = static_cast<index_t>(i % 4 * 5);
    const bool ta = i % 2 == 1;
    const bool row = i % 3 == 2;
    const index_t pad = i % 4 == 3 ? 2 : 0;
    const auto view = [&](std::vector<double>& s, index_t rows, index_t cols) {
      const index_t ld = std::max<index_t>(1, (row ? cols : rows) + pad);
      fill(s, ld * (row ? rows : cols));
      return row ? row_major(s.data(), rows, cols, ld) : col_major(s.data(), rows, cols, ld);
    };
    const MatrixView<double> a = ta ? view(batch.a[i], k, m) : view(batch.a[i], m, k);
    const MatrixView<double> b = view(batch.b[i], k, n);
    const MatrixView<double> c = view(batch.c[i], m, n);
    const double alpha = i % 6 == 4 ? 0.0 : 0.5;
    const double beta = i % 3 == 0 ? 0.0 : 1.5;
    batch.items.push_back({ta ? Op::transpose : Op::none, Op::none, alpha, a, b, beta, c});
  }
  return batch;
}

void loop_of_gemm(CpuEngine& engine, Batch& batch) {
  for (const auto& it : batch.items) {
    engine.gemm(it.op_a, it.op_b, it.alpha, it.a, it.b, it.beta, it.c);
  }
}

TEST_P(EngineBatch, SpanAndSourceEqualTheLoopOfGemm) {
  CpuEngine engine = make_engine();
  for (bool source : {false, true}) {
    Batch got = make_batch(3000, 1);
    Batch want = make_batch(3000, 1);
    loop_of_gemm(engine, want);
    if (source) {
      const GemmBatchSource<double> src{
          got.items.size(), &got.items, [](const void* context, std::size_t i) {
            return (*static_cast<const std::vector<GemmItem<double>>*>(context))[i];
          }};
      engine.gemm_batch(src);
    } else {
      engine.gemm_batch(got.items);
    }
    EXPECT_EQ(engine.last_call().routine, "gemm_batch");
    EXPECT_EQ(got.c, want.c);
  }
}

// Groups: each item a group of its own, as the CBLAS group form gives unequal items.
TEST_P(EngineBatch, GroupsEqualTheLoopOfGemm) {
  CpuEngine engine = make_engine();
  Batch got = make_batch(3000, 1);
  Batch want = make_batch(3000, 1);
  loop_of_gemm(engine, want);
  std::vector<const double*> a, b;
  std::vector<double*> c;
  std::vector<GemmGroup<double>> groups;
  for (const GemmItem<double>& it : got.items) {
    a.push_back(it.a.data);
    b.push_back(it.b.data);
    c.push_back(it.c.data);
  }
  for (std::size_t i = 0; i < got.items.size(); ++i) {
    groups.push_back({got.items[i], 1, a.data() + i, b.data() + i, c.data() + i});
  }
  engine.gemm_batch(std::span<const GemmGroup<double>>(groups));
  EXPECT_EQ(engine.last_call().routine, "gemm_batch");
  EXPECT_EQ(got.c, want.c);
}

TEST_P(EngineBatch, StridedEqualsTheLoopOfGemm) {
  CpuEngine engine = make_engine();
  const index_t m = 6, n = 5, k = 7, count = 2000;
  const index_t sa = m * k + 1, sb = k * n, sc = m * n + 2;
  std::vector<double> a(static_cast<std::size_t>(sa * count), 0.25);
  std::vector<double> b(static_cast<std::size_t>(sb * count));
  std::vector<double> c(static_cast<std::size_t>(sc * count));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (double& v : b) v = entry(rng);
  for (double& v : c) v = entry(rng);
  auto want = c;
  for (index_t i = 0; i < count; ++i) {
    engine.gemm(Op::transpose, Op::none, 2.0, col_major<const double>(a.data() + i * sa, k, m),
                col_major<const double>(b.data() + i * sb, k, n), 0.5,
                col_major(want.data() + i * sc, m, n));
  }
  engine.gemm_batch_strided(Op::transpose, Op::none, 2.0, col_major<const double>(a.data(), k, m),
                            sa, col_major<const double>(b.data(), k, n), sb, 0.5,
                            col_major(c.data(), m, n), sc, count);
  EXPECT_EQ(engine.last_call().routine, "gemm_batch_strided");
  EXPECT_EQ(c, want);
}

TEST_P(EngineBatch, BadItemOrStrideThrowsWithEveryCUntouched) {
  CpuEngine engine = make_engine();
  Batch got = make_batch(2000, 2);
  const Batch before = make_batch(2000, 2);
  got.items[1500].b.cols += 1;
  EXPECT_THROW(engine.gemm_batch(got.items), linalg::InvalidArgument);
  EXPECT_EQ(got.c, before.c);
  std::vector<double> a(64, 1.0), c(64, 7.0);
  const auto av = col_major<const double>(a.data(), 4, 4);
  EXPECT_THROW(engine.gemm_batch_strided(Op::none, Op::none, 1.0, av, 0, av, 0, 0.0,
                                         col_major(c.data(), 4, 4), 15, 2),
               linalg::InvalidArgument);
  EXPECT_THROW(engine.gemm_batch_strided(Op::none, Op::none, 1.0, av, -4, av, 0, 0.0,
                                         col_major(c.data(), 4, 4), 16, 2),
               linalg::InvalidArgument);
  EXPECT_EQ(c, std::vector<double>(64, 7.0));
  // The engine still runs calls after the errors.
  got.items[1500].b.cols -= 1;
  engine.gemm_batch(got.items);
  EXPECT_EQ(engine.last_call().routine, "gemm_batch");
}

// ComplexBatch: `count` complex items of assorted small shapes and ops, as make_batch()'s.
struct ComplexBatch {
  using Z = std::complex<double>;
  std::vector<std::vector<Z>> a, b, c;
  std::vector<GemmItem<Z>> items;
};

ComplexBatch make_complex_batch(std::size_t count, unsigned seed) {
  using Z = ComplexBatch::Z;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  ComplexBatch batch;
  batch.a.resize(count);
  batch.b.resize(count);
  batch.c.resize(count);
  const Op ops[] = {Op::none, Op::transpose, Op::conj_transpose};
  for (std::size_t i = 0; i < count; ++i) {
    const auto m = static_cast<index_t>(i % 7 * 3), n = static_cast<index_t>(i % 5 * 4 + 1);
    const auto k = static_cast<index_t>(i % 4 * 5);
    const Op op_a = ops[i % 3], op_b = ops[i / 3 % 3];
    const bool row = i % 4 == 2;
    const auto view = [&](std::vector<Z>& s, index_t rows, index_t cols) {
      const index_t ld = std::max<index_t>(1, row ? cols : rows);
      s.resize(static_cast<std::size_t>(std::max<index_t>(1, ld * (row ? rows : cols))));
      for (Z& v : s) {
        const double re = entry(rng);
        v = Z(re, entry(rng));
      }
      return row ? row_major(s.data(), rows, cols, ld) : col_major(s.data(), rows, cols, ld);
    };
    const MatrixView<Z> a = op_a == Op::none ? view(batch.a[i], m, k) : view(batch.a[i], k, m);
    const MatrixView<Z> b = op_b == Op::none ? view(batch.b[i], k, n) : view(batch.b[i], n, k);
    const MatrixView<Z> c = view(batch.c[i], m, n);
    const Z alpha = i % 6 == 4 ? Z(0) : Z(0.5, -0.25);
    const Z beta = i % 3 == 0 ? Z(0) : Z(1.5, 0.5);
    batch.items.push_back({op_a, op_b, alpha, a, b, beta, c});
  }
  return batch;
}

TEST_P(EngineBatch, ComplexSpanGroupsAndStridedEqualTheLoopOfGemm) {
  using Z = ComplexBatch::Z;
  CpuEngine engine = make_engine();
  ComplexBatch got = make_complex_batch(1500, 4);
  ComplexBatch want = make_complex_batch(1500, 4);
  for (const auto& it : want.items) {
    engine.gemm(it.op_a, it.op_b, it.alpha, it.a, it.b, it.beta, it.c);
  }
  engine.gemm_batch(got.items);
  EXPECT_EQ(engine.last_call().routine, "gemm_batch");
  EXPECT_EQ(got.c, want.c);
  // The same items again, each a group of its own, onto the results of the first pass.
  std::vector<const Z*> a, b;
  std::vector<Z*> c;
  std::vector<GemmGroup<Z>> groups;
  for (const GemmItem<Z>& it : got.items) {
    a.push_back(it.a.data);
    b.push_back(it.b.data);
    c.push_back(it.c.data);
  }
  for (std::size_t i = 0; i < got.items.size(); ++i) {
    groups.push_back({got.items[i], 1, a.data() + i, b.data() + i, c.data() + i});
  }
  for (const auto& it : want.items) {
    engine.gemm(it.op_a, it.op_b, it.alpha, it.a, it.b, it.beta, it.c);
  }
  engine.gemm_batch(std::span<const GemmGroup<Z>>(groups));
  EXPECT_EQ(got.c, want.c);
  // Strided: item i's A at i * (k * m + 1), one B shared, C at i * (m * n + 2).
  const index_t m = 6, n = 5, k = 7, count = 500, sa = k * m + 1, sc = m * n + 2;
  std::vector<Z> sa_data(static_cast<std::size_t>(sa * count), Z(0.25, -0.5));
  std::vector<Z> b_data(static_cast<std::size_t>(k * n), Z(-1, 0.75));
  std::vector<Z> c_data(static_cast<std::size_t>(sc * count), Z(2, 1));
  auto c_want = c_data;
  for (index_t i = 0; i < count; ++i) {
    engine.gemm(
        Op::conj_transpose, Op::none, Z(2, 1), col_major<const Z>(sa_data.data() + i * sa, k, m),
        col_major<const Z>(b_data.data(), k, n), Z(0.5), col_major(c_want.data() + i * sc, m, n));
  }
  engine.gemm_batch_strided(Op::conj_transpose, Op::none, Z(2, 1),
                            col_major<const Z>(sa_data.data(), k, m), sa,
                            col_major<const Z>(b_data.data(), k, n), 0, Z(0.5),
                            col_major(c_data.data(), m, n), sc, count);
  EXPECT_EQ(engine.last_call().routine, "gemm_batch_strided");
  EXPECT_EQ(c_data, c_want);
  // A bad item: nothing written.
  ComplexBatch bad = make_complex_batch(300, 5);
  const ComplexBatch before = make_complex_batch(300, 5);
  bad.items[200].a.ld = 0;
  EXPECT_THROW(engine.gemm_batch(bad.items), linalg::InvalidArgument);
  EXPECT_EQ(bad.c, before.c);
}

INSTANTIATE_TEST_SUITE_P(Modes, EngineBatch,
                         ::testing::Values(ModeCase{Mode::held, 2}, ModeCase{Mode::per_call, 2},
                                           ModeCase{Mode::serial, 1}),
                         [](const ::testing::TestParamInfo<ModeCase>& param) {
                           const Mode mode = param.param.mode;
                           return std::string(mode == Mode::held       ? "held"
                                              : mode == Mode::per_call ? "per_call"
                                                                       : "serial");
                         });

}  // namespace
}  // namespace teamla::engine
