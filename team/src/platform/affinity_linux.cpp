// SPDX-License-Identifier: Apache-2.0
// affinity_linux.cpp: step_off_cpu() (see affinity.hpp).
#include <sched.h>

#include "platform/affinity.hpp"

namespace teamla::team::platform {

bool step_off_cpu(int cpu) {
  cpu_set_t original;
  CPU_ZERO(&original);
  if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof original, &original) != 0) {
    return false;
  }
  cpu_set_t others = original;
  CPU_CLR(cpu, &others);
  if (CPU_COUNT(&others) == 0 || sched_setaffinity(0, sizeof others, &others) != 0) return false;
  const bool moved = sched_getcpu() != cpu;
  // Restore the set only if nobody replaced it meanwhile (`taskset -a -p` shrinking the
  // process's CPUs): putting `original` back then would undo that change for this thread.
  // The check and the restore are two calls, so the window is narrowed, not closed.
  cpu_set_t now;
  CPU_ZERO(&now);
  if (sched_getaffinity(0, sizeof now, &now) == 0 && CPU_EQUAL(&now, &others)) {
    sched_setaffinity(0, sizeof original, &original);
  }
  return moved;
}

}  // namespace teamla::team::platform
