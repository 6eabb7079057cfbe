// SPDX-License-Identifier: Apache-2.0
// dense_bench_teamla.cpp: the teamla arm of the dense benchmarks (linalg on a held team of T
// threads), on Google Benchmark.
//
//   dense_bench_teamla [--potrf_block=NB] [--potrf_lookahead=0|1] [--getrf_block=NB]
//                      [--getrf_lookahead=0|1] [--benchmark_* options]
//
// The potrf and getrf options force the factorizations' block size and lookahead (the tuning
// studies of docs/perf/potrf.md and docs/perf/lu.md). Counters beside the flop rate: the widest
// section of the last call (width_used), its sections and inline regions, and the team's sleeps and
// stacked waits per call. dgetrf_panel/m:M/n:N times getrf's serial panel factorization alone
// (the leaf and pivot-search studies of docs/perf/lu.md).
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "dense_bench.hpp"
#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/isa.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {

using namespace teamla;
using linalg::col_major;

class TeamlaArm {
 public:
  [[nodiscard]] std::string describe() const { return "isa=" + std::string(linalg::active_isa()); }

  void set_threads(int threads) {
    if (threads != threads_) {
      team_.reset();
      pool_.reset();
      if (threads > 1) {
        pool_ = team::Pool::builder().threads(static_cast<std::size_t>(threads)).build();
        team_.emplace(pool_->acquire(static_cast<std::size_t>(threads)));
      }
      threads_ = threads;
    }
    exec_.team = team_ ? &*team_ : nullptr;
    exec_.workspace = &workspace_;
    waits_before_ = waits();
  }

  static constexpr bool kComplex = true;
  template <class T>
  void gemm(long m, long n, long k, const T* a, const T* b, T* c) {
    linalg::gemm<T>(linalg::Op::none, linalg::Op::none, T(1), col_major(a, m, k),
                    col_major(b, k, n), T(0), col_major(c, m, n), exec_);
  }
  template <class T>
  void trsm(long n, long nrhs, const T* a, T* b) {
    linalg::trsm<T>(linalg::Side::left, linalg::Uplo::lower, linalg::Op::none,
                    linalg::Diag::non_unit, T(1), col_major(a, n, n), col_major(b, n, nrhs), exec_);
  }
  template <class T>
  void syrk(long n, long k, const T* a, T* c) {
    linalg::syrk<T>(linalg::Uplo::lower, linalg::Op::none, T(1), col_major(a, n, k), T(0),
                    col_major(c, n, n), exec_);
  }
  template <class T>
  int potrf(long n, T* a) {
    return static_cast<int>(linalg::potrf<T>(linalg::Uplo::lower, col_major(a, n, n), exec_));
  }
  template <class T>
  int potrs(long n, long nrhs, const T* a, T* b) {
    linalg::potrs<T>(linalg::Uplo::lower, col_major(a, n, n), col_major(b, n, nrhs), exec_);
    return 0;
  }

  template <class T>
  int getrf(long n, T* a, int* ipiv) {
    return static_cast<int>(linalg::getrf<T>(col_major(a, n, n), ipiv, exec_));
  }
  template <class T>
  int gesv(long n, long nrhs, T* a, int* ipiv, T* b) {
    return static_cast<int>(
        linalg::gesv<T>(col_major(a, n, n), ipiv, col_major(b, n, nrhs), exec_));
  }

  void add_counters(benchmark::State& state) const {
    const team::WaitCounters w = waits() - waits_before_;
    const auto per_call = benchmark::Counter::kAvgIterations;
    state.counters["width_used"] = static_cast<double>(exec_.stats.max_width_used);
    state.counters["sections"] = static_cast<double>(exec_.stats.sections);
    state.counters["inline_regions"] = static_cast<double>(exec_.stats.inline_regions);
    state.counters["sleeps"] = benchmark::Counter(
        static_cast<double>(w.join_sleeps + w.barrier_sleeps + w.member_parks), per_call);
    state.counters["stacked_waits"] =
        benchmark::Counter(static_cast<double>(w.stacked_waits), per_call);
  }

 private:
  [[nodiscard]] team::WaitCounters waits() const {
    return pool_ ? pool_->counters() : team::WaitCounters{};
  }

  int threads_ = 1;
  std::unique_ptr<team::Pool> pool_;
  std::optional<team::Team> team_;
  linalg::Workspace workspace_;
  linalg::Exec exec_;
  team::WaitCounters waits_before_;
};

// take_factor_options(): applies and removes the --potrf_* and --getrf_* options.
void take_factor_options(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--potrf_block=")) {
      linalg::level3_detail::set_potrf_block_override(std::atol(argv[i] + 14));
    } else if (arg.starts_with("--potrf_lookahead=")) {
      linalg::level3_detail::set_potrf_lookahead_override(std::atoi(argv[i] + 18));
    } else if (arg.starts_with("--getrf_block=")) {
      linalg::level3_detail::set_getrf_block_override(std::atol(argv[i] + 14));
    } else if (arg.starts_with("--getrf_lookahead=")) {
      linalg::level3_detail::set_getrf_lookahead_override(std::atoi(argv[i] + 18));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

// bench_panel(): getrf's panel (m x n, serial) on a random matrix restored before each call.
void bench_panel(benchmark::State& state) {
  const long m = state.range(0), n = state.range(1);
  const std::vector<double> original = bench::random_matrix<double>(m, n, 5);
  std::vector<double> a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  bench::time_restored(state, original, a, [&] {
    linalg::level3_detail::factor_panel(col_major(a.data(), m, n), ipiv.data(), 0);
  });
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  state.counters["flops"] = benchmark::Counter(md * nd * nd - nd * nd * nd / 3.0,
                                               benchmark::Counter::kIsIterationInvariantRate);
}

void register_panel() {
  benchmark::RegisterBenchmark("dgetrf_panel", bench_panel)
      ->ArgNames({"m", "n"})
      ->Args({512, 64})
      ->Args({2048, 128})
      ->Args({2048, 256})
      ->Args({4096, 256})
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  take_factor_options(argc, argv);
  register_panel();
  TeamlaArm arm;
  return bench::run_dense_bench(arm, argc, argv);
}
