// SPDX-License-Identifier: Apache-2.0
// cpu_budget.cpp: the process CPU budget (teamla/team/cpu_budget.hpp, budget.hpp).
#include "teamla/team/cpu_budget.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "budget.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team {
namespace {

// kLingerNs: a caller's CPU counts as taken this long after its call ends. A thread that has
// just made a call is rarely idle: it makes the next one, or it waits in its own runtime, as
// an OpenMP thread spins in libgomp's barrier at the end of a parallel loop while the other
// threads finish their last calls; granted a member beside that spin, those calls lost to one
// thread per caller (docs/perf/concurrent.md).
constexpr std::uint64_t kLingerNs = 1'000'000;
std::atomic<std::uint64_t> g_linger_ns{kLingerNs};  // kLingerNs, or a test's value
// kLingerSlots: the callers whose release is remembered at once; a caller that finds them all
// taken by unexpired releases lingers uncounted.
constexpr std::size_t kLingerSlots = 8;

struct Budget {
  // Callers' slots plus granted members. Every call's entry and exit writes it: its own line,
  // so that the members' reads of `capacity` in their spin do not share it.
  alignas(64) std::atomic<std::size_t> running{0};
  // usable_cpu_count() as last read by a grant (0: never read). Read by spinning members.
  alignas(64) std::atomic<std::size_t> capacity{0};
  // When each lingering caller's call ended (monotonic_ns; 0: free). One line: a read of all
  // of them is one load of it.
  alignas(64) std::array<std::atomic<std::uint64_t>, kLingerSlots> released_ns{};
};
constinit Budget g_budget;

// The calling thread's nesting depth of CallerSlots, whether it is a pool worker (whose
// participation its sections' grants count: its CallerSlots add nothing), and the linger slot
// of its last call (-1: none), cleared when it calls again: its own linger never counts
// against its own call.
constinit thread_local unsigned t_call_depth = 0;
constinit thread_local bool t_worker = false;
constinit thread_local int t_linger_slot = -1;
constinit thread_local std::uint64_t t_released_ns = 0;  // what this thread wrote there

// linger(): remembers that the calling thread's call ended now.
void linger() {
  const std::uint64_t now = monotonic_ns();
  const std::uint64_t linger_ns = g_linger_ns.load(std::memory_order_relaxed);
  for (std::size_t slot = 0; slot < kLingerSlots; ++slot) {
    std::uint64_t released = g_budget.released_ns[slot].load(std::memory_order_relaxed);
    if ((released == 0 || now - released >= linger_ns) &&
        g_budget.released_ns[slot].compare_exchange_strong(released, now,
                                                           std::memory_order_relaxed)) {
      t_linger_slot = static_cast<int>(slot);
      t_released_ns = now;
      return;
    }
  }
}

// unlinger(): the calling thread calls again; its last release no longer counts. Cleared only
// if still its own: once expired, another caller may have taken the slot.
void unlinger() {
  if (t_linger_slot < 0) return;
  std::uint64_t mine = t_released_ns;
  g_budget.released_ns[static_cast<std::size_t>(t_linger_slot)].compare_exchange_strong(
      mine, 0, std::memory_order_relaxed);
  t_linger_slot = -1;
}

// lingering(): the callers whose call ended less than kLingerNs ago (a clock read only when one
// is remembered at all).
std::size_t lingering() {
  const std::uint64_t linger_ns = g_linger_ns.load(std::memory_order_relaxed);
  std::uint64_t now = 0;
  std::size_t count = 0;
  for (const std::atomic<std::uint64_t>& slot : g_budget.released_ns) {
    const std::uint64_t released = slot.load(std::memory_order_relaxed);
    if (released == 0) continue;
    if (now == 0) now = monotonic_ns();
    if (now - released < linger_ns) ++count;
  }
  return count;
}

// taken(): the CPUs the budget counts as running library work now.
std::size_t taken() { return g_budget.running.load(std::memory_order_relaxed) + lingering(); }

std::size_t read_capacity() {
  const std::size_t capacity = std::max(1U, usable_cpu_count());
  if (g_budget.capacity.load(std::memory_order_relaxed) != capacity) {
    g_budget.capacity.store(capacity, std::memory_order_relaxed);
  }
  return capacity;
}

// A forked child has only the forking thread: the other threads' slots are gone with them.
void after_fork_in_child() {
  g_budget.running.store(t_call_depth > 0 && !t_worker ? 1 : 0, std::memory_order_relaxed);
  for (std::atomic<std::uint64_t>& slot : g_budget.released_ns) {
    slot.store(0, std::memory_order_relaxed);
  }
  t_linger_slot = -1;
}
[[maybe_unused]] const bool g_fork_hooked = on_fork(nullptr, nullptr, after_fork_in_child);

}  // namespace

CallerSlot::CallerSlot() : counted_(t_call_depth++ == 0 && !t_worker) {
  if (!counted_) return;
  unlinger();
  g_budget.running.fetch_add(1, std::memory_order_relaxed);
}

CallerSlot::~CallerSlot() {
  --t_call_depth;
  if (!counted_) return;
  g_budget.running.fetch_sub(1, std::memory_order_relaxed);
  linger();
}

std::size_t free_cpus() {
  const std::size_t capacity = read_capacity();
  const std::size_t running = taken();
  return capacity > running ? capacity - running : 0;
}

BudgetUse budget_use() {
  return BudgetUse{g_budget.running.load(std::memory_order_relaxed), read_capacity()};
}

namespace budget {

std::size_t grant_members(std::size_t wanted) {
  const std::size_t cpus = read_capacity();
  const std::size_t capacity = cpus - std::min(cpus, lingering());
  std::size_t running = g_budget.running.load(std::memory_order_relaxed);
  for (;;) {
    const std::size_t granted = std::min(wanted, capacity > running ? capacity - running : 0);
    if (granted == 0) return 0;
    if (g_budget.running.compare_exchange_weak(running, running + granted,
                                               std::memory_order_relaxed)) {
      return granted;
    }
  }
}

void return_members(std::size_t count) {
  if (count != 0) g_budget.running.fetch_sub(count, std::memory_order_relaxed);
}

bool leave_if_over_committed() {
  const std::size_t capacity = g_budget.capacity.load(std::memory_order_relaxed);
  std::size_t running = g_budget.running.load(std::memory_order_relaxed);
  while (capacity != 0 && running > capacity) {
    if (g_budget.running.compare_exchange_weak(running, running - 1, std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

bool all_cpus_taken(std::size_t own_members) {
  const std::size_t capacity = g_budget.capacity.load(std::memory_order_relaxed);
  return capacity != 0 && taken() >= capacity + own_members;
}

void count_as_worker() { t_worker = true; }

void set_linger_ns(std::uint64_t linger_ns) {
  g_linger_ns.store(linger_ns, std::memory_order_relaxed);
}

std::uint64_t default_linger_ns() { return kLingerNs; }

bool in_call() { return t_call_depth > 0; }

}  // namespace budget
}  // namespace teamla::team
