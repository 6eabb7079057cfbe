// SPDX-License-Identifier: Apache-2.0
// team.cpp: teams and their sections: a section's shared state, Team (run, run_claimed, fork,
// release), Section's waits, Pool::acquire() and the workers' side of every job (serve_jobs).
// Team::section_cost_ns() is in section_cost.cpp.
//
// Threads and ownership:
//  - Team::Members is the reservation of a team; only its leader thread touches it.
//  - SectionShared lives on the leader's stack for one section; members reach it through
//    their job and stop touching it when they arrive at its Completion (a static section) or
//    finish their last unit (a claimed one).
#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "budget.hpp"
#include "platform/affinity.hpp"
#include "platform/thread.hpp"
#include "pool_impl.hpp"
#include "sync/barrier.hpp"
#include "sync/completion.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "wait/staged_wait.hpp"

namespace teamla::team {

struct Team::Members {
  Pool::Impl* pool = nullptr;
  // Reserved workers in wake order: a section of width w uses the first w-1, so the members
  // that ran last are always the ones used next (hot caches), and the tail stays parked.
  std::vector<WorkerSlot*> workers;
  bool borrowed = false;  // a fork's child team: its workers go back to the parent, not the pool
};

struct SectionShared {
  using Fn = void (*)(void*, Section&);
  SectionShared(Fn body, void* context, std::size_t section_width, Pool::Impl& owner)
      : fn(body),
        ctx(context),
        width(section_width),
        pool(&owner),
        done(static_cast<std::uint32_t>(section_width - 1)),
        barrier(static_cast<std::uint32_t>(section_width)) {}

  // fail() records the first exception and cancels the section (waking barrier sleepers).
  void fail(std::exception_ptr exception);

  // A claimed section's body and board (unit_fn == nullptr: a static section).
  using UnitFn = void (*)(void*, Section&, std::size_t);
  UnitFn unit_fn = nullptr;
  ClaimBoard* board = nullptr;
  std::uint64_t generation = 0;

