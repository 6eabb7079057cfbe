// SPDX-License-Identifier: Apache-2.0
// process.hpp: process-wide hooks that code above team/ needs from the OS.
//
// The thread-team runtime owns every OS call of teamla (team/src/platform/); this header is
// the part of it that other modules may reach, such as the BLAS library's process engine,
// which must keep a fork() from copying a mutex that another thread holds.
#pragma once

#include <atomic>
#include <utility>

namespace teamla::team {

// on_fork() registers three hooks run around every later fork() of the process: `prepare` in
// the forking thread before the fork, `in_parent` in it afterwards, `in_child` in the child's
// only thread (POSIX atfork handlers). Hooks run in the reverse order of registration for
// `prepare`, in order for the others. Returns false when nothing was registered (no memory, or a
// system without fork()). Registration cannot be undone: call it once per set of hooks.
bool on_fork(void (*prepare)(), void (*in_parent)(), void (*in_child)());

// ProcessValue<T>: a process-wide value computed on first use, without a lock.
//
// A function-local static is guarded by a lock that its first user holds while computing it.
// A fork() at that moment copies the lock, taken, into the child, whose first use then waits
// for good (docs/team.md, "Fork"). Here first uses that race each compute; the first to publish
// wins and the others free their copy. Nothing waits, so a child has nothing to inherit that
// it could wait for. `compute` must be safe to run concurrently. The value is never destroyed,
// so it stays valid in exit handlers. Declare it constinit at namespace scope. Its first use
// allocates (and may throw std::bad_alloc): keep numbers in a ProcessNumber.
template <class T>
class ProcessValue {
 public:
  template <class Compute>
  const T& get(Compute&& compute) {
    if (const T* value = value_.load(std::memory_order_acquire)) return *value;
    return publish(new T(std::forward<Compute>(compute)()));
  }

 private:
  const T& publish(const T* fresh) {
    const T* first = nullptr;
    if (value_.compare_exchange_strong(first, fresh, std::memory_order_acq_rel)) return *fresh;
    delete fresh;  // another first use published before this one
    return *first;
  }

  std::atomic<const T*> value_{nullptr};
};

// ProcessNumber<T>: the same for a number, held in place: no allocation, so a first use inside
// a call cannot fail for want of memory. Zero means "not computed yet": `compute` must return
// a non-zero value. Relaxed order: the number is all there is to publish.
template <class T>
class ProcessNumber {
 public:
  template <class Compute>
  T get(Compute&& compute) {
    T value = value_.load(std::memory_order_relaxed);
    if (value != T{}) return value;
    const T fresh = std::forward<Compute>(compute)();
    return value_.compare_exchange_strong(value, fresh, std::memory_order_relaxed) ? fresh : value;
  }

 private:
  std::atomic<T> value_{};
};

}  // namespace teamla::team
