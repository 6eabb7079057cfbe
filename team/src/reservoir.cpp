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

struct Reservoir {
  std::mutex mutex;
  std::vector<std::unique_ptr<Pool::Impl>> idle;  // most recently handed back last
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
// first); the caller stops them outside the lock.
std::vector<std::unique_ptr<Pool::Impl>> take_expired(Reservoir& r, std::uint64_t now_ns) {
  std::vector<std::unique_ptr<Pool::Impl>> expired;
  // The only allocation, before any pool moves: without memory nothing has changed.
  expired.reserve(r.idle.size());
  const auto aged = [&](const std::unique_ptr<Pool::Impl>& impl) {
    return now_ns - impl->idle_since_ns > kIdleLifetimeNs;
  };
  for (auto& impl : r.idle) {
    if (aged(impl)) expired.push_back(std::move(impl));
  }
  std::erase(r.idle, nullptr);
  while (r.idle.size() > kIdlePools) {  // the oldest first
    expired.push_back(std::move(r.idle.front()));
    r.idle.erase(r.idle.begin());
  }
  return expired;
}

void stop_all(std::vector<std::unique_ptr<Pool::Impl>>& pools) {
  for (auto& impl : pools) stop_workers(*impl);
}

}  // namespace

void stop_workers(Pool::Impl& impl) {
  for (WorkerSlot& slot : impl.workers) {
    if (slot.thread.joinable()) impl.post(slot, Job{nullptr, 0, JobKind::stop});
  }
  for (WorkerSlot& slot : impl.workers) {
    if (slot.thread.joinable()) slot.thread.join();
  }
}

std::unique_ptr<Pool::Impl> take_idle_pool(std::size_t threads, WaitPolicy policy,
                                           const WaitTuning& tuning, const std::string& name) {
  Reservoir& r = reservoir();
  const std::uint64_t now_ns = monotonic_ns();
  const bool oversubscribed = threads > affinity_cpu_count();
  std::unique_ptr<Pool::Impl> found;
  std::vector<std::unique_ptr<Pool::Impl>> expired;
  {
    std::lock_guard lock(r.mutex);
    expired = take_expired(r, now_ns);
    for (auto it = r.idle.rbegin(); it != r.idle.rend(); ++it) {
      Pool::Impl& impl = **it;
      if (impl.requested == threads && impl.policy == policy && impl.tuning == tuning &&
          impl.name == name && impl.oversubscribed == oversubscribed) {
        found = std::move(*it);
        r.idle.erase(std::next(it).base());
        break;
      }
    }
  }
  stop_all(expired);
  if (found) found->pressure.restart(now_ns);
  return found;
}

void hand_back_pool(std::unique_ptr<Pool::Impl> impl) {
  Reservoir& r = reservoir();
  const std::uint64_t now_ns = monotonic_ns();
  impl->idle_since_ns = now_ns;
  std::vector<std::unique_ptr<Pool::Impl>> expired;
  try {
    std::lock_guard lock(r.mutex);
    r.idle.push_back(std::move(impl));  // on failure `impl` is still ours
    expired = take_expired(r, now_ns);
  } catch (const std::bad_alloc&) {
    // No memory to keep it: a pool still held here is stopped by its destructor below, and
    // expired pools wait for the next hand-back.
  }
  stop_all(expired);
}

}  // namespace teamla::team
