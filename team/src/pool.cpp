// SPDX-License-Identifier: Apache-2.0
// pool.cpp: PoolBuilder, Pool and Pool::Impl: starting workers, posting jobs to them, keeping
// the idle ones and stopping them. Pool::acquire() and the workers' loop (serve_jobs) are in
// team.cpp, beside the teams and sections they serve.
#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "budget.hpp"
#include "platform/thread.hpp"
#include "pool_impl.hpp"
#include "reservoir.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::team {
namespace {
thread_local WorkerSlot* this_worker = nullptr;
thread_local std::uint64_t t_members_not_running = 0;
thread_local std::uint64_t t_members_woken = 0;

// publish(): hands `job` to the worker of `slot` (which has taken every earlier job) and wakes
// it if it sleeps, counting that for the calling thread. Returns whether it slept.
bool publish(WorkerSlot& slot, const Job& job) {
  slot.job = job;
  slot.posted.fetch_add(1, std::memory_order_seq_cst);
  const bool woke = slot.parker.wake();
  if (woke) {
    ++t_members_not_running;
    ++t_members_woken;
  }
  return woke;
}

// has_taken_all(): whether the worker of `slot` has taken every job posted to it.
bool has_taken_all(const WorkerSlot& slot) {
  return slot.taken.load(std::memory_order_acquire) == slot.posted.load(std::memory_order_relaxed);
}
}  // namespace

std::uint64_t members_not_running() { return t_members_not_running; }

std::uint64_t members_woken() { return t_members_woken; }

WorkerSlot* current_worker() { return this_worker; }

// ---- PoolBuilder ----

PoolBuilder& PoolBuilder::threads(std::size_t count) {
  threads_ = count;
  threads_set_ = true;
  return *this;
}
PoolBuilder& PoolBuilder::thread_name(std::string prefix) {
  name_ = std::move(prefix);
  return *this;
}
PoolBuilder& PoolBuilder::on_start(std::function<void(std::size_t)> hook) {
  on_start_ = std::move(hook);
  return *this;
}
PoolBuilder& PoolBuilder::policy(WaitPolicy wait_policy) {
  policy_ = wait_policy;
  return *this;
}
PoolBuilder& PoolBuilder::tuning(const WaitTuning& wait_tuning) {
  tuning_ = wait_tuning;
  return *this;
}
PoolBuilder& PoolBuilder::reuse_threads(bool reuse) {
  reuse_ = reuse;
  return *this;
}

std::size_t PoolBuilder::thread_count() const {
  return threads_set_ ? threads_ : affinity_cpu_count();
}

std::unique_ptr<Pool> PoolBuilder::build() const {
  const std::size_t count = thread_count();
  if (count == 0) throw std::invalid_argument("teamla: a pool needs at least 1 thread, got 0");
  const bool reuse = reuse_ && !on_start_;
  if (reuse) {
    const std::uint64_t now_ns = monotonic_ns();
    const PoolKey key{count, policy_, tuning_, name_, count > affinity_cpu_count()};
    if (std::unique_ptr<IdlePool> idle = take_idle_pool(key, now_ns)) {
      std::unique_ptr<Pool::Impl> impl(static_cast<Pool::Impl*>(idle.release()));
      impl->pressure.restart(now_ns);
      return std::unique_ptr<Pool>(new Pool(std::move(impl), true));
    }
  }
  auto impl = std::make_unique<Pool::Impl>(count, policy_, tuning_);
  impl->name = name_;
  impl->on_start = on_start_;
  impl->reusable = reuse;
  Pool::Impl& state = *impl;
  std::unique_ptr<Pool> pool(new Pool(std::move(impl), false));
  std::size_t started = 0;
  for (WorkerSlot& slot : state.workers) {
    try {
      slot.thread = std::thread([&state, &slot] {
        this_worker = &slot;
        budget::count_as_worker();
        // Built without allocating: the worker must not fail where no one could catch it.
        char full[16];
        std::snprintf(full, sizeof full, "%s-%zu", state.name.c_str(), slot.index);
        platform::set_thread_name(full);
        if (state.on_start) state.on_start(slot.index);
        serve_jobs(state, slot, true);
      });
    } catch (const std::system_error&) {
      break;  // EAGAIN: a pids.max or RLIMIT_NPROC limit; the pool keeps what it started
    } catch (const std::bad_alloc&) {
      break;  // no memory for the thread's state or stack
    }
    ++started;
  }
  if (started < state.workers.size()) state.keep_started(started);
  return pool;
}

// ---- Pool::Impl ----

Pool::Impl::Impl(std::size_t thread_count, WaitPolicy wait_policy, const WaitTuning& wait_tuning)
    : threads(thread_count),
      requested(thread_count),
      policy(wait_policy),
      tuning(wait_tuning),
      oversubscribed(thread_count > affinity_cpu_count()),
      workers(thread_count - 1) {
  if (tuning.spin_polls != WaitTuning::kSpinPollsFromTime) {
    spin_budget = tuning.spin_polls;
  } else {
    const double polls = static_cast<double>(tuning.spin_time.count()) * 1e3 / spin_poll_ns();
    spin_budget = static_cast<std::uint32_t>(
        std::min(polls, static_cast<double>(WaitTuning::kSpinPollsFromTime - 1)));
  }
  idle.reserve(workers.size());
  // Reversed so that acquire() hands out worker 0 first.
  for (std::size_t i = workers.size(); i-- > 0;) {
    workers[i].index = i;
    idle.push_back(&workers[i]);
  }
  pressure.start(tuning, monotonic_ns());
}

