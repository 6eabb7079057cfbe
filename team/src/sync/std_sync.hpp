// SPDX-License-Identifier: Apache-2.0
// std_sync.hpp: the production binding of the protocol templates (Parker, Completion, Barrier).
//
// The protocols are written once against a `Sync` parameter that supplies an atomic type, the
// memory orders and a Sleeper; this binding uses std::atomic and the platform wait word, and
// tests/team/model_*.cpp binds the same templates to Relacy's rl::atomic and rl::mutex.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "platform/futex.hpp"

namespace teamla::team::sync {

struct StdSync {
  // Atomic<T>: a std::atomic reached through operator(), the call shape Relacy's atomics need.
  template <class T>
  class Atomic {
   public:
    constexpr Atomic(T initial = T{}) : value_(initial) {}  // NOLINT: implicit by design
    std::atomic<T>& operator()() { return value_; }
    const std::atomic<T>& operator()() const { return value_; }

   private:
    std::atomic<T> value_;
  };

  using Mutex = std::mutex;

  static constexpr std::memory_order relaxed = std::memory_order_relaxed;
  static constexpr std::memory_order acquire = std::memory_order_acquire;
  static constexpr std::memory_order release = std::memory_order_release;
  static constexpr std::memory_order acq_rel = std::memory_order_acq_rel;
  static constexpr std::memory_order seq_cst = std::memory_order_seq_cst;

  // Sleeper: blocks on a wait word; stateless because the platform keys sleepers by address.
  struct Sleeper {
    void wait(Atomic<std::uint32_t>& word, std::uint32_t expected) {
      platform::wait_on_word(word(), expected);
    }
    void wake_all(Atomic<std::uint32_t>& word) { platform::wake_all_on_word(word()); }
  };
};

}  // namespace teamla::team::sync