  Fn fn;
  void* ctx;
  std::size_t width;
  Pool::Impl* pool;
  sync::Completion<sync::StdSync> done;
  sync::Barrier<sync::StdSync> barrier;
  // The leader's CPU (current_cpu()) at the start and at each of its waits, read by members.
  std::atomic<int> leader_cpu{-1};
  // The members' slots (ranks 1 .. width-1), whose `cpu` the leader's waits read.
  WorkerSlot* const* member_slots = nullptr;
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written once by the thread that set `failed`
  // A claimed section whose members the process budget granted (cpu_budget.hpp), and the
  // members that gave their slot back and left it (written before their unit's finish).
  bool budgeted = false;
  std::atomic<std::uint32_t> members_left{0};
};

void SectionShared::fail(std::exception_ptr exception) {
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
// (WorkerSlot::cpu). That participant cannot run while the caller spins (docs/team.md,
// "Stacked waits").
bool shares_cpu_with_partner(SectionShared& shared, std::size_t rank) {
  const int cpu = platform::current_cpu();
  if (rank != 0) return cpu == shared.leader_cpu.load(std::memory_order_relaxed);
  shared.leader_cpu.store(cpu, std::memory_order_relaxed);
  for (std::size_t member = 0; member + 1 < shared.width; ++member) {
    if (shared.member_slots[member]->cpu.load(std::memory_order_relaxed) == cpu) return true;
  }
  return false;
}

// check_width(): a section's width must be in [1, the team's width].
void check_width(std::size_t width, std::size_t team_width) {
  if (width == 0 || width > team_width) {
    throw std::invalid_argument("teamla: section width " + std::to_string(width) + " outside [1, " +
                                std::to_string(team_width) + "] of this team");
  }
}

}  // namespace

std::uint64_t leader_wait_ns() { return t_leader_wait_ns; }

void Section::barrier() {
  if (shared_ == nullptr) return;  // width 1
  SectionShared& shared = *shared_;
  if (shared.unit_fn != nullptr) {
    throw std::logic_error(
        "teamla: barrier() in a claimed section (a participant may never arrive); use wait_for");
  }
  if (shared.barrier.cancelled()) throw SectionCancelled();
  const std::uint32_t ticket = shared.barrier.ticket();
  if (shared.barrier.arrive(shared.pool->sync)) return;
  const auto passed = [&] { return shared.barrier.passed(ticket) || shared.barrier.cancelled(); };
  const LeaderWait timed(rank_, passed);
  if (!brief_spin(shared.pool->waits(), passed)) {
    wait_until(shared.pool->waits(), WaitSite::barrier, shared.pool->sync, passed,
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
  SectionShared& shared = *shared_;
  const auto done = [&] { return ready(ctx) || shared.failed.load(std::memory_order_acquire); };
  const LeaderWait timed(rank_, done);
  if (shared.unit_fn == nullptr && shared.pool->policy == WaitPolicy::legacy) {
    // run_claimed under the legacy policy (run_dealt): 0.1.3's barrier wait, which never
    // sleeps.
    wait_until(shared.pool->waits(), WaitSite::barrier, shared.pool->sync, done);
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
  } else if (!brief_spin(shared.pool->waits(), done)) {
    wait_until(shared.pool->waits(), WaitSite::barrier, shared.pool->sync, done,
               shares_cpu_with_partner(shared, rank_) ? WaitHint::stacked : WaitHint::none);
  }
  if (!ready(ctx)) throw SectionCancelled();
}

namespace {

// run_units(): claim and run units of the claimed section `generation` on `board` until none
// is left; the section's state is read only after a claim. Returns the units it ran. A
// member (rank > 0) on `leader_cpu` moves off it before its first unit.
std::size_t run_units(Pool::Impl& pool, ClaimBoard& board, std::uint64_t generation,
                      SectionShared* shared, std::size_t rank, int leader_cpu) {
  std::size_t ran = 0;
  std::uint32_t unit = 0;
  while (board.claim(generation, unit)) {
    // The claim keeps the section open (its join waits for this unit): `shared` is live.
    Section section(shared, rank, shared->width);
    if (ran == 0 && rank != 0 && leader_cpu >= 0 && platform::current_cpu() == leader_cpu &&
        platform::step_off_cpu(leader_cpu)) {
      // A member woken onto its leader's CPU (the scheduler often places a wakee beside its
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

// join_late(): runs what is left of the claimed section the worker was invited to late (it
// may be long over: run_units claims before it touches anything). Returns the section's
// Linger::park, which holds for the wait after it as after a section joined in time.
bool join_late(Pool::Impl& pool, WorkerSlot& slot) {
  Job job;
  if (!slot.late.take(job)) return false;
  if (run_units(pool, *job.board, job.generation, job.shared, job.rank, job.leader_cpu) > 0) {
    pool.counters.late_joins.fetch_add(1, std::memory_order_relaxed);
  }
  return job.park_after;
}

}  // namespace

bool serve_jobs(Pool::Impl& pool, WorkerSlot& slot, bool fresh) {
  // The next wait spins at most after_wake_polls. A fresh worker has no job coming until a
  // team posts one (a wake away): a full spin would only compete with its leader for the CPU
  // if it was placed beside it (docs/team.md, "Members on their leader's CPU move").
  bool short_spin = fresh;
  int leader_cpu = -1;  // where the leader of the last section ran (spin_phase's avoid_cpu)
  for (;;) {
    const std::uint64_t seen = slot.taken.load(std::memory_order_relaxed);
    slot.cpu.store(platform::current_cpu(), std::memory_order_relaxed);
    wait_until(
        pool.waits(), WaitSite::member, slot.parker,
        [&] { return slot.posted.load(std::memory_order_acquire) != seen || slot.late.pending(); },
        short_spin ? WaitHint::after_wake : WaitHint::none, leader_cpu);
    if (slot.posted.load(std::memory_order_acquire) == seen) {
      // The leader of a short section often posts the next while this worker still wakes
      // for the last: that one comes as a late invitation, and its Linger::park with it.
      short_spin = join_late(pool, slot);
      continue;
    }
    const Job job = slot.job;
    slot.taken.store(seen + 1, std::memory_order_release);  // the slot may take the next job
    switch (job.kind) {
      case JobKind::stop:
        return false;
      case JobKind::end_nested:
        return true;
      case JobKind::wake:
        short_spin = false;
        break;
      case JobKind::claim:
        leader_cpu = job.leader_cpu;
        if (run_units(pool, *job.board, job.generation, job.shared, job.rank, leader_cpu) == 0) {
          pool.counters.idle_arrivals.fetch_add(1, std::memory_order_relaxed);
        }
        short_spin = job.park_after;
        break;
      case JobKind::run: {
        SectionShared& shared = *job.shared;
        Section section(&shared, job.rank, shared.width);
        slot.cpu.store(platform::current_cpu(), std::memory_order_relaxed);
        try {
          shared.fn(shared.ctx, section);
        } catch (...) {
          shared.fail(std::current_exception());
        }
        // A member that woke its sleeping leader and shares its CPU (the scheduler often
        // places a wakee beside its waker) would hold the leader off that CPU for its whole
        // spin: it spins briefly. In back-to-back sections the leader never sleeps, so a
        // member keeps its full spin there even when it runs beside the leader.
        leader_cpu = shared.leader_cpu.load(std::memory_order_relaxed);
        const bool beside_leader = platform::current_cpu() == leader_cpu;
        const bool woke_leader = shared.done.arrive(pool.sync);  // the last touch of `shared`
        short_spin = woke_leader && beside_leader;
        break;
      }
    }
  }
}

// Pool::acquire() lives here, beside the Team it builds.
Team Pool::acquire(std::size_t width) {
  if (width == 0 || width > impl_->requested) {
    throw std::invalid_argument("teamla: acquire(" + std::to_string(width) +
                                ") needs a width in [1, " + std::to_string(impl_->requested) + "]");
  }
  auto members = std::make_unique<Team::Members>();
  members->pool = impl_.get();
  if (width > 1) impl_->reserve(width - 1, members->workers);
  const std::size_t team_width = members->workers.size() + 1;
  return Team(this, members.release(), team_width);
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
  check_width(width, width_);
  if (width == 1) {
    Section solo(nullptr, 0, 1);
    fn(ctx, solo);
    return;
  }
  Pool::Impl& pool = *members_->pool;
  SectionShared shared(fn, ctx, width, pool);
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
  if (!brief_spin(pool.waits(), finished)) {
    WaitHint hint = WaitHint::none;
    if (shares_cpu_with_partner(shared, 0)) {
      hint = WaitHint::stacked;
    } else if (woke_member && !woken_members_started(pool, *members_, width)) {
      hint = WaitHint::after_wake;
    }
    wait_until(pool.waits(), WaitSite::join, pool.sync, finished, hint);
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

namespace {

using UnitFn = void (*)(void*, Section&, std::size_t);

// run_inline(): a claimed section's units in unit order on the calling thread.
void run_inline(UnitFn fn, void* ctx, std::size_t units) {
  Section solo(nullptr, 0, 1);
  for (std::size_t unit = 0; unit < units; ++unit) fn(ctx, solo, unit);
}

// run_dealt(): run_claimed under the legacy policy, as threadteam 0.1.3 ran it (faer#107's
// slow mode): a static split, units dealt out by rank, joined by every participant.
void run_dealt(Team& team, std::size_t width, std::size_t units, UnitFn fn, void* ctx) {
  team.run(width, [&](Section& s) {
    for (std::size_t unit = s.rank(); unit < units; unit += s.width()) fn(ctx, s, unit);
  });
}

// grant_members(): how many of `wanted` members a claimed section gets. Within a call
// (`budgeted`), only those the process budget has free CPUs for now (cpu_budget.hpp); they
// count in pool.members_granted until the join returns them.
std::size_t grant_members(Pool::Impl& pool, bool budgeted, std::size_t wanted) {
  const std::size_t granted = budgeted ? budget::grant_members(wanted) : wanted;
  if (granted < wanted) pool.counters.budget_narrowed.fetch_add(1, std::memory_order_relaxed);
  if (budgeted && granted != 0) pool.members_granted.fetch_add(granted, std::memory_order_relaxed);
  return granted;
}

// post_claims(): posts the claim job of `shared` to its members in wake order (the one that
// ran last first). One that has not yet taken its job of an earlier section (woken but not yet
// running) is not waited for: it is invited to join this section late, and takes what units
// are left when it gets there (WorkerSlot).
void post_claims(Pool::Impl& pool, SectionShared& shared, Team::Linger linger) {
  const int leader_cpu = shared.leader_cpu.load(std::memory_order_relaxed);
  for (std::size_t rank = 1; rank < shared.width; ++rank) {
    WorkerSlot& slot = *shared.member_slots[rank - 1];
    const Job job{.shared = &shared,
                  .rank = static_cast<std::uint32_t>(rank),
                  .kind = JobKind::claim,
                  .board = shared.board,
                  .generation = shared.generation,
                  .leader_cpu = leader_cpu,
                  .park_after = linger == Team::Linger::park};
    if (!pool.try_post(slot, job)) pool.invite_late(slot, job);
  }
}

// join_units(): the leader's join of a claimed section: it waits for every unit to finish,
// never for a member.
void join_units(Pool::Impl& pool, SectionShared& shared) {
  const ClaimBoard& board = *shared.board;
  const auto finished = [&] { return board.all_finished(); };
  const LeaderWait timed(0, finished);
  if (!brief_spin(pool.waits(), finished)) {
    wait_until(pool.waits(), WaitSite::join, pool.sync, finished,
               shares_cpu_with_partner(shared, 0) ? WaitHint::stacked : WaitHint::none);
  }
}

}  // namespace

void Team::run_claimed_erased(std::size_t width, std::size_t units, UnitFn fn, void* ctx,
                              Linger linger) {
  check_width(width, width_);
  if (units > ClaimBoard::kMaxUnits) {
    throw std::invalid_argument("teamla: " + std::to_string(units) +
                                " units in one claimed section, more than " +
                                std::to_string(ClaimBoard::kMaxUnits));
  }
  if (width == 1 || units <= 1) {
    run_inline(fn, ctx, units);
    return;
  }
  Pool::Impl& pool = *members_->pool;
  if (pool.policy == WaitPolicy::legacy) {
    run_dealt(*this, width, units, fn, ctx);
    return;
  }
  const bool budgeted = budget::in_call();
  const std::size_t granted = grant_members(pool, budgeted, width - 1);
  if (granted == 0) {
    run_inline(fn, ctx, units);
    return;
  }
  width = granted + 1;
  ClaimBoard& board = members_->workers.front()->board;
  SectionShared shared(nullptr, ctx, width, pool);
  shared.budgeted = budgeted;
  shared.unit_fn = fn;
  shared.board = &board;
  shared.leader_cpu.store(platform::current_cpu(), std::memory_order_relaxed);
  shared.member_slots = members_->workers.data();
  shared.generation = board.open(static_cast<std::uint32_t>(units));
  post_claims(pool, shared, linger);
  run_units(pool, board, shared.generation, &shared, 0, -1);
  join_units(pool, shared);
  if (budgeted) {
    const std::size_t kept = granted - shared.members_left.load(std::memory_order_relaxed);
    pool.members_granted.fetch_sub(kept, std::memory_order_relaxed);
    budget::return_members(kept);
  }
  pool.counters.sections.fetch_add(1, std::memory_order_relaxed);
  if (shared.failed.load(std::memory_order_acquire)) std::rethrow_exception(shared.error);
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
