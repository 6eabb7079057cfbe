// SPDX-License-Identifier: Apache-2.0
// fault_injection.hpp: refuse threads and memory on demand, to test that teamla degrades.
//
// Linked into a program (or preloaded: fault_preload.cpp), fault_injection.cpp interposes
// pthread_create, aligned_alloc, posix_memalign and every operator new, forwarding each to the
// next definition (libc's, or a sanitizer's) unless a fault is armed:
//   - refuse_threads(): every pthread_create fails with EAGAIN (a cgroup pids.max limit);
//   - refuse_allocations_from(bytes): every allocation of at least `bytes` fails (a memory
//     limit that still lets small objects through);
//   - refuse_nth_allocation(k): the k-th allocation from now fails, once (k >= 1);
//   - refuse_nth_thread(k): the k-th pthread_create from now fails, once.
// disarm() clears them all. Counters say how often a fault was injected. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace teamla::faults {

void refuse_threads();
void refuse_allocations_from(std::size_t bytes);
void refuse_nth_allocation(std::uint64_t k);
void refuse_nth_thread(std::uint64_t k);
void disarm();

// Allocations and thread starts seen since the last arming call (refused ones included).
[[nodiscard]] std::uint64_t allocations_seen();
[[nodiscard]] std::uint64_t threads_seen();
// Faults injected since the process started.
[[nodiscard]] std::uint64_t allocations_refused();
[[nodiscard]] std::uint64_t threads_refused();

// Armed: refuses as configured by `arm` for its lifetime (a scope of one test step).
class Armed {
 public:
  template <class Arm>
  explicit Armed(Arm&& arm) {
    arm();
  }
  ~Armed() { disarm(); }
  Armed(const Armed&) = delete;
  Armed& operator=(const Armed&) = delete;
};

}  // namespace teamla::faults
