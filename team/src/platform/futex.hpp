// SPDX-License-Identifier: Apache-2.0
// futex.hpp: sleep on a 32-bit word until another thread wakes it (the platform primitive).
//
// wait_on_word(word, expected) blocks while `word == expected`; it returns after a wake, when
// the word has changed, or spuriously, so callers always re-check their condition in a loop.
// wake_all_on_word(word) wakes every thread blocked on the word. A wake that races with a
// waiter's check is never lost: the check and the block are atomic with respect to a wake
// (FUTEX_WAIT compares under the kernel's hash-bucket lock; the fallback compares under the
// bucket mutex the waker also takes).
//
// The implementation is chosen here, in one place: the Linux futex, or a portable table of
// mutex+condvar buckets keyed by the word's address. Defining TEAMLA_PORTABLE_WAIT (CMake
// option TEAMLA_PORTABLE_WAIT, or the teamla_team_portable test library) forces the fallback.
// Both are safe to call with the address of a word that its owner has since freed, which the
// completion protocol relies on: the kernel only hashes the address, and the fallback's
// buckets are global.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__linux__) && !defined(TEAMLA_PORTABLE_WAIT)
#define TEAMLA_WAIT_FUTEX 1
#else
#define TEAMLA_WAIT_FUTEX 0
#endif

namespace teamla::team::platform {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "the wait word must be a plain lock-free 32-bit word");

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected);
void futex_wake_all(std::atomic<std::uint32_t>& word);
void portable_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected);
void portable_wake_all(std::atomic<std::uint32_t>& word);

inline void wait_on_word(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
#if TEAMLA_WAIT_FUTEX
  futex_wait(word, expected);
#else
  portable_wait(word, expected);
#endif
}

inline void wake_all_on_word(std::atomic<std::uint32_t>& word) {
#if TEAMLA_WAIT_FUTEX
  futex_wake_all(word);
#else
  portable_wake_all(word);
#endif
}

// wait_backend() names the implementation compiled in ("futex" or "portable"), for tests.
inline const char* wait_backend() { return TEAMLA_WAIT_FUTEX ? "futex" : "portable"; }

}  // namespace teamla::team::platform
