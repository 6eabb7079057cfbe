// SPDX-License-Identifier: Apache-2.0
// fault_injection.cpp: the interposers behind fault_injection.hpp.
#include "fault_injection.hpp"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

namespace teamla::faults {
namespace {

constexpr std::uint64_t kNever = ~std::uint64_t{0};

std::atomic<bool> g_refuse_threads{false};
std::atomic<std::size_t> g_refuse_from_bytes{~std::size_t{0}};
std::atomic<std::uint64_t> g_refuse_nth_allocation{kNever};
std::atomic<std::uint64_t> g_refuse_nth_thread{kNever};
std::atomic<std::uint64_t> g_allocations_seen{0};
std::atomic<std::uint64_t> g_threads_seen{0};
std::atomic<std::uint64_t> g_allocations_refused{0};
std::atomic<std::uint64_t> g_threads_refused{0};

void reset_seen() {
  g_allocations_seen.store(0);
  g_threads_seen.store(0);
}

}  // namespace

void refuse_threads() {
  reset_seen();
  g_refuse_threads.store(true);
}
void refuse_allocations_from(std::size_t bytes) {
  reset_seen();
  g_refuse_from_bytes.store(bytes);
}
void refuse_nth_allocation(std::uint64_t k) {
  reset_seen();
  g_refuse_nth_allocation.store(k);
}
void refuse_nth_thread(std::uint64_t k) {
  reset_seen();
  g_refuse_nth_thread.store(k);
}
void disarm() {
  g_refuse_threads.store(false);
  g_refuse_from_bytes.store(~std::size_t{0});
  g_refuse_nth_allocation.store(kNever);
  g_refuse_nth_thread.store(kNever);
}
std::uint64_t allocations_seen() { return g_allocations_seen.load(); }
std::uint64_t threads_seen() { return g_threads_seen.load(); }
std::uint64_t allocations_refused() { return g_allocations_refused.load(); }
std::uint64_t threads_refused() { return g_threads_refused.load(); }

// refuse_allocation(): whether this allocation of `bytes` is to fail (and counts it).
bool refuse_allocation(std::size_t bytes) {
  const std::uint64_t nth = g_allocations_seen.fetch_add(1) + 1;
  if (bytes >= g_refuse_from_bytes.load(std::memory_order_relaxed) ||
      nth == g_refuse_nth_allocation.load(std::memory_order_relaxed)) {
    g_allocations_refused.fetch_add(1);
    return true;
  }
  return false;
}

bool refuse_thread() {
  const std::uint64_t nth = g_threads_seen.fetch_add(1) + 1;
  if (g_refuse_threads.load(std::memory_order_relaxed) ||
      nth == g_refuse_nth_thread.load(std::memory_order_relaxed)) {
    g_threads_refused.fetch_add(1);
    return true;
  }
  return false;
}

}  // namespace teamla::faults

namespace {

using teamla::faults::refuse_allocation;

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

using AlignedAlloc = void* (*)(std::size_t, std::size_t);
using PosixMemalign = int (*)(void**, std::size_t, std::size_t);
using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

void* aligned_or_null(std::size_t alignment, std::size_t bytes) {
  static const auto real = next<AlignedAlloc>("aligned_alloc");
  return refuse_allocation(bytes) ? nullptr : real(alignment, bytes);
}

void* plain_or_null(std::size_t bytes) {
  return refuse_allocation(bytes) ? nullptr : std::malloc(bytes == 0 ? 1 : bytes);
}

void* plain_or_throw(std::size_t bytes) {
  void* p = plain_or_null(bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// aligned_new_or_null(): an aligned operator new's block (aligned_alloc wants a multiple of
// the alignment), or null when refused.
void* aligned_new_or_null(std::size_t bytes, std::align_val_t alignment) {
  const auto align = static_cast<std::size_t>(alignment);
  return aligned_or_null(align, (bytes + align - 1) / align * align);
}

void* aligned_or_throw(std::size_t bytes, std::align_val_t alignment) {
  void* p = aligned_new_or_null(bytes, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                   void* arg) {
  static const auto real = next<PthreadCreate>("pthread_create");
  if (teamla::faults::refuse_thread()) return EAGAIN;
  return real(thread, attr, start, arg);
}

void* aligned_alloc(std::size_t alignment, std::size_t bytes) {
  void* p = aligned_or_null(alignment, bytes);
  if (p == nullptr) errno = ENOMEM;
  return p;
}

int posix_memalign(void** out, std::size_t alignment, std::size_t bytes) {
  static const auto real = next<PosixMemalign>("posix_memalign");
  if (refuse_allocation(bytes)) return ENOMEM;
  return real(out, alignment, bytes);
}

}  // extern "C"

// operator new goes to malloc and operator delete to free (the pair stays consistent under
// a sanitizer, which intercepts both); the aligned forms go to aligned_alloc.
void* operator new(std::size_t bytes) { return plain_or_throw(bytes); }
void* operator new[](std::size_t bytes) { return plain_or_throw(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return plain_or_null(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return plain_or_null(bytes);
}
void* operator new(std::size_t bytes, std::align_val_t alignment) {
  return aligned_or_throw(bytes, alignment);
}
void* operator new[](std::size_t bytes, std::align_val_t alignment) {
  return aligned_or_throw(bytes, alignment);
}
// The aligned nothrow forms too: a sanitizer's runtime defines its own, which would bypass
// the faults (libstdc++'s call the throwing form above).
void* operator new(std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return aligned_new_or_null(bytes, alignment);
}
void* operator new[](std::size_t bytes, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  return aligned_new_or_null(bytes, alignment);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
