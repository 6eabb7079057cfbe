// SPDX-License-Identifier: Apache-2.0
// reservoir.hpp: idle pools kept for reuse (PoolBuilder::reuse_threads).
//
// A pool built per call used to spawn its workers and join them every call; a spawned worker
// queued behind its leader stalled the call by a scheduler slice (~4 ms) in 1.5-22 % of calls
// under load. The reservoir keeps the whole Pool::Impl (workers parked on their own words,
// claim boards, counters) of a destroyed reusable Pool, so the next build of the same settings
// costs a wake. A worker that had not yet taken its last job when its Pool was handed back
// takes it later and finds the section over; the Impl it reads is still alive here.
//
// Bounds: at most kIdlePools idle Impls, each joined once idle for longer than kIdleLifetimeNs
// (checked whenever a pool is taken or handed back; the join runs on that caller, after the
// lock). Process exit leaves idle workers parked in the kernel, as other BLAS pools do. A
// forked child starts with an empty reservoir: the parent's idle workers do not exist in it.
#pragma once

#include <cstdint>
#include <memory>

#include "pool_impl.hpp"

namespace teamla::team {

// kIdlePools: idle pools kept; a process alternating a few engine shapes keeps all of them.
inline constexpr std::size_t kIdlePools = 4;
// kIdleLifetimeNs: an idle pool's workers are joined after 2 s unused: long past any gap
// between calls of one computation, short enough that a finished phase frees its threads.
inline constexpr std::uint64_t kIdleLifetimeNs = 2'000'000'000;

// take_idle_pool(): an idle Impl built with exactly these settings (and the same view of the
// affinity set), or nullptr.
std::unique_ptr<Pool::Impl> take_idle_pool(std::size_t threads, WaitPolicy policy,
                                           const WaitTuning& tuning, const std::string& name);

// hand_back_pool(): keeps `impl` (no team left on it) for reuse.
void hand_back_pool(std::unique_ptr<Pool::Impl> impl);

// stop_workers(): posts stop to every worker of `impl` and joins it.
void stop_workers(Pool::Impl& impl);

}  // namespace teamla::team
