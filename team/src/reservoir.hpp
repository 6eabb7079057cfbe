// SPDX-License-Identifier: Apache-2.0
// reservoir.hpp: idle pools kept for reuse (PoolBuilder::reuse_threads).
//
// A pool built per call would otherwise spawn its workers and join them every call, and a
// spawned worker queued behind its leader stalls the call by a scheduler slice
// (docs/perf/calls.md, "Runtime figures"). The reservoir keeps the whole pool (workers parked
// on their own words, claim boards, counters) of a destroyed reusable Pool, so the next build
// of the same settings costs a wake. A worker that had not yet taken its last job when its
// Pool was handed back takes it later and finds the section over; the pool it reads is still
// alive here.
//
// Bounds: at most kIdlePools idle pools, each stopped once idle for longer than
// kIdleLifetimeNs (checked whenever a pool is taken or handed back; the stop runs on that
// caller, after the lock). Process exit leaves idle workers parked in the kernel, as other BLAS
// pools do. A forked child starts with an empty reservoir: the parent's idle workers do not
// exist in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "teamla/team/wait_policy.hpp"

namespace teamla::team {

// kIdlePools: idle pools kept; a process alternating a few engine shapes keeps all of them.
inline constexpr std::size_t kIdlePools = 4;
// kIdleLifetimeNs: an idle pool's workers are joined after 2 s unused: long past any gap
// between calls of one computation, short enough that a finished phase frees its threads.
inline constexpr std::uint64_t kIdleLifetimeNs = 2'000'000'000;

// PoolKey: what a build must share with an idle pool to take it: the builder's settings and
// its view of the affinity set.
struct PoolKey {
  std::size_t threads;  // requested, counting the leader
  WaitPolicy policy;
  const WaitTuning& tuning;
  std::string_view name;
  bool oversubscribed;  // threads > affinity_cpu_count()
};

// IdlePool: the reservoir's view of a pool it keeps (Pool::Impl is the one kind). Destroying
// one stops its workers, so the reservoir needs nothing else of it.
class IdlePool {
 public:
  IdlePool() = default;
  IdlePool(const IdlePool&) = delete;
  IdlePool& operator=(const IdlePool&) = delete;
  virtual ~IdlePool() = default;
  // matches(): whether a build with `key` may take this pool.
  [[nodiscard]] virtual bool matches(const PoolKey& key) const = 0;
};

// take_idle_pool(): an idle pool that matches `key`, or nullptr. `now_ns` (monotonic_ns())
// ages the idle pools.
std::unique_ptr<IdlePool> take_idle_pool(const PoolKey& key, std::uint64_t now_ns);

// hand_back_pool(): keeps `pool` (no team left on it) for reuse.
void hand_back_pool(std::unique_ptr<IdlePool> pool);

}  // namespace teamla::team
