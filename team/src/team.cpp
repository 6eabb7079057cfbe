// SPDX-License-Identifier: Apache-2.0
// team.cpp: Team (run, fork, release), Section::barrier and section failure.
#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "budget.hpp"
#include "platform/affinity.hpp"
#include "platform/thread.hpp"
#include "pool_impl.hpp"
#include "teamla/team/machine.hpp"
#include "wait/staged_wait.hpp"

namespace teamla::team {

void Section::Shared::fail(std::exception_ptr exception) {
  if (!failed.exchange(true, std::memory_order_acq_rel)) error = std::move(exception);
  barrier.cancel(pool->sync);
}

namespace {

thread_local std::uint64_t t_leader_wait_ns = 0;

// LeaderWait times one wait of a section's leader that was not already over when reached (two
// clock reads; none where the condition already holds).
class LeaderWait {
 public:
  template <class Done>
  LeaderWait(std::size_t rank, const Done& done)
      : start_ns_(rank == 0 && !done() ? monotonic_ns() : 0) {}
  ~LeaderWait() {
    if (start_ns_ != 0) t_leader_wait_ns += monotonic_ns() - start_ns_;
  }
  LeaderWait(const LeaderWait&) = delete;
  LeaderWait& operator=(const LeaderWait&) = delete;

