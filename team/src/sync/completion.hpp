// SPDX-License-Identifier: Apache-2.0
// completion.hpp: the join of a section: the leader waits until every member has arrived.
//
// Completion counts the members still running. Each member calls arrive() exactly once, after
// its last access to the section; the leader polls finished() and sleeps on a Parker.
//
// Lifetime: the leader may free the section (and this Completion) as soon as finished() is
// true, i.e. right after the last member's decrement. So arrive() takes the Parker as an
// argument (it lives in the pool, which outlives every member loop) and never touches `this`
// after its decrement.
//
// Memory ordering: the decrement is a seq_cst RMW, so every member's writes before arrive()
// are visible to the leader once its acquire load reads 0 (the decrements form one release
// sequence). The final decrement is ordered before the Parker's wake() RMW, as parker.hpp
// requires of a waker. Model-checked by tests/team/model_test.cpp (CompletionModel).
#pragma once

#include <cstdint>

namespace teamla::team::sync {

template <class Sync>
class Completion {
 public:
  explicit Completion(std::uint32_t members) : remaining_(members) {}

  // arrive() marks one member done and wakes the parker if it was the last; true when that
  // wake found a sleeper.
  template <class ParkerT>
  bool arrive(ParkerT& parker) {
    if (remaining_().fetch_sub(1, Sync::seq_cst) != 1) return false;
    return parker.wake();
  }

  [[nodiscard]] bool finished() const { return remaining_().load(Sync::acquire) == 0; }

 private:
  typename Sync::template Atomic<std::uint32_t> remaining_;
};

}  // namespace teamla::team::sync
