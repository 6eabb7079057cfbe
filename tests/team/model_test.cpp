// SPDX-License-Identifier: Apache-2.0
// model_test.cpp: Relacy model checks of the Parker, the join Completion and the Barrier, the
// same templates the runtime uses. Each model must pass; each variant with its wake removed
// must be reported as a deadlock or livelock. Exit status 0 only when all of that holds.
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <streambuf>

#include "model_sync.hpp"
#include "sync/barrier.hpp"
#include "sync/claim_board.hpp"
#include "sync/completion.hpp"
#include "sync/late_invite.hpp"
#include "sync/parker.hpp"

namespace teamla::team::model {
namespace {

template <class Sync>
using ParkerOf = sync::Parker<Sync>;

// SilentParker: a real Parker whose wake() does nothing: the protocol's wake call removed.
struct SilentParker : sync::Parker<RlSync> {
  bool wake() { return false; }
};

inline auto no_hook = [] {};

// One waker, `Sleepers` sleepers on one Parker (the pool's shared join/barrier parker).
template <class Sync, unsigned Sleepers>
struct ParkerModel : rl::test_suite<ParkerModel<Sync, Sleepers>, Sleepers + 1> {
  sync::Parker<Sync> parker;
  typename Sync::template Atomic<std::uint32_t> flag{0};
  rl::var<int> payload;

  void thread(unsigned index) {
    if (index == 0) {
      payload($) = 42;
      flag().store(1, Sync::release);
      parker.wake();
    } else {
      parker.block_until([&] { return flag().load(Sync::acquire) == 1; }, no_hook);
      RL_ASSERT(payload($) == 42);
    }
  }
};

// A leader joins two members; the members' writes must be visible after the join.
template <class ParkerT>
struct CompletionModel : rl::test_suite<CompletionModel<ParkerT>, 3> {
  ParkerT parker;
  sync::Completion<RlSync> done{2};
  rl::var<int> results[2];

  void thread(unsigned index) {
    if (index == 0) {
      parker.block_until([&] { return done.finished(); }, no_hook);
      RL_ASSERT(results[0]($) == 1 && results[1]($) == 2);
    } else {
      results[index - 1]($) = static_cast<int>(index);
      done.arrive(parker);
    }
  }
};

// Two participants pass two consecutive barrier rounds, each reading the other's write.
template <class ParkerT>
struct BarrierModel : rl::test_suite<BarrierModel<ParkerT>, 2> {
  ParkerT parker;
  sync::Barrier<RlSync> barrier{2};
  rl::var<int> cells[2];

  void pass() {
    const std::uint32_t ticket = barrier.ticket();
    if (barrier.arrive(parker)) return;
    parker.block_until([&] { return barrier.passed(ticket); }, no_hook);
  }
  void thread(unsigned index) {
    for (int round = 1; round <= 2; ++round) {
      cells[index]($) = round;
      pass();
      RL_ASSERT(cells[1 - index]($) == round);
      pass();
    }
  }
};

// Participant 1 fails instead of arriving; participant 0, waiting in the barrier, must wake.
template <class ParkerT>
struct CancelModel : rl::test_suite<CancelModel<ParkerT>, 2> {
  ParkerT parker;
  sync::Barrier<RlSync> barrier{2};

  void thread(unsigned index) {
    if (index == 1) {
      barrier.cancel(parker);
      return;
    }
    const std::uint32_t ticket = barrier.ticket();
    if (barrier.arrive(parker)) return;
    parker.block_until([&] { return barrier.passed(ticket) || barrier.cancelled(); }, no_hook);
    RL_ASSERT(barrier.cancelled());
  }
};

// UncheckedBoard: a claim board whose claim ignores the generation (a plain counter): a member
// that arrives late for one section can then take a unit of the next.
struct UncheckedBoard : sync::ClaimBoard<RlSync> {
  bool claim(std::uint64_t /*generation*/, std::uint32_t& unit) {
    const std::uint64_t word = next_().fetch_add(1, rl::mo_acq_rel);
    unit = static_cast<std::uint32_t>(word & kUnitMask);
    return unit < units_().load(rl::mo_relaxed);
  }
};

// TwoSections: the state both claim models share. A leader runs two claimed sections on one
// board, two units and then one; hand_out(generation) gives the first to the members (the
// second is never handed out). Every unit must run exactly once, its write seen after the
// join; a unit of the first section run late races with the leader's reads of its cells.
template <class Board, class ParkerT>
struct TwoSections {
  ParkerT parker;
  Board board;
  rl::var<int> first[2];  // the first section's units
  rl::var<int> second;    // the second section's unit

  void reset() {
    first[0]($) = 0;
    first[1]($) = 0;
    second($) = 0;
  }
  void run_units(std::uint64_t generation) {
    std::uint32_t unit = 0;
    while (board.claim(generation, unit)) {
      if (generation == 1) {
        first[unit]($) = first[unit]($) + 1;
      } else {
        second($) = second($) + 1;
      }
      board.finish(parker);
    }
  }
  void join() {
    parker.block_until([&] { return board.all_finished(); }, no_hook);
  }
  template <class HandOut>
  void lead(HandOut&& hand_out) {
    const std::uint64_t g1 = board.open(2);
    hand_out(g1);
    run_units(g1);
    join();
    RL_ASSERT(first[0]($) == 1 && first[1]($) == 1);
    const std::uint64_t g2 = board.open(1);
    run_units(g2);
    join();
    RL_ASSERT(second($) == 1);
  }
};

// Two members are posted the first section: member 1 joins it (it may claim any of its units,
// or arrive too late for all); member 2 holds the job and arrives at any time, possibly during
// the second, to which it was not posted.
template <class Board, class ParkerT>
struct ClaimModel : rl::test_suite<ClaimModel<Board, ParkerT>, 3>, TwoSections<Board, ParkerT> {
  RlSync::Atomic<std::uint64_t> posted{0};

