// SPDX-License-Identifier: Apache-2.0
// cpu_budget.cpp: the process CPU budget (teamla/team/cpu_budget.hpp, budget.hpp).
#include "teamla/team/cpu_budget.hpp"

#include <algorithm>
#include <atomic>

#include "budget.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team {
namespace {

struct Budget {
  // Callers' slots plus granted members. Every call's entry and exit writes it: its own line,
  // so that the members' reads of `capacity` in their spin do not share it.
  alignas(64) std::atomic<std::size_t> running{0};
  // usable_cpu_count() as last read by a grant (0: never read). Read by spinning members.
  alignas(64) std::atomic<std::size_t> capacity{0};
};
constinit Budget g_budget;

// The calling thread's nesting depth of CallerSlots, and whether it is a pool worker (whose
// participation its sections' grants count: its CallerSlots add nothing).
constinit thread_local unsigned t_call_depth = 0;
constinit thread_local bool t_worker = false;

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
}
[[maybe_unused]] const bool g_fork_hooked = on_fork(nullptr, nullptr, after_fork_in_child);

}  // namespace

CallerSlot::CallerSlot() : counted_(t_call_depth++ == 0 && !t_worker) {
  if (counted_) g_budget.running.fetch_add(1, std::memory_order_relaxed);
}

CallerSlot::~CallerSlot() {
  --t_call_depth;
  if (counted_) g_budget.running.fetch_sub(1, std::memory_order_relaxed);
}

std::size_t free_cpus() {
  const std::size_t capacity = read_capacity();
  const std::size_t running = g_budget.running.load(std::memory_order_relaxed);
  return capacity > running ? capacity - running : 0;
}

BudgetUse budget_use() {
  return BudgetUse{g_budget.running.load(std::memory_order_relaxed), read_capacity()};
}

namespace budget {

std::size_t grant_members(std::size_t wanted) {
  const std::size_t capacity = read_capacity();
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
  return capacity != 0 &&
         g_budget.running.load(std::memory_order_relaxed) >= capacity + own_members;
}

void count_as_worker() { t_worker = true; }

bool in_call() { return t_call_depth > 0; }

}  // namespace budget
}  // namespace teamla::team
