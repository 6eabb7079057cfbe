// SPDX-License-Identifier: Apache-2.0
// late_invite.hpp: the invitation a leader leaves a member it could not post a claimed
// section to, because the member had not yet taken its job of an earlier one (woken, but not
// yet running: placed behind its leader on one CPU, say).
//
// Without it such a member, once it runs, finds its old section over and goes back to sleep:
// it sits out the section that is running, however long (a fresh process's first 4096^3
// dgemm on 2 CPUs ran at one thread's speed in most runs). With it the member joins late and
// takes the units left, like any participant that arrives late (claim_board.hpp).
//
//   leader: offer(job, parker)   job under the mutex; then an RMW on `pending`; then wake()
//   member: waits with pending() in its condition; take(job) -> run what is left of it
//
// A later offer replaces an earlier one: the leader opens a section only after the one before
// has joined, so only the newest can have units left. The job may name a section long over,
// of a team the member has since left: the member claims before it touches anything of it,
// and a claim of an old generation fails. The wake follows parker.hpp's waker rule, so an
// offer made while the member goes to sleep is not lost. Model-checked by
// tests/team/model_test.cpp (InviteModel), which fails with the wake removed or with a board
// that does not check the generation.
#pragma once

namespace teamla::team::sync {

template <class Sync, class Job>
class LateInvite {
 public:
  template <class ParkerT>
  void offer(const Job& job, ParkerT& parker) {
    mutex_.lock();
    job_ = job;
    mutex_.unlock();
    pending_().exchange(true, Sync::seq_cst);
    parker.wake();
  }

  [[nodiscard]] bool pending() const { return pending_().load(Sync::acquire); }

  // take(): the newest job offered since the last take, if any.
  bool take(Job& out) {
    if (!pending_().exchange(false, Sync::acq_rel)) return false;
    mutex_.lock();
    out = job_;
    mutex_.unlock();
    return true;
  }

 private:
  typename Sync::Mutex mutex_;
  Job job_{};  // guarded by mutex_
  typename Sync::template Atomic<bool> pending_{false};
};

}  // namespace teamla::team::sync
