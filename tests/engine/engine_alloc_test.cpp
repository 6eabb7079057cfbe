// Contract covered: the allocation guarantee. In held and serial mode, once a call of a
// given shape has run, later calls of that shape (every routine) allocate nothing, on any
// thread of the process (the engine's workers included). per_call mode does allocate (a pool
// per call), and the test checks that too, which also proves the counter sees allocations.
//
// Every allocation is counted by interposing the C allocator (malloc, calloc, realloc,
// posix_memalign, aligned_alloc, memalign), which operator new also goes through. The
// sanitizers interpose the same functions, so this test is not built under asan/tsan.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"

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
  TestMatrix<double> a{n, n}, b{n, n}, c{n, n}, spd{n, n}, factor{n, n}, rhs{n, 4};
  TestMatrix<float> af{n, n}, bf{n, n}, cf{n, n};
  Operands() {
    testing::fill_random(a, 1);
    testing::fill_random(b, 2);
    testing::fill_random(af, 3);
    testing::fill_random(bf, 4);
    spd = testing::make_spd<double>(n, Layout::col_major, 5);
  }
  void run_every_routine(CpuEngine& engine) {
    engine.gemm(Op::none, Op::none, 1.0, a.view(), b.view(), 0.0, c.view());
    engine.gemm(Op::transpose, Op::none, 1.0f, af.view(), bf.view(), 0.0f, cf.view());
    engine.syrk(Uplo::lower, Op::none, 1.0, a.view(), 0.0, c.view());
    std::copy(spd.storage.begin(), spd.storage.end(), factor.storage.begin());
    (void)engine.potrf(Uplo::lower, factor.view());
    engine.potrs(Uplo::lower, factor.view(), rhs.view());
    engine.trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, factor.view(), b.view());
    std::copy(spd.storage.begin(), spd.storage.end(), factor.storage.begin());
    engine.solve_spd(factor.view(), rhs.view());
  }
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
  CpuEngine engine(EngineConfig{.threads = 2, .mode = GetParam()});
  Operands operands;
  operands.run_every_routine(engine);  // sizes the workspace
  operands.run_every_routine(engine);
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

TEST(EngineAllocations, PerCallModeAllocatesAPoolPerCall) {
  CpuEngine engine(EngineConfig{.threads = 2, .mode = Mode::per_call});
  Operands operands;
  operands.run_every_routine(engine);
  EXPECT_GT(allocations_during([&] { operands.run_every_routine(engine); }), 0u);
}

}  // namespace
}  // namespace teamla::engine
