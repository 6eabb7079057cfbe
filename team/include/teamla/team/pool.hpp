// SPDX-License-Identifier: Apache-2.0
// pool.hpp: a pool of worker threads that teams are carved from.
//
//   auto pool = teamla::team::Pool::builder().threads(4).build();
//   teamla::team::Team team = pool->acquire(4);      // the caller leads, 3 members reserved
//   team.run(4, [&](teamla::team::Section& s) { work(s.rank(), s.width()); });
//
// A pool of `threads()` can serve a team of that many participants: the calling thread leads
// (rank 0) and the pool spawns threads()-1 workers. Destroying the pool joins every worker;
// every Team acquired from it must be destroyed first. Pool methods are thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "teamla/team/wait_policy.hpp"

namespace teamla::team {

class Pool;
class Team;

// PoolBuilder: the configuration of a new pool. Plain value; build() may be called repeatedly.
class PoolBuilder {
 public:
  // threads() sets the widest team, counting the leader. Default: affinity_cpu_count().
  // 0 is an error (std::invalid_argument at build()).
  PoolBuilder& threads(std::size_t count);
  // thread_name() names workers "<prefix>-<index>" (truncated to 15 bytes, the kernel's limit).
  PoolBuilder& thread_name(std::string prefix);
  // on_start() runs `hook(worker_index)` on each worker before it serves anything.
  PoolBuilder& on_start(std::function<void(std::size_t)> hook);
  PoolBuilder& policy(WaitPolicy policy);
  PoolBuilder& tuning(const WaitTuning& tuning);
  // reuse_threads() lets build() take the workers of an idle pool of the same settings that an
  // earlier Pool handed back, and makes the Pool hand its workers back when it is destroyed
  // instead of joining them: a pool built per call then costs a wake, not a thread start
  // (and never a wait for a thread the scheduler has not run yet). The new Pool still has its
  // own warm-up detection and counters. At most kIdlePools pools wait to be reused; one idle
  // for longer than kIdleLifetimeNs is joined by the next build or hand-back (both in
  // src/reservoir.hpp). Not with on_start() (whose hook a reused worker would not run again).
  PoolBuilder& reuse_threads(bool reuse = true);
  // apply_env() reads TEAMLA_NUM_THREADS, TEAMLA_WAIT_POLICY, TEAMLA_SPIN_POLLS and
  // TEAMLA_WARM_UP_MS (the one place they are read). An invalid value throws
  // std::invalid_argument naming the variable and the value.
  PoolBuilder& apply_env();

  [[nodiscard]] std::size_t thread_count() const;
  [[nodiscard]] WaitPolicy wait_policy() const { return policy_; }
  [[nodiscard]] const WaitTuning& wait_tuning() const { return tuning_; }

  // build() starts the workers. Throws std::invalid_argument for a zero thread count.
  [[nodiscard]] std::unique_ptr<Pool> build() const;

 private:
  std::size_t threads_ = 0;   // 0: the affinity set
  bool threads_set_ = false;  // threads() was called (so 0 is an error, not the default)
  std::string name_ = "teamla";
  std::function<void(std::size_t)> on_start_;
  WaitPolicy policy_ = WaitPolicy::staged;
  WaitTuning tuning_;
  bool reuse_ = false;
};

class Pool {
 public:
  static PoolBuilder builder() { return {}; }

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool();

  // threads() is the widest team this pool serves (workers + the leader). It is less than
  // requested_threads() when the system refused some workers (pids.max, RLIMIT_NPROC, no
  // memory for a stack): the pool then serves with the workers it started, and
  // missing_threads() says how many it lacks (team/shortfall.hpp reports it once).
  [[nodiscard]] std::size_t threads() const;
  [[nodiscard]] std::size_t requested_threads() const;
  [[nodiscard]] std::size_t missing_threads() const;
  [[nodiscard]] WaitPolicy policy() const;
  [[nodiscard]] const WaitTuning& tuning() const;
  // spin_polls() is the spin phase in polls: tuning().spin_polls if set, else spin_time
  // converted through spin_poll_ns().
  [[nodiscard]] std::uint32_t spin_polls() const;
  // counters() snapshots the wait counters (relaxed reads; exact once the pool is quiet).
  [[nodiscard]] WaitCounters counters() const;
  // throttled() says whether waits currently use the throttled budget.
  [[nodiscard]] bool throttled() const;

  // acquire() reserves up to width-1 idle workers for a team led by the calling thread.
  // It never blocks: if other teams hold workers, the team is narrower (team.width() tells).
  // Workers the system refused (missing_threads()) make it narrower the same way. width 0 or
  // width > requested_threads() throws std::invalid_argument.
  [[nodiscard]] Team acquire(std::size_t width);

  // reused() says whether build() took this pool's workers from an earlier Pool.
  [[nodiscard]] bool reused() const { return reused_; }

  struct Impl;
  [[nodiscard]] Impl& impl() const { return *impl_; }

 private:
  friend class PoolBuilder;
  Pool(std::unique_ptr<Impl> impl, bool reused);
  std::unique_ptr<Impl> impl_;
  bool reused_ = false;
  WaitCounters base_;  // a reused pool's counters at hand-over: counters() starts from zero
};

}  // namespace teamla::team
