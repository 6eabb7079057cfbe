// SPDX-License-Identifier: Apache-2.0
// pool_impl.hpp: the runtime-private state of a pool and its workers.
//
// Threads and ownership:
//  - Pool::Impl is shared by the pool's workers and every team acquired from it; it outlives
//    them all (the Pool joins its workers in its destructor, or hands the Impl to the
//    reservoir, and teams must be gone by then).
//  - WorkerSlot is one worker's mailbox. Exactly one thread posts to it at a time: the leader
//    of the team (or child team) that holds the worker, once the worker has taken its previous
//    job. The worker alone takes jobs from it.
// A job carries a section's state (SectionShared, team.cpp), which the pool never reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "reservoir.hpp"
#include "sync/claim_board.hpp"
#include "sync/late_invite.hpp"
#include "sync/std_sync.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/wait_policy.hpp"
#include "wait/pressure.hpp"
#include "wait/wait_context.hpp"

namespace teamla::team {

using ClaimBoard = sync::ClaimBoard<sync::StdSync>;
struct SectionShared;

// run: a static section (the member must run); claim: a claimed section (the member claims
// units of `generation` on `board` and may find none); end_nested, stop: leave the loop.
// wake: nothing to run; the worker goes back to waiting with its whole spin budget
// (Team::wake_members).
enum class JobKind : std::uint8_t { run, claim, wake, end_nested, stop };

struct Job {
  SectionShared* shared = nullptr;  // claim: read only after a unit has been claimed
  std::uint32_t rank = 0;
  JobKind kind = JobKind::run;
  ClaimBoard* board = nullptr;  // claim only
  std::uint64_t generation = 0;
  int leader_cpu = -1;      // claim: the CPU the leader posted from (its members' avoid_cpu)
  bool park_after = false;  // claim: Team::Linger::park, only a brief spin before the next wait
};

// WorkerSlot: one line-aligned mailbox per worker, so that posting to one worker does not
// invalidate the line another worker is polling. A poster writes `job` only once the worker
// has taken every earlier job (`taken == posted`). After a join that always holds; in a fork, a
// child leader can post before its member has taken the fork's own job, and then waits.
struct alignas(64) WorkerSlot {
  std::atomic<std::uint64_t> posted{0};  // jobs posted so far; the worker polls it
  Job job;                               // written before `posted` is bumped
  std::atomic<std::uint64_t> taken{0};   // jobs the worker has copied out of `job`
  Parker parker;                         // the worker sleeps here between jobs
  // The board of the claimed sections led by a team whose first member is this worker. It
  // lives as long as the pool, so a member that reads it late never reads freed memory.
  alignas(64) ClaimBoard board;
  // The CPU the worker ran on when it last began a wait or a job (current_cpu()), read by the
  // leader's waits to tell whether this worker is stacked on the leader's CPU.
  std::atomic<int> cpu{-1};
  // A claimed section this worker was left out of (try_post: it had not yet taken its previous
  // job): it joins it late when it gets there (sync/late_invite.hpp).
  sync::LateInvite<sync::StdSync, Job> late;
  std::size_t index = 0;
  std::thread thread;
};

// Pool::Impl is the reservoir's one kind of IdlePool: a reusable pool is handed back whole.
struct Pool::Impl final : IdlePool {
  std::size_t threads = 1;          // the leader and the workers that started
  std::size_t requested = 1;        // what the builder asked for (the reservoir matches on it)
  std::size_t missing_threads = 0;  // workers that could not be started (requested - threads)
  WaitPolicy policy = WaitPolicy::staged;
  WaitTuning tuning;
  // The spin phase in polls: tuning.spin_polls, or tuning.spin_time / spin_poll_ns().
  std::uint32_t spin_budget = 0;
  std::string name;
  std::function<void(std::size_t)> on_start;
  // More pool threads than CPUs in the builder's affinity set: waits use the throttled budget.
  bool oversubscribed = false;
  // reuse_threads(): handed back to the reservoir instead of joined.
  bool reusable = false;

  std::vector<WorkerSlot> workers;  // requested - 1 slots; never resized after build

  // Idle (unreserved) workers, most recently released last: acquire() takes from the back.
  std::mutex idle_mutex;
  std::vector<WorkerSlot*> idle;

  // Team::section_cost_ns(): measured once, at width `section_cost_width`; 0 until then.
  std::atomic<double> section_cost_ns{0.0};
  std::atomic<std::size_t> section_cost_width{0};
  std::atomic<std::uint64_t> section_cost_expires_ns{0};  // 0: for good

  // The one parker that leaders in join and participants in barriers sleep on. It lives here
  // and not in the section, because the last member wakes it after the leader may have freed
  // the section.
  alignas(64) Parker sync;
  alignas(64) CounterCells counters;
  // The members the process budget has granted this pool's sections and not yet had back
  // (cpu_budget.hpp): a waiting member subtracts them from the budget's count, since until the
  // join returns them they are the very members now waiting.
  std::atomic<std::size_t> members_granted{0};
  alignas(64) PressureMonitor pressure;

  Impl(std::size_t thread_count, WaitPolicy wait_policy, const WaitTuning& wait_tuning);
  // Stops any worker still running: an Impl dropped on an error path (no memory for the Pool
  // that was to own it), or by the reservoir, must not take running threads down with it.
  ~Impl() override;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // waits(): this pool as its waits see it (wait/wait_context.hpp).
  [[nodiscard]] WaitContext waits() {
    return {policy, tuning, spin_budget, oversubscribed, pressure, counters, members_granted};
  }
  [[nodiscard]] bool matches(const PoolKey& key) const override;
  // post() hands `job` to the worker; true when the worker was asleep and had to be woken.
  bool post(WorkerSlot& slot, const Job& job);
  // try_post() posts only to a worker that has taken every earlier job; false leaves it out.
  bool try_post(WorkerSlot& slot, const Job& job);
  // post_wake() posts a JobKind::wake to a worker that has taken every earlier job (else nothing:
  // that worker is awake or on its way).
  void post_wake(WorkerSlot& slot);
  // invite_late() hands a claim job to a worker that try_post left out (see WorkerSlot).
  void invite_late(WorkerSlot& slot, const Job& job);
  // reserve() moves up to `count` idle workers into `members`, the most recently released
  // first; release() gives them back, the first of `members` on top. Both hold idle_mutex.
  void reserve(std::size_t count, std::vector<WorkerSlot*>& members);
  void release(std::vector<WorkerSlot*>& members);
  // stop_workers(): posts stop to every running worker and joins it.
  void stop_workers();
  // keep_started(): after a failed thread start, the pool serves with the `started` workers
  // it has (the others never appear in `idle`), and the shortfall is reported.
  void keep_started(std::size_t started);
};

// serve_jobs(): a worker thread's loop, in team.cpp beside the leader's side of each job:
// serve jobs posted to `slot` until a stop (returns false) or the end of a nested fork loop
// (returns true). `fresh`: a new worker, whose first wait spins briefly.
bool serve_jobs(Pool::Impl& pool, WorkerSlot& slot, bool fresh = false);

// raw_counters() snapshots the counters of `impl` since it was built.
WaitCounters raw_counters(const Pool::Impl& impl);

// current_worker() is the slot of the calling worker thread, or nullptr on other threads.
WorkerSlot* current_worker();

// members_not_running() (team.hpp) counts the calling thread's posts here that found their
// worker asleep or not yet at its previous job.
std::uint64_t members_not_running();

}  // namespace teamla::team
