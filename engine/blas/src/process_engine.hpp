// SPDX-License-Identifier: Apache-2.0
// process_engine.hpp: the one CpuEngine every BLAS call of the process runs on.
//
// The engine is created on the first call that needs it, by exactly one thread (the others
// wait on a mutex held only during creation), with the thread count of threads_from_env().
// EngineLease marks a call in flight for its lifetime; any number of threads may hold
// leases at once (CpuEngine is thread-safe: a call that finds the team busy runs serially).
//
// Fork: a team::on_fork hook holds the creation mutex across fork(), so no child inherits
// it locked; the child abandons the parent's engine without touching it (its threads do not
// exist in the child, and its locks may be held by parent threads that do not either) and
// creates its own on its first call. The abandoned engine is leaked, once per fork.
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

// threads_from_env(): the engine's width from the environment's values (null when unset):
// TEAMLA_NUM_THREADS, else OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS (its first entry);
// 0 (the affinity set) when none holds a positive integer.
[[nodiscard]] std::size_t threads_from_env(const char* teamla, const char* openblas,
                                           const char* omp);

// EngineLease: one call's hold on the process engine. Not copyable; one thread.
class EngineLease {
 public:
  EngineLease();
  EngineLease(const EngineLease&) = delete;
  EngineLease& operator=(const EngineLease&) = delete;
  ~EngineLease();

  // engine() is the process engine, or null when the call must run serially (after exit
  // began, or when the engine could not be created).
  [[nodiscard]] engine::CpuEngine* engine() const { return engine_; }

 private:
  engine::CpuEngine* engine_;
};

// describe_engine() writes one line about the process engine ("held, width 2, isa avx512",
// or why there is none) into `text`. For the verbose log.
void describe_engine(char* text, std::size_t size);

}  // namespace teamla::blas
