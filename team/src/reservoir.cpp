// SPDX-License-Identifier: Apache-2.0
// reservoir.cpp: idle pools kept for reuse (see reservoir.hpp).
#include "reservoir.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team {
namespace {

struct Kept {
  std::unique_ptr<IdlePool> pool;
  std::uint64_t idle_since_ns = 0;  // when it was handed back
};

struct Reservoir {
  std::mutex mutex;
  std::vector<Kept> idle;  // most recently handed back last
};

// The reservoir of this process. Immortal: a static destructor would join workers while a
// library is being unloaded.
std::atomic<Reservoir*> g_reservoir{nullptr};

// forget_in_child(): a forked child has none of the parent's workers, and its copy of the
// mutex may be held by a parent thread that does not exist in it. The child starts from an
// empty reservoir; the parent's copy is abandoned (leaked once per fork), never joined.
void forget_in_child() { g_reservoir.store(nullptr, std::memory_order_relaxed); }

// Registered when the library is loaded, before any reservoir can exist. Registered by the
// first use instead (a function-local static), a fork() during that registration would copy
// the static's guard taken, and the child's first pool would wait for it for good.
[[maybe_unused]] const bool g_forget_in_child_hooked = on_fork(nullptr, nullptr, &forget_in_child);

Reservoir& reservoir() {
  if (Reservoir* r = g_reservoir.load(std::memory_order_acquire)) return *r;
  auto* created = new Reservoir;
  Reservoir* expected = nullptr;
  if (!g_reservoir.compare_exchange_strong(expected, created, std::memory_order_acq_rel)) {
    delete created;  // another thread created it first
    return *expected;
  }
  return *created;
}

// take_expired(): removes the idle pools past their lifetime or beyond kIdlePools (oldest
// first); the caller drops them, which stops their workers, outside the lock.
std::vector<Kept> take_expired(Reservoir& r, std::uint64_t now_ns) {
  std::vector<Kept> expired;
  // The only allocation, before any pool moves: without memory nothing has changed.
  expired.reserve(r.idle.size());
  for (Kept& kept : r.idle) {
    if (now_ns - kept.idle_since_ns > kIdleLifetimeNs) expired.push_back(std::move(kept));
  }
  std::erase_if(r.idle, [](const Kept& kept) { return kept.pool == nullptr; });
  while (r.idle.size() > kIdlePools) {  // the oldest first
    expired.push_back(std::move(r.idle.front()));
    r.idle.erase(r.idle.begin());
  }
  return expired;
}

}  // namespace

std::unique_ptr<IdlePool> take_idle_pool(const PoolKey& key, std::uint64_t now_ns) {
  Reservoir& r = reservoir();
  std::unique_ptr<IdlePool> found;
  std::vector<Kept> expired;
  {
    std::lock_guard lock(r.mutex);
    expired = take_expired(r, now_ns);
    for (auto it = r.idle.rbegin(); it != r.idle.rend(); ++it) {
      if (it->pool->matches(key)) {
        found = std::move(it->pool);
        r.idle.erase(std::next(it).base());
        break;
      }
    }
  }
  expired.clear();  // stops their workers
  return found;
}

void hand_back_pool(std::unique_ptr<IdlePool> pool) {
  Reservoir& r = reservoir();
  const std::uint64_t now_ns = monotonic_ns();
  Kept kept{std::move(pool), now_ns};
  std::vector<Kept> expired;
  try {
    std::lock_guard lock(r.mutex);
    r.idle.push_back(std::move(kept));  // on failure `kept` is still ours (a noexcept move)
    expired = take_expired(r, now_ns);
  } catch (const std::bad_alloc&) {
    // No memory to keep it: a pool still held here is stopped when `kept` is dropped below,
    // and expired pools wait for the next hand-back.
  }
  expired.clear();  // stops their workers
}

}  // namespace teamla::team
