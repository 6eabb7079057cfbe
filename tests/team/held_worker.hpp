// SPDX-License-Identifier: Apache-2.0
// held_worker.hpp: a pool member that has not started, for the tests of claimed work.
#pragma once

#include <cstddef>
#include <future>
#include <memory>

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

// HeldWorkerPool: a pool built from `builder` whose worker 0 waits in its start hook until
// release(), or until this object ends: a failed assertion then never leaves the pool's
// destructor joining a worker that never starts. Teams acquired from `pool` must end first.
class HeldWorkerPool {
 public:
  explicit HeldWorkerPool(team::PoolBuilder builder)
      : released_(release_.get_future().share()), pool(hold_worker0(builder, released_).build()) {}
  HeldWorkerPool(const HeldWorkerPool&) = delete;
  HeldWorkerPool& operator=(const HeldWorkerPool&) = delete;
  ~HeldWorkerPool() {
    release();
    pool.reset();
  }

  // release(): lets worker 0 start (once; later calls do nothing).
  void release() {
    if (!released_once_) release_.set_value();
    released_once_ = true;
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_;
  bool released_once_ = false;

 public:
  std::unique_ptr<team::Pool> pool;
};

}  // namespace teamla::testing
