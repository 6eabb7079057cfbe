// SPDX-License-Identifier: Apache-2.0
// portable_wait.cpp: the mutex+condvar fallback behind wait_on_word/wake_all_on_word.
//
// Words hash to one of a fixed set of global buckets (never freed, so a wake may name a word
// whose owner is gone). A waiter compares the word under its bucket's mutex and then waits on
// the bucket's condvar, which releases the mutex atomically; a waker changes the word first and
// then takes and releases the same mutex before notifying, so a waiter is either before its
// comparison (and sees the new value) or already waiting (and is notified).
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "platform/futex.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team::platform {
namespace {

struct alignas(64) Bucket {  // one line each: unrelated words must not share a lock line
  std::mutex mutex;
  std::condition_variable wakeup;
};

using Buckets = std::array<Bucket, 64>;

// The buckets: built by their first use and published without a lock (as the idle-pool
// reservoir), never destroyed, so a wake after exit still finds them.
std::atomic<Buckets*> g_buckets{nullptr};

Buckets& buckets() {
  if (Buckets* built = g_buckets.load(std::memory_order_acquire)) return *built;
  auto* fresh = new Buckets;
  Buckets* first = nullptr;
  if (g_buckets.compare_exchange_strong(first, fresh, std::memory_order_acq_rel)) return *fresh;
  delete fresh;  // another first use published before this one
  return *first;
}

Bucket& bucket_of(const void* address) {
  Buckets& all = buckets();
  const auto bits = reinterpret_cast<std::uintptr_t>(address);
  return all[(bits >> 6) % all.size()];
}

#if !TEAMLA_WAIT_FUTEX
// forget_buckets(): a forked child starts from new buckets. Its copies of the parent's may
// have a mutex held and a condvar counting waiters, by parent threads that do not exist there;
// they are abandoned (leaked once per fork). Its only thread was calling fork(), in no bucket.
// Nothing is locked around the fork: a prepare hook taking the buckets could deadlock with
// another hook's lock (the BLAS engine's creation lock) held by a thread waiting on a bucket.
// Registered when the library is loaded, as the reservoir's hook (docs/team.md, "Fork").
void forget_buckets() { g_buckets.store(nullptr, std::memory_order_relaxed); }
[[maybe_unused]] const bool g_buckets_fork_hooked = on_fork(nullptr, nullptr, forget_buckets);
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
