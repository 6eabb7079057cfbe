// SPDX-License-Identifier: Apache-2.0
// batch_faults_test.cpp: CpuEngine::gemm_batch computes every item right when the system
// refuses it memory (fault_injection.hpp): every large allocation refused, and each allocation
// of the call refused in turn; the call never throws, its items fall back to stack blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "faults/fault_injection.hpp"
#include "teamla/engine/cpu_engine.hpp"

namespace teamla::faults {
namespace {

using engine::CpuEngine;
using engine::EngineConfig;
using engine::GemmItem;
using engine::index_t;
using engine::Mode;
using engine::Op;

// Batch: items large enough to pack (transposed A, n above the small path), each with its own
// matrices, and their Cs' starting values.
struct Batch {
  std::vector<double> a, b, c0;
  std::vector<double> c;
  std::vector<GemmItem<double>> items;
};

constexpr index_t kN = 72;
constexpr std::size_t kItems = 24;

Batch make_batch() {
  Batch batch;
  const auto elems = static_cast<std::size_t>(kN * kN);
  batch.a.resize(elems * kItems);
  batch.b.resize(elems * kItems);
  batch.c0.resize(elems * kItems);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (auto* v : {&batch.a, &batch.b, &batch.c0}) {
    for (double& x : *v) x = entry(rng);
  }
  batch.c = batch.c0;
  for (std::size_t i = 0; i < kItems; ++i) {
    const std::size_t at = i * elems;
    batch.items.push_back({Op::transpose, i % 2 ? Op::transpose : Op::none, 0.5,
                           linalg::col_major<const double>(batch.a.data() + at, kN, kN),
                           linalg::col_major<const double>(batch.b.data() + at, kN, kN), -1.0,
                           linalg::col_major(batch.c.data() + at, kN, kN)});
  }
  return batch;
}

EngineConfig config_for(Mode mode, std::size_t threads) {
  EngineConfig config;
  config.mode = mode;
  config.threads = threads;
  return config;
}

// reference(): the batch on a serial engine on a thread of its own, nothing refused, so that
// the buffers it grows are not the ones the faulted runs must grow.
std::vector<double> reference() {
  Batch batch = make_batch();
  std::thread([&] {
    CpuEngine serial(config_for(Mode::serial, 1));
    serial.gemm_batch(batch.items);
  }).join();
  return batch.c;
}

// worst_error(): the largest difference, relative to the k-term bound of one entry.
double worst_error(const std::vector<double>& got, const std::vector<double>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(got[i] - want[i]) / (1e-14 * kN));
  }
  return worst;
}

class BatchFaults : public ::testing::TestWithParam<std::tuple<Mode, std::size_t>> {
 protected:
  CpuEngine make_engine() const {
    return CpuEngine(config_for(std::get<0>(GetParam()), std::get<1>(GetParam())));
  }
};

TEST_P(BatchFaults, LargeAllocationsRefusedLeaveEveryItemRight) {
  const std::vector<double> want = reference();
  Batch batch = make_batch();
  CpuEngine engine = make_engine();
  {
    // Every packed buffer of a 72 x 72 item is over 16 KiB.
    Armed refused([] { refuse_allocations_from(std::size_t{16} << 10); });
    engine.gemm_batch(batch.items);
  }
  EXPECT_LE(worst_error(batch.c, want), 1.0);
  EXPECT_GT(engine.counters().memory_fallbacks, 0u);
}

TEST_P(BatchFaults, EachAllocationRefusedInTurnLeavesEveryItemRight) {
  const std::vector<double> want = reference();
  std::uint64_t made = 0;
  std::uint64_t k = 1;
  for (; k <= 2000; ++k) {
    Batch batch = make_batch();
    CpuEngine engine = make_engine();
    {
      Armed refused([k] { refuse_nth_allocation(k); });
      engine.gemm_batch(batch.items);
      made = allocations_seen();
    }
    ASSERT_LE(worst_error(batch.c, want), 1.0) << "allocation " << k << " refused";
    if (made < k) break;  // the call made fewer than k allocations: every one was tried
  }
  EXPECT_LT(made, k) << "the sweep did not reach the end of the call";
}

INSTANTIATE_TEST_SUITE_P(Modes, BatchFaults,
                         ::testing::Values(std::make_tuple(Mode::held, std::size_t{2}),
                                           std::make_tuple(Mode::per_call, std::size_t{2}),
                                           std::make_tuple(Mode::serial, std::size_t{1})));

}  // namespace
}  // namespace teamla::faults
