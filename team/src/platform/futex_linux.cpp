// SPDX-License-Identifier: Apache-2.0
// futex_linux.cpp: the Linux futex behind wait_on_word/wake_all_on_word.
#include "platform/futex.hpp"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace teamla::team::platform {

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  // One attempt: EINTR, EAGAIN (the word already changed) and spurious returns all go back to
  // the caller's loop, which re-checks its condition before waiting again.
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
}

}  // namespace teamla::team::platform
#endif