  void before() { this->reset(); }
  void thread(unsigned index) {
    if (index == 0) {
      this->lead([&](std::uint64_t g1) { posted().store(g1, rl::mo_release); });
      return;
    }
    // Both members were posted the first section (they read the generation from their job).
    const std::uint64_t g = posted().load(rl::mo_acquire);
    if (g == 0) return;  // scheduled before the post: never posted, nothing to do
    this->run_units(g);
  }
};

// The member has not taken its earlier job when the first section opens, so the leader offers
// it that section late (LateInvite) and does not wait for it. The member sleeps until an offer
// is pending, takes it and runs what is left, whenever it gets there (possibly during the
// second section). The offer must never be lost (with the wake removed the member may sleep
// for ever), and the late member must not run a unit of the second section, to which it was
// never invited (a board without the generation check lets it).
template <class Board, class ParkerT>
struct InviteModel : rl::test_suite<InviteModel<Board, ParkerT>, 2>, TwoSections<Board, ParkerT> {
  sync::LateInvite<RlSync, std::uint64_t> invite;

  void before() { this->reset(); }
  void thread(unsigned index) {
    if (index == 0) {
      this->lead([&](std::uint64_t g1) { invite.offer(g1, this->parker); });
      return;
    }
    this->parker.block_until([&] { return invite.pending(); }, no_hook);
    std::uint64_t generation = 0;
    RL_ASSERT(invite.take(generation));
    this->run_units(generation);
  }
};

int failures = 0;

struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};

// Expected: a correct model passes; a model with its wake removed deadlocks (or livelocks); a
// model with its generation check removed fails an assertion or races on a unit's data.
enum class Expected { pass, lost_wake, broken_claim };

template <class Model>
void expect(const char* name, Expected expected, rl::scheduler_type_e search) {
  rl::test_params params;
  params.search_type = search;
  // Full search is exhaustive but explodes past two threads and short programs; the larger
  // models (three threads, or two barrier rounds) run a random search of this many schedules.
  if (search == rl::sched_random) params.iteration_count = 200000;
  params.output_history = false;
  // Relacy's own reports are dropped (a growing string buffer would allocate inside Relacy's
  // heap hooks): the verdict below names the result.
  NullBuffer null_buffer;
  std::ostream sink(&null_buffer);
  params.output_stream = &sink;
  params.progress_stream = &sink;
  const bool passed = rl::simulate<Model>(params);
  const bool lost_wake = params.test_result == rl::test_result_deadlock ||
                         params.test_result == rl::test_result_livelock;
  const bool broken_claim = params.test_result == rl::test_result_user_assert_failed ||
                            params.test_result == rl::test_result_data_race;
  const bool ok = expected == Expected::pass        ? passed
                  : expected == Expected::lost_wake ? !passed && lost_wake
                                                    : !passed && broken_claim;
  const char* variant = expected == Expected::pass        ? "correct"
                        : expected == Expected::lost_wake ? "no-wake"
                                                          : "no-gen";
  std::printf("%-34s %-8s %s (%s)\n", name, variant, ok ? "as expected" : "UNEXPECTED",
              rl::test_result_str(params.test_result));
  if (!ok) ++failures;
}

}  // namespace
}  // namespace teamla::team::model

int main() {
  using namespace teamla::team::model;
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  expect<ParkerModel<RlSync, 1>>("parker, 1 sleeper", Expected::pass, rl::sched_full);
  expect<ParkerModel<RlSync, 2>>("parker, 2 sleepers", Expected::pass, rl::sched_random);
  expect<ParkerModel<MuteSync, 1>>("parker, 1 sleeper", Expected::lost_wake, rl::sched_full);
  expect<CompletionModel<teamla::team::sync::Parker<RlSync>>>("completion, 2 members",
                                                              Expected::pass, rl::sched_random);
  expect<CompletionModel<SilentParker>>("completion, 2 members", Expected::lost_wake,
                                        rl::sched_random);
  expect<BarrierModel<teamla::team::sync::Parker<RlSync>>>("barrier, 2 rounds", Expected::pass,
                                                           rl::sched_random);
  expect<BarrierModel<SilentParker>>("barrier, 2 rounds", Expected::lost_wake, rl::sched_random);
  expect<CancelModel<teamla::team::sync::Parker<RlSync>>>("barrier cancel", Expected::pass,
                                                          rl::sched_full);
  expect<CancelModel<SilentParker>>("barrier cancel", Expected::lost_wake, rl::sched_full);
  using RealParker = teamla::team::sync::Parker<RlSync>;
  using RealBoard = teamla::team::sync::ClaimBoard<RlSync>;
  expect<ClaimModel<RealBoard, RealParker>>("claim, 2 sections, late member", Expected::pass,
                                            rl::sched_random);
  expect<ClaimModel<RealBoard, SilentParker>>("claim, 2 sections, late member", Expected::lost_wake,
                                              rl::sched_random);
  expect<ClaimModel<UncheckedBoard, RealParker>>("claim, 2 sections, late member",
                                                 Expected::broken_claim, rl::sched_random);
  expect<InviteModel<RealBoard, RealParker>>("late invite, 2 sections", Expected::pass,
                                             rl::sched_random);
  expect<InviteModel<RealBoard, SilentParker>>("late invite, 2 sections", Expected::lost_wake,
                                               rl::sched_random);
  expect<InviteModel<UncheckedBoard, RealParker>>("late invite, 2 sections", Expected::broken_claim,
                                                  rl::sched_random);
  std::printf("%s\n", failures == 0 ? "all models as expected" : "MODEL CHECK FAILED");
  return failures == 0 ? 0 : 1;
}
