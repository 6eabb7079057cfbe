// SPDX-License-Identifier: Apache-2.0
// held_worker.hpp: a pool member that has not started, for the tests of claimed work.
#pragma once

#include <cstddef>
#include <future>

#include "teamla/team/pool.hpp"

namespace teamla::testing {

// hold_worker0(): `builder` with an on-start hook in which worker 0 (rank 1 of a full team)
// waits, before it serves anything, until `released` is ready.
inline team::PoolBuilder& hold_worker0(team::PoolBuilder& builder,
                                       const std::shared_future<void>& released) {
  return builder.on_start([released](std::size_t worker) {
    if (worker == 0) released.wait();
  });
}

}  // namespace teamla::testing
