// SPDX-License-Identifier: Apache-2.0
// barrier.hpp: the in-section barrier of `width` participants, cancellable.
//
// A participant reads the current epoch (its ticket), then arrives. The last arrival resets
// the count and bumps the epoch; the others wait until the epoch differs from their ticket, or
// the barrier is cancelled. cancel() wakes every sleeper so that no participant waits for one
// that has thrown.
//
// Memory ordering: arrivals are acq_rel RMWs on `arrived_` (one release sequence), so the last
// arrival sees every participant's writes before its arrival; its epoch bump is a seq_cst RMW
// that the waiters read with acquire, so they see those writes too. The count is reset
// (relaxed) before the bump and nobody arrives for the next round before seeing the bump, so
// the next round starts from 0. The bump and the cancel store precede parker.wake() as
// parker.hpp requires. Model-checked by tests/team/model_test.cpp (BarrierModel, CancelModel).
#pragma once

#include <cstdint>

namespace teamla::team::sync {

template <class Sync>
class Barrier {
 public:
  explicit Barrier(std::uint32_t width) : width_(width) {}

  // ticket() is read before arrive(); passed(ticket) says the round is over.
  [[nodiscard]] std::uint32_t ticket() const { return epoch_().load(Sync::acquire); }
  [[nodiscard]] bool passed(std::uint32_t ticket) const {
    return epoch_().load(Sync::acquire) != ticket;
  }

  // arrive() returns true for the last arrival, which has already released the others.
  template <class ParkerT>
  bool arrive(ParkerT& parker) {
    if (arrived_().fetch_add(1, Sync::acq_rel) + 1 != width_) return false;
    arrived_().store(0, Sync::relaxed);
    epoch_().fetch_add(1, Sync::seq_cst);
    parker.wake();
    return true;
  }

  template <class ParkerT>
  void cancel(ParkerT& parker) {
    cancelled_().exchange(1, Sync::seq_cst);
    parker.wake();
  }
  [[nodiscard]] bool cancelled() const { return cancelled_().load(Sync::acquire) != 0; }

 private:
  typename Sync::template Atomic<std::uint32_t> arrived_{0};
  typename Sync::template Atomic<std::uint32_t> epoch_{0};
  typename Sync::template Atomic<std::uint32_t> cancelled_{0};
  std::uint32_t width_;
};

}  // namespace teamla::team::sync
