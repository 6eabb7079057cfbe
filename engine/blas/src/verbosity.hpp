// SPDX-License-Identifier: Apache-2.0
// verbosity.hpp: the level of TEAMLA_BLAS_VERBOSE, which the verbose log (call_log.hpp) and the
// process engine's exit report (process_engine.cpp) both read.
#pragma once

#include <atomic>

namespace teamla::blas {

// verbosity() is TEAMLA_BLAS_VERBOSE's level (0 when unset: engine::blas_environment()), read at
// the first call that asks; after that it is a relaxed load and a compare, where a function-local
// static would add a call and a guard check to every call (docs/engine.md, "Cost of a call").
// Thread-safe.
extern std::atomic<int> g_verbosity;  // -1 until read
int read_verbosity();
[[nodiscard]] inline int verbosity() {
  const int level = g_verbosity.load(std::memory_order_relaxed);
  return level >= 0 ? level : read_verbosity();
}

}  // namespace teamla::blas
