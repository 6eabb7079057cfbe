// SPDX-License-Identifier: Apache-2.0
// model_sync.hpp: the Relacy binding of the wait protocols' `Sync` parameter.
//
// The production templates (team/src/sync/{parker,completion,barrier}.hpp) are instantiated
// here with rl::atomic and a Sleeper built on Relacy's mutex and condition variable, which
// behaves like a futex: the waiter compares the word under the mutex and blocks atomically,
// the waker takes the mutex after changing the word and notifies everyone.
#pragma once

#include <relacy/relacy.hpp>

#include <cstdint>

namespace teamla::team::model {

struct RlSync {
  template <class T>
  class Atomic {
   public:
    Atomic(T initial = T{}) : value_(initial) {}  // NOLINT: implicit like the production one
    rl::atomic_proxy<T> operator()() { return value_(RL_INFO); }
    rl::atomic_proxy_const<T> operator()() const { return value_(RL_INFO); }

   private:
    rl::atomic<T> value_;
  };

  struct Mutex {
    void lock() { mutex.lock(RL_INFO); }
    void unlock() { mutex.unlock(RL_INFO); }
    rl::mutex mutex;
  };

  static constexpr rl::memory_order relaxed = rl::mo_relaxed;
  static constexpr rl::memory_order acquire = rl::mo_acquire;
  static constexpr rl::memory_order release = rl::mo_release;
  static constexpr rl::memory_order acq_rel = rl::mo_acq_rel;
  static constexpr rl::memory_order seq_cst = rl::mo_seq_cst;

  struct Sleeper {
    void wait(Atomic<std::uint32_t>& word, std::uint32_t expected) {
      mutex.lock(RL_INFO);
      if (word().load(rl::mo_seq_cst) == expected) wakeup.wait(mutex, RL_INFO);
      mutex.unlock(RL_INFO);
    }
    void wake_all(Atomic<std::uint32_t>& /*word*/) {
      mutex.lock(RL_INFO);
      mutex.unlock(RL_INFO);
      wakeup.notify_all(RL_INFO);
    }
    rl::mutex mutex;
    rl::condition_variable wakeup;
  };
};

// MuteSync: RlSync whose Sleeper never wakes anyone (the Parker's wake removed).
struct MuteSync : RlSync {
  struct Sleeper : RlSync::Sleeper {
    void wake_all(Atomic<std::uint32_t>& /*word*/) {}
  };
};

}  // namespace teamla::team::model
