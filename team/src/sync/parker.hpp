// SPDX-License-Identifier: Apache-2.0
// parker.hpp: a place where threads sleep until a condition they poll becomes true.
//
// Parker is an event count on one 32-bit word: bit 0 says "someone may be asleep", the other
// bits count wakes that found a sleeper. Any number of threads may sleep on one Parker and any
// thread may wake it; a wake wakes every sleeper, and each one re-checks its own condition.
//
//   waiter: block_until(done)  loop { key = prepare(); if (done()) return; sleep(key); }
//   waker:  make done() true with a seq_cst (or release) RMW or store, then wake().
//
// Memory ordering. prepare() is a seq_cst fetch_or and wake() starts with a seq_cst fetch_add(0)
// on the same word, so the two RMWs are ordered in the word's modification order:
//  - wake's RMW after prepare's: it reads bit 0 set, bumps the count and wakes the sleepers;
//    a sleeper not yet in sleep() finds the word changed and returns at once.
//  - wake's RMW before prepare's: prepare reads from it (an RMW reads the latest value), so it
//    synchronizes with the waker, whose change of the condition happens before the waiter's
//    re-check after prepare(): the waiter sees done() and never sleeps.
// Either way no wake is lost. When nobody sleeps, wake() is one uncontended RMW, no syscall.
//
// The same code is model-checked by Relacy (tests/team/model_test.cpp, ParkerModel) through `Sync`.
#pragma once

#include <cstdint>

namespace teamla::team::sync {

template <class Sync>
class Parker {
 public:
  // prepare() announces a sleeper and returns the key that sleep() waits on.
  std::uint32_t prepare() { return word_().fetch_or(kSleeping, Sync::seq_cst) | kSleeping; }

  // sleep() blocks while no wake has happened since prepare() returned `key`. It may return
  // spuriously; callers re-check their condition.
  void sleep(std::uint32_t key) { sleeper_.wait(word_, key); }

  // wake() wakes every thread asleep on this parker (see the ordering argument above). It
  // returns true when it found a sleeper and made the wake syscall.
  bool wake() {
    std::uint32_t word = word_().fetch_add(0, Sync::seq_cst);
    while ((word & kSleeping) != 0) {
      // +1 clears bit 0 and carries into the count: a sleeper's key no longer matches.
      if (word_().compare_exchange_weak(word, word + 1, Sync::seq_cst)) {
        sleeper_.wake_all(word_);
        return true;
      }
    }
    return false;
  }

  // block_until() sleeps until done() is true; on_sleep() runs before the first sleep only.
  template <class Done, class OnSleep>
  void block_until(Done&& done, OnSleep&& on_sleep) {
    bool slept = false;
    for (;;) {
      const std::uint32_t key = prepare();
      if (done()) return;
      if (!slept) {
        on_sleep();
        slept = true;
      }
      sleep(key);
    }
  }

 private:
  static constexpr std::uint32_t kSleeping = 1;
  typename Sync::template Atomic<std::uint32_t> word_{0};
  typename Sync::Sleeper sleeper_;
};

}  // namespace teamla::team::sync
