// SPDX-License-Identifier: Apache-2.0
// verbosity.cpp: TEAMLA_BLAS_VERBOSE's level, read once (see verbosity.hpp).
#include "verbosity.hpp"

#include "teamla/engine/config.hpp"

namespace teamla::blas {

std::atomic<int> g_verbosity{-1};

int read_verbosity() {
  const int level = engine::blas_environment().verbosity;
  g_verbosity.store(level, std::memory_order_relaxed);  // racing first calls store the same
  return level;
}

}  // namespace teamla::blas
