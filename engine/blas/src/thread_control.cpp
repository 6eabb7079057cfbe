// SPDX-License-Identifier: Apache-2.0
// The thread-control calls applications make on a BLAS: OpenBLAS's openblas_set_num_threads,
// openblas_get_num_threads and openblas_set_num_threads_local, and teamla's own
// teamla_set_num_threads and teamla_get_num_threads (docs/blas.md, "Thread control"). The
// counts live in process_engine.cpp; this file is the C ABI and the forwarding.
//
// Forwarding: preloaded over a real OpenBLAS, the openblas_* setters also call the next
// definition in the lookup order (dlsym(RTLD_NEXT)), so that OpenBLAS's own pool, which
// serves every routine teamla does not export, obeys the same count. The teamla_* calls are
// never forwarded: they set teamla's count alone.
//
// Following: the other way round, that OpenBLAS's own count caps teamla's process-wide count,
// so that a count set on it directly (threadpoolctl's threadpool_limits, which never sees
// teamla) holds for teamla too (followed_openblas_count()).
#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstdint>

#include "exports.hpp"
#include "process_engine.hpp"
#include "teamla/team/machine.hpp"

namespace {

using SetThreads = void (*)(int);
using SetThreadsLocal = int (*)(int);

// Set while this thread forwards, so that a next definition that calls back into the
// global symbol (an interposer of its own) reaches teamla without looping.
constinit thread_local bool t_forwarding = false;

// in_this_library(): whether `address` lies in this library. The anchor is a function of
// internal linkage, whose address is this library's whatever the symbol lookup order.
bool in_this_library(const void* address) {
  Dl_info found{};
  Dl_info self{};
  const auto* anchor = reinterpret_cast<const void*>(&in_this_library);
  return dladdr(address, &found) != 0 && dladdr(anchor, &self) != 0 &&
         found.dli_fbase == self.dli_fbase;
}

// kLoadedLibraries: where an OpenBLAS already loaded outside the global scope is found by
// name. Python loads extension modules RTLD_LOCAL, so numpy's libblas.so.3 and the
// libopenblas.so.0 it needs are invisible to RTLD_NEXT; a handle on them finds them.
constexpr std::array<const char*, 4> kLoadedLibraries = {"libopenblas.so.0", "libopenblasp.so.0",
                                                         "libopenblaso.so.0", "libblas.so.3"};

// loaded_definition(): `name` in one of kLoadedLibraries or their dependencies, if one is
// loaded (RTLD_NOLOAD never loads one; the handle is closed again, leaving it loaded).
void* loaded_definition(const char* name) {
  for (const char* library : kLoadedLibraries) {
    void* handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) continue;
    void* found = dlsym(handle, name);
    dlclose(handle);
    if (found != nullptr && !in_this_library(found)) return found;
  }
  return nullptr;
}

// next_definition(): the definition of `name` after this library's in the lookup order,
// else in a loaded OpenBLAS (loaded_definition); null when there is none or it is this
// library's own (loaded twice, or found through an odd lookup order). Looked up at every
// call, which is rare, so that a BLAS loaded after the first call (numpy imported later) is
// found.
template <class Function>
Function next_definition(const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (found == nullptr || in_this_library(found)) found = loaded_definition(name);
  return reinterpret_cast<Function>(found);
}

// forward(): runs `call` once per thread at a time (see t_forwarding).
template <class Call>
void forward(Call&& call) {
  if (t_forwarding) return;
  t_forwarding = true;
  call();
  t_forwarding = false;
}

using GetThreads = int (*)();

// The OpenBLAS whose count is followed (followed_openblas_count()): its getter once found,
// when to look for one again while none is found, and its count as this library's last forward
// left it (-1: none yet).
struct FollowedOpenBlas {
  std::atomic<GetThreads> get{nullptr};
  std::atomic<std::uint64_t> next_lookup_ns{0};
  std::atomic<int> count_as_left{-1};
};
constinit FollowedOpenBlas g_followed;

GetThreads find_openblas_getter() {
  const std::uint64_t now = teamla::team::coarse_monotonic_ns();
  if (now < g_followed.next_lookup_ns.load(std::memory_order_relaxed)) return nullptr;
  g_followed.next_lookup_ns.store(now + teamla::blas::kOpenBlasLookupNs, std::memory_order_relaxed);
  const auto get = next_definition<GetThreads>("openblas_get_num_threads");
  if (get != nullptr) g_followed.get.store(get, std::memory_order_relaxed);
  return get;
}

// forwarded(): after a forward, the count it left OpenBLAS at. That count is this library's
// own doing (before 0.3.27 a thread's local count reaches OpenBLAS's process-wide one), never
// a limit set from outside: it is not followed.
void forwarded() {
  if (const auto get = next_definition<GetThreads>("openblas_get_num_threads")) {
    g_followed.count_as_left.store(get(), std::memory_order_relaxed);
  }
}

}  // namespace

int teamla::blas::followed_openblas_count() {
  GetThreads get = g_followed.get.load(std::memory_order_relaxed);
  if (get == nullptr && (get = find_openblas_getter()) == nullptr) return 0;
  const int count = get();
  return count == g_followed.count_as_left.load(std::memory_order_relaxed) ? 0 : count;
}

extern "C" {

TEAMLA_BLAS_EXPORT void teamla_set_num_threads(int count) {
  teamla::blas::set_process_threads(count);
}

TEAMLA_BLAS_EXPORT int teamla_get_num_threads() { return teamla::blas::thread_threads(); }

TEAMLA_BLAS_EXPORT void openblas_set_num_threads(int count) {
  teamla::blas::set_process_threads(count);
  forward([count] {
    if (auto next = next_definition<SetThreads>("openblas_set_num_threads")) {
      next(count);
      forwarded();
    }
  });
}

TEAMLA_BLAS_EXPORT int openblas_get_num_threads() { return teamla::blas::thread_threads(); }

TEAMLA_BLAS_EXPORT int openblas_set_num_threads_local(int count) {
  const int previous = teamla::blas::set_thread_threads(count);
  forward([count] {
    if (auto next = next_definition<SetThreadsLocal>("openblas_set_num_threads_local")) {
      next(count);
    } else if (auto global = next_definition<SetThreads>("openblas_set_num_threads")) {
      // An OpenBLAS older than 0.3.27 has no local variant; its pthreads build's
      // set_num_threads_local sets the process-wide count anyway. Pass the count this
      // thread now runs with, so that a cleared local count (0) does not reset OpenBLAS
      // to its pool's size.
      global(teamla::blas::thread_threads());
    }
    forwarded();
  });
  return previous;
}

}  // extern "C"
