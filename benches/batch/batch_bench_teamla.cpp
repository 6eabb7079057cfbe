// SPDX-License-Identifier: Apache-2.0
// batch_bench_teamla.cpp: the teamla arms of the batched GEMM benchmark, CpuEngine::gemm_batch
// (a span of items) and CpuEngine::gemm_batch_strided on a held engine of T threads, on Google
// Benchmark (batch_bench.hpp).
#include <memory>

#include "batch_bench.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/isa.hpp"

namespace {

using teamla::engine::CpuEngine;
using teamla::engine::EngineConfig;
using teamla::engine::GemmItem;
using teamla::engine::Op;
namespace linalg = teamla::linalg;

class TeamlaArm {
 public:
  [[nodiscard]] std::string describe() const { return "isa=" + std::string(linalg::active_isa()); }
  void set_threads(int threads) {
    if (!engine_ || threads != threads_) {
      EngineConfig config;
      config.threads = static_cast<std::size_t>(threads);
      engine_ = std::make_unique<CpuEngine>(config);
      threads_ = threads;
    }
  }
  template <class T>
  void run(teamla::bench::Batch<T>& batch) {
    auto& items = items_of<T>();
    if (items_for_ != batch.c.data() || items.size() != static_cast<std::size_t>(batch.count) ||
        items_order_ != batch.n) {
      items.clear();
      for (int i = 0; i < batch.count; ++i) {
        items.push_back({Op::none, Op::none, T(1),
                         linalg::col_major<const T>(batch.a.data() + batch.at(i), batch.n, batch.n),
                         linalg::col_major<const T>(batch.b.data() + batch.at(i), batch.n, batch.n),
                         T(0), linalg::col_major(batch.c.data() + batch.at(i), batch.n, batch.n)});
      }
      items_for_ = batch.c.data();
      items_order_ = batch.n;
    }
    engine_->gemm_batch(std::span<const GemmItem<T>>(items));
  }
  template <class T>
  void run_strided(teamla::bench::Batch<T>& batch) {
    const auto n = static_cast<linalg::index_t>(batch.n);
    engine_->gemm_batch_strided(Op::none, Op::none, T(1),
                                linalg::col_major<const T>(batch.a.data(), n, n), n * n,
                                linalg::col_major<const T>(batch.b.data(), n, n), n * n, T(0),
                                linalg::col_major(batch.c.data(), n, n), n * n, batch.count);
  }

 private:
  template <class T>
  std::vector<GemmItem<T>>& items_of() {
    if constexpr (sizeof(T) == 8) {
      return double_items_;
    } else {
      return float_items_;
    }
  }

  int threads_ = 0;
  std::unique_ptr<CpuEngine> engine_;
  std::vector<GemmItem<double>> double_items_;
  std::vector<GemmItem<float>> float_items_;
  const void* items_for_ = nullptr;  // the batch the items describe
  int items_order_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  TeamlaArm arm;
  return teamla::bench::run_batch_bench(arm, argc, argv);
}