Pool::Impl::~Impl() { stop_workers(); }

void Pool::Impl::stop_workers() {
  for (WorkerSlot& slot : workers) {
    if (slot.thread.joinable()) post(slot, Job{nullptr, 0, JobKind::stop});
  }
  for (WorkerSlot& slot : workers) {
    if (slot.thread.joinable()) slot.thread.join();
  }
}

bool Pool::Impl::matches(const PoolKey& key) const {
  return requested == key.threads && policy == key.policy && tuning == key.tuning &&
         name == key.name && oversubscribed == key.oversubscribed;
}

bool Pool::Impl::post(WorkerSlot& slot, const Job& job) {
  // Only in a fork: the member was posted its fork job and woken, so it is on its way; a
  // short spin (1024 PAUSEs) covers a running member, yields cover a queued one.
  for (std::uint32_t poll = 0; !has_taken_all(slot); ++poll) {
    if (poll < 1024) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
  return publish(slot, job);
}

bool Pool::Impl::try_post(WorkerSlot& slot, const Job& job) {
  // A worker that has not taken its previous job is late (not yet scheduled, or preempted
  // before it looked): waiting for it is the stall claimed sections exist to avoid.
  if (!has_taken_all(slot)) {
    counters.members_left_out.fetch_add(1, std::memory_order_relaxed);
    ++t_members_not_running;
    return false;
  }
  publish(slot, job);
  return true;
}

void Pool::Impl::post_wake(WorkerSlot& slot) {
  if (!has_taken_all(slot)) return;
  publish(slot, Job{.kind = JobKind::wake});
  counters.wakes_ahead.fetch_add(1, std::memory_order_relaxed);
}

void Pool::Impl::invite_late(WorkerSlot& slot, const Job& job) {
  slot.late.offer(job, slot.parker);
}

void Pool::Impl::keep_started(std::size_t started) {
  const std::size_t missing = workers.size() - started;
  {
    std::lock_guard lock(idle_mutex);
    std::erase_if(idle, [&](const WorkerSlot* slot) { return slot->index >= started; });
  }
  threads = started + 1;
  missing_threads = missing;
  note_shortfall(Shortfall::threads, missing);
}

void Pool::Impl::reserve(std::size_t count, std::vector<WorkerSlot*>& members) {
  members.reserve(count);
  std::lock_guard lock(idle_mutex);
  while (members.size() < count && !idle.empty()) {
    members.push_back(idle.back());
    idle.pop_back();
  }
}

void Pool::Impl::release(std::vector<WorkerSlot*>& members) {
  std::lock_guard lock(idle_mutex);
  // The team's first member ran last; it goes on top of the idle stack.
  for (auto it = members.rbegin(); it != members.rend(); ++it) idle.push_back(*it);
  members.clear();
}

// ---- Pool ----

Pool::Pool(std::unique_ptr<Impl> impl, bool reused) : impl_(std::move(impl)), reused_(reused) {
  if (reused_) base_ = raw_counters(*impl_);
}

Pool::~Pool() {
  // A pool short of workers is not kept: the next build asks the system again.
  if (impl_->reusable && impl_->missing_threads == 0) {
    hand_back_pool(std::move(impl_));
  } else {
    impl_->stop_workers();
  }
}

std::size_t Pool::threads() const { return impl_->threads; }
std::size_t Pool::requested_threads() const { return impl_->requested; }
std::size_t Pool::missing_threads() const { return impl_->missing_threads; }
WaitPolicy Pool::policy() const { return impl_->policy; }
const WaitTuning& Pool::tuning() const { return impl_->tuning; }
std::uint32_t Pool::spin_polls() const { return impl_->spin_budget; }

WaitCounters Pool::counters() const { return raw_counters(*impl_) - base_; }

WaitCounters raw_counters(const Pool::Impl& impl) {
  const CounterCells& c = impl.counters;
  WaitCounters out;
  out.join_sleeps = c.join_sleeps.load(std::memory_order_relaxed);
  out.barrier_sleeps = c.barrier_sleeps.load(std::memory_order_relaxed);
  out.member_parks = c.member_parks.load(std::memory_order_relaxed);
  out.preemptions = c.preemptions.load(std::memory_order_relaxed);
  out.throttle_activations = c.throttle_activations.load(std::memory_order_relaxed);
  out.stacked_waits = c.stacked_waits.load(std::memory_order_relaxed);
  out.sections = c.sections.load(std::memory_order_relaxed);
  out.members_left_out = c.members_left_out.load(std::memory_order_relaxed);
  out.idle_arrivals = c.idle_arrivals.load(std::memory_order_relaxed);
  out.late_joins = c.late_joins.load(std::memory_order_relaxed);
  out.cpu_moves = c.cpu_moves.load(std::memory_order_relaxed);
  out.wakes_ahead = c.wakes_ahead.load(std::memory_order_relaxed);
  out.budget_narrowed = c.budget_narrowed.load(std::memory_order_relaxed);
  out.budget_leaves = c.budget_leaves.load(std::memory_order_relaxed);
  return out;
}

bool Pool::throttled() const {
  return impl_->oversubscribed || impl_->pressure.throttled_at(monotonic_ns());
}

}  // namespace teamla::team