 private:
  std::uint64_t start_ns_;
};

// shares_cpu_with_partner(): whether the caller runs on the CPU of a participant it may be
// waiting for: a member on the leader's CPU, or the leader on the CPU a member last reported
// (WorkerSlot::cpu). That participant cannot run while the caller spins. Measured: in a 2-thread
// dpotrf at n = 1024, the member, woken onto the leader's CPU, preempted the leader and then spun
// at the step's barrier for it; the step took 12-17 ms instead of 2.5 ms (docs/team.md, "Stacked
// waits").
bool shares_cpu_with_partner(Section::Shared& shared, std::size_t rank) {
  const int cpu = platform::current_cpu();
  if (rank != 0) return cpu == shared.leader_cpu.load(std::memory_order_relaxed);
  shared.leader_cpu.store(cpu, std::memory_order_relaxed);
  for (std::size_t member = 0; member + 1 < shared.width; ++member) {
    if (shared.member_slots[member]->cpu.load(std::memory_order_relaxed) == cpu) return true;
  }
  return false;
}

}  // namespace

std::uint64_t leader_wait_ns() { return t_leader_wait_ns; }

void Section::barrier() {
  if (shared_ == nullptr) return;  // width 1
  Shared& shared = *shared_;
  if (shared.unit_fn != nullptr) {
    throw std::logic_error(
        "teamla: barrier() in a claimed section (a participant may never arrive); use wait_for");
  }
  if (shared.barrier.cancelled()) throw SectionCancelled();
  const std::uint32_t ticket = shared.barrier.ticket();
  if (shared.barrier.arrive(shared.pool->sync)) return;
  const auto passed = [&] { return shared.barrier.passed(ticket) || shared.barrier.cancelled(); };
  const LeaderWait timed(rank_, passed);
  if (!brief_spin(*shared.pool, passed)) {
    wait_until(*shared.pool, WaitSite::barrier, shared.pool->sync, passed,
               shares_cpu_with_partner(shared, rank_) ? WaitHint::stacked : WaitHint::none);
  }
  if (!shared.barrier.passed(ticket)) throw SectionCancelled();
}

void Section::wait_erased(bool (*ready)(const void*), const void* ctx) {
  if (shared_ == nullptr) {
    if (ready(ctx)) return;
    throw std::logic_error(
        "teamla: wait_for() in an inline section on a condition no earlier unit made true");
  }
  Shared& shared = *shared_;
  const auto done = [&] { return ready(ctx) || shared.failed.load(std::memory_order_acquire); };
  const LeaderWait timed(rank_, done);
  if (shared.unit_fn == nullptr && shared.pool->policy == WaitPolicy::legacy) {
    // The legacy arm of run_claimed: 0.1.3's barrier wait, which never sleeps.
    wait_until(*shared.pool, WaitSite::barrier, shared.pool->sync, done);
  } else if (shared.unit_fn == nullptr) {
    // A static section: nothing wakes a sleeper when another participant makes ready() true,
    // so this wait never sleeps; it yields once a short spin has not ended it.
    for (std::uint32_t poll = 0; !done(); ++poll) {
      if (poll < detail::kLegacyOversubscribedPauses) {
        cpu_relax();
      } else {
        platform::yield_now();
      }
    }
  } else if (!brief_spin(*shared.pool, done)) {
    wait_until(*shared.pool, WaitSite::barrier, shared.pool->sync, done,
               shares_cpu_with_partner(shared, rank_) ? WaitHint::stacked : WaitHint::none);
  }
  if (!ready(ctx)) throw SectionCancelled();
}

std::size_t run_units(Pool::Impl& pool, ClaimBoard& board, std::uint64_t generation,
                      Section::Shared* shared, std::size_t rank, int leader_cpu) {
  std::size_t ran = 0;
  std::uint32_t unit = 0;
  while (board.claim(generation, unit)) {
    // The claim keeps the section open (its join waits for this unit): `shared` is live.
    Section section(shared, rank, shared->width);
    if (ran == 0 && rank != 0 && leader_cpu >= 0 && platform::current_cpu() == leader_cpu &&
        platform::step_off_cpu(leader_cpu)) {
      // A member woken onto its leader's CPU (this VM's kernel places a wakee beside its
      // waker) would only take turns with the leader: it moves to another CPU first.
      pool.counters.cpu_moves.fetch_add(1, std::memory_order_relaxed);
    }
    if (!shared->failed.load(std::memory_order_acquire)) {
      try {
        shared->unit_fn(shared->ctx, section, unit);
      } catch (...) {
        shared->fail(std::current_exception());
      }
    }
    ++ran;
    // A member leaves a section that the budget over-commits (a caller arrived after the
    // grant): its slot goes back before its finish, so the leader's join sees it returned.
    const bool leave = rank != 0 && shared->budgeted && budget::leave_if_over_committed();
    if (leave) {
      shared->members_left.fetch_add(1, std::memory_order_relaxed);
      pool.members_granted.fetch_sub(1, std::memory_order_relaxed);
    }
    board.finish(pool.sync);  // the last touch of `shared` for this unit
    if (leave) {
      pool.counters.budget_leaves.fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  return ran;
}

Team::Team(Team&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      members_(std::exchange(other.members_, nullptr)),
      width_(std::exchange(other.width_, 0)) {}

Team& Team::operator=(Team&& other) noexcept {
  if (this != &other) {
    Team old(std::move(*this));
    pool_ = std::exchange(other.pool_, nullptr);
    members_ = std::exchange(other.members_, nullptr);
    width_ = std::exchange(other.width_, 0);
  }
  return *this;
}

Team::~Team() {
  if (members_ == nullptr || members_->borrowed) return;
  members_->pool->release(members_->workers);
  delete members_;
}

namespace {

// woken_members_started() is called by a leader that had to wake a parked member: it polls
// briefly until every member of the section has taken its job. A member that has not by then
// may be queued behind the leader on the leader's own CPU, so the join must not spin long.
bool woken_members_started(const Pool::Impl& pool, const Team::Members& members,
                           std::size_t width) {
  const auto all_taken = [&] {
    for (std::size_t rank = 1; rank < width; ++rank) {
      const WorkerSlot& slot = *members.workers[rank - 1];
      if (slot.taken.load(std::memory_order_acquire) !=
          slot.posted.load(std::memory_order_relaxed)) {
        return false;
      }
    }
    return true;
  };
  for (std::uint32_t poll = 0; poll < pool.tuning.after_wake_polls; ++poll) {
    if (all_taken()) return true;
    cpu_relax();
  }
  return all_taken();
}

}  // namespace

void Team::run_erased(std::size_t width, SectionFn fn, void* ctx) {
  if (width == 0 || width > width_) {
    throw std::invalid_argument("teamla: section width " + std::to_string(width) + " outside [1, " +
                                std::to_string(width_) + "] of this team");
  }
  if (width == 1) {
    Section solo(nullptr, 0, 1);
    fn(ctx, solo);
    return;
  }
  Pool::Impl& pool = *members_->pool;
  Section::Shared shared(fn, ctx, width, pool);
  shared.leader_cpu.store(platform::current_cpu(), std::memory_order_relaxed);
  shared.member_slots = members_->workers.data();
  // Highest rank first: in a fork, a child leader posts to the ranks above it, and by the time
  // it sees its own job those ranks already hold theirs, so its posts queue behind them.
  bool woke_member = false;
  for (std::size_t rank = width - 1; rank >= 1; --rank) {
    woke_member |= pool.post(*members_->workers[rank - 1],
                             Job{&shared, static_cast<std::uint32_t>(rank), JobKind::run});
  }
  Section leader(&shared, 0, width);
  try {
    fn(ctx, leader);
  } catch (...) {
    shared.fail(std::current_exception());
  }
  const auto finished = [&] { return shared.done.finished(); };
  const LeaderWait timed(0, finished);
  if (!brief_spin(pool, finished)) {
    WaitHint hint = WaitHint::none;
    if (shares_cpu_with_partner(shared, 0)) {
      hint = WaitHint::stacked;
    } else if (woke_member && !woken_members_started(pool, *members_, width)) {
      hint = WaitHint::after_wake;
    }
    wait_until(pool, WaitSite::join, pool.sync, finished, hint);
  }
  pool.counters.sections.fetch_add(1, std::memory_order_relaxed);
  if (shared.failed.load(std::memory_order_acquire)) std::rethrow_exception(shared.error);
}

void Team::wake_members(std::size_t width) {
  if (members_ == nullptr || width <= 1) return;
  Pool::Impl& pool = *members_->pool;
  if (pool.policy == WaitPolicy::legacy) return;
  const std::size_t ranks = std::min(width, width_);
  for (std::size_t rank = 1; rank < ranks; ++rank) pool.post_wake(*members_->workers[rank - 1]);
}

void Team::run_claimed_erased(std::size_t width, std::size_t units, UnitFn fn, void* ctx,
                              Linger linger) {
  if (width == 0 || width > width_) {
    throw std::invalid_argument("teamla: section width " + std::to_string(width) + " outside [1, " +
                                std::to_string(width_) + "] of this team");
  }
  if (units > ClaimBoard::kMaxUnits) {
    throw std::invalid_argument("teamla: " + std::to_string(units) +
                                " units in one claimed section, more than " +
                                std::to_string(ClaimBoard::kMaxUnits));
  }
  if (width == 1 || units <= 1) {
    Section solo(nullptr, 0, 1);
    for (std::size_t unit = 0; unit < units; ++unit) fn(ctx, solo, unit);
    return;
  }
  Pool::Impl& pool = *members_->pool;
  if (pool.policy == WaitPolicy::legacy) {
    // threadteam 0.1.3: a static split, joined by every participant (the faer#107 arm).
    struct Static {
      UnitFn fn;
      void* ctx;
      std::size_t units;
    } plan{fn, ctx, units};
    run(width, [&plan](Section& s) {
      for (std::size_t unit = s.rank(); unit < plan.units; unit += s.width()) {
        plan.fn(plan.ctx, s, unit);
      }
    });
    return;
  }
  // Within a call, members only from the CPUs the process budget has free now
  // (cpu_budget.hpp).
  const bool budgeted = budget::in_call();
  const std::size_t granted = budgeted ? budget::grant_members(width - 1) : width - 1;
  if (granted + 1 < width) pool.counters.budget_narrowed.fetch_add(1, std::memory_order_relaxed);
  if (budgeted && granted != 0) pool.members_granted.fetch_add(granted, std::memory_order_relaxed);
  if (granted == 0) {
    Section solo(nullptr, 0, 1);
    for (std::size_t unit = 0; unit < units; ++unit) fn(ctx, solo, unit);
    return;
  }
  width = granted + 1;
  ClaimBoard& board = members_->workers.front()->board;
  Section::Shared shared(nullptr, ctx, width, pool);
  shared.budgeted = budgeted;
  shared.unit_fn = fn;
  shared.board = &board;
  shared.leader_cpu.store(platform::current_cpu(), std::memory_order_relaxed);
  shared.member_slots = members_->workers.data();
  shared.generation = board.open(static_cast<std::uint32_t>(units));
  // Members in wake order (the one that ran last first). One that has not yet taken its job of
  // an earlier section (woken but not yet running) is not waited for: it is invited to join
  // this section late, and takes what units are left when it gets there (WorkerSlot).
  const int leader_cpu = shared.leader_cpu.load(std::memory_order_relaxed);
  for (std::size_t rank = 1; rank < width; ++rank) {
    WorkerSlot& slot = *members_->workers[rank - 1];
    const Job job{.shared = &shared,
                  .rank = static_cast<std::uint32_t>(rank),
                  .kind = JobKind::claim,
                  .board = &board,
                  .generation = shared.generation,
                  .leader_cpu = leader_cpu,
                  .park_after = linger == Linger::park};
    if (!pool.try_post(slot, job)) pool.invite_late(slot, job);
  }
  run_units(pool, board, shared.generation, &shared, 0, -1);
  const auto finished = [&] { return board.all_finished(); };
  const LeaderWait timed(0, finished);
  if (!brief_spin(pool, finished)) {
    wait_until(pool, WaitSite::join, pool.sync, finished,
               shares_cpu_with_partner(shared, 0) ? WaitHint::stacked : WaitHint::none);
  }
  if (budgeted) {
    const std::size_t kept = granted - shared.members_left.load(std::memory_order_relaxed);
    pool.members_granted.fetch_sub(kept, std::memory_order_relaxed);
    budget::return_members(kept);
  }
  pool.counters.sections.fetch_add(1, std::memory_order_relaxed);
  if (shared.failed.load(std::memory_order_acquire)) std::rethrow_exception(shared.error);
}

namespace {
// The last measurement in the process: a pool built per call without reuse (the legacy arm)
// takes it instead of measuring again in every call.
std::atomic<double> g_section_cost_ns{0.0};
std::atomic<std::size_t> g_section_cost_width{0};
// After a failed measurement (below), no pool of the process measures again before
// g_section_cost_retry_ns: pools built per call would otherwise each spend a failed
// measurement's ~1 ms. g_section_cost_failures counts the failures in a row.
std::atomic<std::uint64_t> g_section_cost_retry_ns{0};
std::atomic<std::uint32_t> g_section_cost_failures{0};
// kRendezvousNs: a measuring section's unit waits at most this long for every unit to be
// claimed; a failed measurement reports it as the (provisional) cost.
constexpr std::uint64_t kRendezvousNs = 200'000;
}  // namespace

bool Team::section_cost_measured(std::size_t width) const {
  width = std::min(width, width_);
  if (width <= 1) return true;
  const Pool::Impl& pool = *members_->pool;
  return pool.section_cost_width.load(std::memory_order_acquire) == width &&
         pool.section_cost_expires_ns.load(std::memory_order_relaxed) == 0;
}

double Team::section_cost_ns(std::size_t width) {
  width = std::min(width, width_);
  if (width <= 1) return 0.0;
  Pool::Impl& pool = *members_->pool;
  if (pool.section_cost_width.load(std::memory_order_acquire) == width) {
    const std::uint64_t expires = pool.section_cost_expires_ns.load(std::memory_order_relaxed);
    if (expires == 0 || monotonic_ns() < expires) {
      return pool.section_cost_ns.load(std::memory_order_relaxed);
    }
  } else if (g_section_cost_width.load(std::memory_order_acquire) == width) {
    return g_section_cost_ns.load(std::memory_order_relaxed);
  } else if (monotonic_ns() < g_section_cost_retry_ns.load(std::memory_order_relaxed)) {
    return static_cast<double>(kRendezvousNs);  // provisional: failed moments ago
  }
  // A section of `width` units, each of which spins (at most kRendezvousNs) until every unit
  // has been claimed: every participant takes part, so the time is the dispatch, the
  // rendezvous and the join. (An empty claimed section measures nothing: its leader claims
  // every unit before a member arrives.) kTimed sections after kWarm untimed ones (the first
  // wakes parked members), stopping at kBudgetNs. The fastest complete one is the cost of the
  // mechanism itself: foreign load only inflates the others, and it is the width model's
  // observed penalty that answers load (linalg/width.hpp), not a measurement kept for good.
  constexpr int kWarm = 3;
  constexpr std::size_t kTimed = 15;
  constexpr std::uint64_t kBudgetNs = 1'000'000;
  // When no section completed (a member never came within kRendezvousNs: held elsewhere,
  // stacked behind this thread, not started), the cost is taken as kRendezvousNs and measured
  // again after kFirstRetryNs, doubling with each failure in a row up to ~1.3 s. A member
  // stacked behind a legacy leader (which spins in its join until preempted) spends one
  // measurement's whole budget in one section; the load balancer moves it within a few ms, and
  // a fixed 1-s retry kept 1 in 4-6 fresh legacy processes inline for their whole 2000-call run.
  constexpr std::uint64_t kFirstRetryNs = 10'000'000;
  constexpr std::uint32_t kMaxRetryDoublings = 7;
  // In the untimed ones the waiter yields after a short spin, so that a member woken onto
  // this very CPU gets to run (and moves off it, docs/team.md): the timed ones only spin.
  const auto section = [&](bool& complete, bool yield) {
    std::atomic<std::size_t> claimed{0};
    const std::uint64_t t0 = monotonic_ns();
    run_claimed(width, width, [&](Section&, std::size_t) {
      claimed.fetch_add(1, std::memory_order_acq_rel);
      for (std::uint32_t poll = 0;
           claimed.load(std::memory_order_acquire) < width && monotonic_ns() - t0 < kRendezvousNs;
           ++poll) {
        if (yield && poll >= pool.tuning.after_wake_polls) {
          platform::yield_now();
        } else {
          cpu_relax();
        }
      }
    });
    complete =
        claimed.load(std::memory_order_acquire) == width && monotonic_ns() - t0 < kRendezvousNs;
    return static_cast<double>(monotonic_ns() - t0);
  };
  bool complete = false;
  for (int i = 0; i < kWarm; ++i) section(complete, true);
  double cost = 0;
  const std::uint64_t start = monotonic_ns();
  for (std::size_t timed = 0; timed < kTimed && monotonic_ns() - start < kBudgetNs; ++timed) {
    // After a section that did not complete, the next one yields too: a member stacked on this
    // CPU would otherwise never run within the budget (the legacy arm's static split has no
    // claim to hand its unit to the leader, and its member never steps off the CPU).
    const double sample = section(complete, !complete);
    if (complete && (cost == 0 || sample < cost)) cost = sample;
  }
  const bool measured = cost > 0;
  if (!measured) cost = static_cast<double>(kRendezvousNs);
  pool.section_cost_ns.store(cost, std::memory_order_relaxed);
  const std::uint32_t failures =
      measured ? 0 : g_section_cost_failures.fetch_add(1, std::memory_order_relaxed);
  if (measured) g_section_cost_failures.store(0, std::memory_order_relaxed);
  const std::uint64_t retry_ns =
      measured ? 0 : monotonic_ns() + (kFirstRetryNs << std::min(failures, kMaxRetryDoublings));
  pool.section_cost_expires_ns.store(retry_ns, std::memory_order_relaxed);
  g_section_cost_retry_ns.store(retry_ns, std::memory_order_relaxed);
  pool.section_cost_width.store(width, std::memory_order_release);
  if (measured) {
    g_section_cost_ns.store(cost, std::memory_order_relaxed);
    g_section_cost_width.store(width, std::memory_order_release);
  }
  return cost;
}

namespace {

// ForkPlan: what every participant of a fork's section needs to find its place.
struct ForkPlan {
  std::span<const std::size_t> widths;
  void (*fn)(void*, std::size_t, Team&);
  void* ctx;
  Team::Members* parent;
  Pool* pool;
};

// EndNested: tells a child team's members, on scope exit, to leave their nested loops.
struct EndNested {
  Pool::Impl& pool;
  const std::vector<WorkerSlot*>& members;
  ~EndNested() {
    for (WorkerSlot* slot : members) pool.post(*slot, Job{nullptr, 0, JobKind::end_nested});
  }
};

void run_fork_participant(const ForkPlan& plan, const Section& section) {
  std::size_t start = 0;
  std::size_t child = 0;
  while (section.rank() >= start + plan.widths[child]) start += plan.widths[child++];
  const std::size_t child_width = plan.widths[child];
  Pool::Impl& pool = *plan.parent->pool;
  if (section.rank() != start) {
    // A member of child `child`: serve its leader's sections until it ends the child team.
    WorkerSlot* self = current_worker();
    serve_jobs(pool, *self);
    return;
  }
  Team::Members members;
  members.pool = &pool;
  members.borrowed = true;
  // Rank r of the fork's section runs on the parent's worker r - 1.
  members.workers.assign(
      plan.parent->workers.begin() + static_cast<std::ptrdiff_t>(start),
      plan.parent->workers.begin() + static_cast<std::ptrdiff_t>(start + child_width - 1));
  EndNested end{pool, members.workers};
  Team team(plan.pool, &members, child_width);
  plan.fn(plan.ctx, child, team);
}

}  // namespace

void Team::fork_erased(std::span<const std::size_t> widths, ForkFn fn, void* ctx) {
  if (widths.empty()) throw std::invalid_argument("teamla: fork needs at least one child width");
  if (std::find(widths.begin(), widths.end(), std::size_t{0}) != widths.end()) {
    throw std::invalid_argument("teamla: fork child widths must be at least 1");
  }
  const std::size_t total = std::accumulate(widths.begin(), widths.end(), std::size_t{0});
  if (total > width_) {
    throw std::invalid_argument("teamla: fork widths sum to " + std::to_string(total) +
                                ", more than the team's width " + std::to_string(width_));
  }
  if (total == 1) {
    Members members;
    members.pool = members_ != nullptr ? members_->pool : nullptr;
    members.borrowed = true;
    Team solo(pool_, &members, 1);
    fn(ctx, 0, solo);
    return;
  }
  const ForkPlan plan{widths, fn, ctx, members_, pool_};
  run(total, [&plan](Section& section) { run_fork_participant(plan, section); });
}

}  // namespace teamla::team
