// SPDX-License-Identifier: Apache-2.0
// engine_alloc_test.cpp: calls that allocate nothing once warmed up.
//
// Contract covered: the allocation guarantee. In held and serial mode, once calls of a given
// shape have run at each width the cost model may choose for it, later calls of that shape
// (every routine) allocate nothing, on any thread of the process (the engine's workers
// included), whichever participant claims which unit: a worker that took no unit during the
// warm-up (late, or held) allocates nothing when it later does. per_call mode does allocate (a
// pool per call), and the test checks that too, which also proves the counter sees
// allocations. Widths come from the cost model's table here (observation off): a width the
// observed load picks for the first time after the warm-up is not steady state.
//
// Every allocation is counted by interposing the C allocator (malloc, calloc, realloc,
// posix_memalign, aligned_alloc, memalign), which operator new also goes through. The
// sanitizers interpose the same functions, so this test is not built under asan/tsan.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "plan/width_internal.hpp"

#include "cpu_engine_impl.hpp"
#include "engine_test_util.hpp"
#include "team/held_worker.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<std::uint64_t> g_allocations{0};
void count() {
  if (g_counting.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) {
  count();
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  count();
  return __libc_calloc(n, size);
}
void* realloc(void* pointer, std::size_t size) {
  count();
  return __libc_realloc(pointer, size);
}
void free(void* pointer) { __libc_free(pointer); }
void* memalign(std::size_t alignment, std::size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  count();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
}

namespace teamla::engine {
namespace {

using testing::TestMatrix;

// Operands of every routine, allocated once, outside the counted window.
struct Operands {
  static constexpr index_t n = 320;
  // The float gemm is larger: at 320 (~0.3 ms) it sits on the cost model's threshold and
  // flips between widths 1 and 2 with the dispatch kind, which a warm-up cannot pin down.
  static constexpr index_t nf = 640;
  TestMatrix<double> a{n, n}, b{n, n}, c{n, n}, spd{n, n}, factor{n, n}, rhs{n, 4};
  TestMatrix<float> af{nf, nf}, bf{nf, nf}, cf{nf, nf};
  Operands() {
    testing::fill_random(a, 1);
    testing::fill_random(b, 2);
    testing::fill_random(af, 3);
    testing::fill_random(bf, 4);
    spd = testing::make_spd<double>(n, Layout::col_major, 5);
  }
  // calls: every routine, one entry each (built once: calling a std::function allocates
  // nothing).
  std::vector<std::function<void(CpuEngine&)>> calls = {
      [this](CpuEngine& e) { e.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view()); },
      [this](CpuEngine& e) {
        e.gemm(Op::transpose, Op::none, 1.0f, af.view(), bf.view(), 0.0f, cf.view());
      },
      [this](CpuEngine& e) { e.syrk(Uplo::lower, Op::none, 1.0, a.view(), 0.0, c.view()); },
      [this](CpuEngine& e) {
        std::copy(spd.storage.begin(), spd.storage.end(), factor.storage.begin());
        (void)e.potrf(Uplo::lower, factor.view());
      },
      [this](CpuEngine& e) { e.potrs(Uplo::lower, factor.view(), rhs.view()); },
      [this](CpuEngine& e) {
        e.trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, factor.view(), b.view());
      },
      [this](CpuEngine& e) {
        std::copy(spd.storage.begin(), spd.storage.end(), factor.storage.begin());
        e.solve_spd(factor.view(), rhs.view());
      },
  };
  void run_every_routine(CpuEngine& engine) {
    for (auto& call : calls) call(engine);
  }
  // run_every_routine_wide(): each routine, repeated until one call has run at the engine's
  // full width. The cost model picks each call's width from the dispatch cost of the moment,
  // and the parallel path packs into other buffers than the serial one.
  void run_every_routine_wide(CpuEngine& engine) {
    for (auto& call : calls) {
      call(engine);
      for (int tries = 0; tries < 50 && engine.last_call().exec.max_width_used < engine.width();
           ++tries) {
        call(engine);
      }
    }
  }
  // run_every_routine_inline(): the same routines at width 1, on the engine's workspace
  // (through its dispatch, with max_width 1).
  void run_every_routine_inline(CpuEngine& engine) {
    engine.impl().dispatch("warm-up", [&](linalg::Exec& exec) {
      exec.max_width = 1;
      linalg::gemm(Op::none, Op::none, 1.0, a.cview(), b.cview(), 0.0, c.view(), exec);
      linalg::gemm(Op::transpose, Op::none, 1.0f, af.cview(), bf.cview(), 0.0f, cf.view(), exec);
      linalg::syrk(Uplo::lower, Op::none, 1.0, a.cview(), 0.0, c.view(), exec);
      std::copy(spd.storage.begin(), spd.storage.end(), factor.storage.begin());
      (void)linalg::potrf(Uplo::lower, factor.view(), exec);
      linalg::potrs(Uplo::lower, factor.cview(), rhs.view(), exec);
      linalg::trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, factor.cview(), b.view(),
                   exec);
    });
  }
};

