// SPDX-License-Identifier: Apache-2.0
// portable_wait.cpp: the mutex+condvar fallback behind wait_on_word/wake_all_on_word.
//
// Words hash to one of a fixed set of global buckets (never freed, so a wake may name a word
// whose owner is gone). A waiter compares the word under its bucket's mutex and then waits on
// the bucket's condvar, which releases the mutex atomically; a waker changes the word first and
// then takes and releases the same mutex before notifying, so a waiter is either before its
// comparison (and sees the new value) or already waiting (and is notified).
#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>

#include "platform/futex.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team::platform {
namespace {

struct alignas(64) Bucket {  // one line each: unrelated words must not share a lock line
  std::mutex mutex;
  std::condition_variable wakeup;
};

// Built when the library is loaded (with their fork hooks where they are the wait in use), so
// no first use can race a fork().
std::array<Bucket, 64> g_buckets;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

Bucket& bucket_of(const void* address) {
  const auto bits = reinterpret_cast<std::uintptr_t>(address);
  return g_buckets[(bits >> 6) % g_buckets.size()];
}

#if !TEAMLA_WAIT_FUTEX
// Across fork(): the forking thread holds every bucket's mutex, so no bucket is copied in the
// middle of a waiter's compare or a waker's notify. The child rebuilds the buckets: their
// condvars may count parent threads as waiters, which do not exist there.
void lock_buckets() {
  for (Bucket& bucket : g_buckets) bucket.mutex.lock();
}
void unlock_buckets() {
  for (Bucket& bucket : g_buckets) bucket.mutex.unlock();
}
void rebuild_buckets() {
  for (Bucket& bucket : g_buckets) new (&bucket) Bucket;  // the parent's copies are abandoned
}
[[maybe_unused]] const bool g_buckets_fork_hooked =
    on_fork(lock_buckets, unlock_buckets, rebuild_buckets);
#endif

}  // namespace

void portable_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  Bucket& bucket = bucket_of(&word);
  std::unique_lock lock(bucket.mutex);
  if (word.load(std::memory_order_seq_cst) == expected) bucket.wakeup.wait(lock);
}

void portable_wake_all(std::atomic<std::uint32_t>& word) {
  Bucket& bucket = bucket_of(&word);
  { std::lock_guard lock(bucket.mutex); }
  bucket.wakeup.notify_all();
}

}  // namespace teamla::team::platform
