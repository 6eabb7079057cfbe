// SPDX-License-Identifier: Apache-2.0
// process_engine.hpp: the one CpuEngine every BLAS call of the process runs on.
//
// The engine is created on the first call that needs it, by exactly one thread (the others
// wait on a mutex held only during creation), configured by engine::EngineConfig::from_blas_env()
// (the thread-count rule of docs/blas.md, "Threads").
// EngineLease marks a call in flight for its lifetime; any number of threads may hold
// leases at once (CpuEngine is thread-safe: a call that finds the team busy runs serially).
//
// Fork: a team::on_fork hook, registered when the library is loaded, holds the creation
// mutex across fork(), so no child inherits it locked; the child abandons the parent's engine
// without touching it (its threads do not exist in the child, and its locks may be held by parent
// threads that do not either) and creates its own on its first call. The abandoned engine is
// leaked, once per fork.
//
// Thread counts (docs/blas.md, "Thread control"): a process-wide count and a per-thread one
// (openblas_set_num_threads and its _local variant). A call's count caps the width the
// engine gives it (engine::ThreadWidthLimit). A count above the engine's width replaces the
// engine by a wider one, at most as wide as the usable CPUs: the old engine is retired, and
// destroyed by the first lease to end with no call in flight (never under a call).
//
// Exit: after the engine is created, an exit handler is registered (so it runs before the
// destructors of everything the engine's creation initialised). It closes the engine to new
// leases and, when no call is in flight, destroys it, joining its threads. A call that finds
// the engine closed runs serially on its caller. The library is linked -z nodelete, so
// dlclose() never unmaps code that the engine's threads may be running.
#pragma once

#include <cstddef>

#include "teamla/engine/cpu_engine.hpp"

namespace teamla::blas {

// kMaxThreadCount: the largest count set_*_threads() keep (larger ones are clamped), as
// OpenBLAS clamps to its build's MAX_CPU_NUMBER; the engine's own bound on its config.
inline constexpr int kMaxThreadCount = 4096;

// set_process_threads(): the process-wide count. count < 1 sets the engine's width (its
// width from the environment before it exists), as OpenBLAS sets its pool's size.
void set_process_threads(int count);
// set_thread_threads(): the calling thread's own count, which wins over the process-wide
// one; count < 1 clears it. Returns thread_threads() as it was before the call.
int set_thread_threads(int count);
// thread_threads(): the count the calling thread's next call runs with: its own, else the
// process-wide one, else the engine's width; the last two capped by the followed OpenBLAS
// count.
[[nodiscard]] int thread_threads();

// followed_openblas_count(): the count an OpenBLAS loaded beside this library holds now (0
// when none is loaded). It caps the process-wide count: threadpoolctl limits BLAS threads by
// calling openblas_set_num_threads on the OpenBLAS it finds by file name (numpy always loads
// one beside teamla), never on teamla (docs/blas.md, "threadpoolctl"). Defined with the other
// OpenBLAS look-ups in thread_control.cpp. A relaxed load and a call into OpenBLAS; an OpenBLAS
// not yet found is looked for at most every kOpenBlasLookupNs.
// kOpenBlasLookupNs: 250 ms, so that the look-up (dlsym, and dlopen of the known sonames) stays
// rare beside the calls yet an OpenBLAS loaded later is soon followed (docs/blas.md,
// "threadpoolctl").
inline constexpr unsigned long long kOpenBlasLookupNs = 250'000'000;
[[nodiscard]] int followed_openblas_count();

// caller_runs_one_thread(): whether a call from this thread can use one thread only: the
// thread's own count, else the process-wide one, else the current engine's width (the last two
// capped by the followed OpenBLAS count) is 1 (false until an engine exists, unless a count of
// 1 is set). Relaxed loads, no lease and no engine created; the thread's own count is looked up
// only once some thread has set one (in a shared library a thread-local look-up is a call into
// the dynamic linker: docs/engine.md, "Cost of a call").
[[nodiscard]] bool caller_runs_one_thread();
// learned_inline_calls(): the calling thread's count of calls that skipped the engine because
// the width planner decided their size class inline (abi_routines.cpp, kEnginePassEvery).
[[nodiscard]] unsigned& learned_inline_calls();

// EngineLease: one call's hold on the process engine, sized for the calling thread's count.
// Not copyable; one thread.
class EngineLease {
 public:
  EngineLease();
  EngineLease(const EngineLease&) = delete;
  EngineLease& operator=(const EngineLease&) = delete;
  ~EngineLease();

  // engine() is the process engine, or null when the call must run serially (after exit
  // began, or when the engine could not be created).
  [[nodiscard]] engine::CpuEngine* engine() const { return engine_; }
  // width_limit() is the call's cap on the engine's width (0: none), for
  // engine::ThreadWidthLimit.
  [[nodiscard]] std::size_t width_limit() const { return limit_; }
  // threads() is the most threads the call can use: 1 when serial.
  [[nodiscard]] std::size_t threads() const;

 private:
  std::size_t limit_;
  engine::CpuEngine* engine_;
};

// describe_engine() writes one line about the process engine ("held, width 2, isa avx512",
// or why there is none) into `text`. For the verbose log.
void describe_engine(char* text, std::size_t size);

}  // namespace teamla::blas