// TableWidths: widths from the cost model alone while it lives, so that a warm-up meets every
// width the calls after it take.
struct TableWidths {
  TableWidths() { linalg::detail::set_section_observation(false); }
  ~TableWidths() { linalg::detail::set_section_observation(true); }
  TableWidths(const TableWidths&) = delete;
  TableWidths& operator=(const TableWidths&) = delete;
};

std::uint64_t allocations_during(const auto& body) {
  g_allocations.store(0);
  g_counting.store(true);
  body();
  g_counting.store(false);
  return g_allocations.load();
}

TEST(EngineAllocations, TheCounterSeesAllocations) {
  EXPECT_GE(allocations_during([] { std::vector<int> v(100); }), 1u);
}

class SteadyState : public ::testing::TestWithParam<Mode> {};

TEST_P(SteadyState, CallsAfterTheFirstAllocateNothing) {
  const TableWidths table;
  CpuEngine engine(EngineConfig{.threads = 2, .mode = GetParam()});
  Operands operands;
  // Warm-up: every routine at every width the cost model may pick (here 1 and 2), then rounds
  // until one allocates nothing (the regions inside potrf and trsm choose their widths one by
  // one). Steady state is reached within a few rounds.
  operands.run_every_routine_wide(engine);
  operands.run_every_routine_inline(engine);
  int warm_up_rounds = 1;
  while (allocations_during([&] { operands.run_every_routine(engine); }) != 0) {
    ASSERT_LT(++warm_up_rounds, 20) << "the workspace keeps growing: no steady state";
  }
  const std::uint64_t allocations = allocations_during([&] {
    for (int round = 0; round < 5; ++round) operands.run_every_routine(engine);
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(engine.counters().calls, 0u);
}

INSTANTIATE_TEST_SUITE_P(HeldAndSerial, SteadyState, ::testing::Values(Mode::held, Mode::serial),
                         [](const auto& mode_case) {
                           return std::string(to_string(mode_case.param));
                         });

// A worker held in its start hook through the warm-up takes no unit of it (the leader claims
// them all); let go, it takes units of the same calls and allocates nothing, because units
// pack into the leader's workspace by rank and the ranks' slots are evened out after each
// section. Fails where a unit packs into its own thread's workspace, or without the evening
// out.
TEST(ClaimedUnits, AWorkerThatMissedTheWarmUpAllocatesNothingLater) {
  const TableWidths table;
  teamla::testing::HeldWorkerPool held(team::Pool::builder().threads(2));
  team::Team team = held.pool->acquire(2);
  linalg::Workspace workspace;
  linalg::Exec exec;
  exec.team = &team;
  exec.workspace = &workspace;
  Operands operands;
  std::size_t sections = 0;
  const auto run_wide_routines = [&] {
    linalg::syrk(Uplo::lower, Op::none, 1.0, operands.a.cview(), 0.0, operands.c.view(), exec);
    sections += exec.stats.sections;
    linalg::trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, operands.spd.cview(),
                 operands.b.view(), exec);
    sections += exec.stats.sections;
    std::copy(operands.spd.storage.begin(), operands.spd.storage.end(),
              operands.factor.storage.begin());
    ASSERT_EQ(linalg::potrf(Uplo::lower, operands.factor.view(), exec), 0);
    sections += exec.stats.sections;
  };
  run_wide_routines();
  run_wide_routines();
  ASSERT_GE(sections, 3u) << "the routines ran inline: nothing to show";
  EXPECT_GE(held.pool->counters().members_left_out, 1u) << "the held worker was not left out";
  held.release();
  // The worker takes its stale jobs and finds them over before the counted window.
  for (int i = 0; i < 2000 && held.pool->counters().idle_arrivals == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const std::uint64_t allocations = allocations_during([&] {
    for (int round = 0; round < 10; ++round) run_wide_routines();
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(held.pool->counters().sections, 0u);
}

TEST(EngineAllocations, PerCallModeAllocatesAPoolPerCall) {
  CpuEngine engine(EngineConfig{.threads = 2, .mode = Mode::per_call});
  Operands operands;
  operands.run_every_routine(engine);
  EXPECT_GT(allocations_during([&] { operands.run_every_routine(engine); }), 0u);
}

}  // namespace
}  // namespace teamla::engine
