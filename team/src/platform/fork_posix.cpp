// SPDX-License-Identifier: Apache-2.0
// fork_posix.cpp: on_fork() (see teamla/team/process.hpp), with pthread_atfork where it exists.
#include "teamla/team/process.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace teamla::team {

bool on_fork(void (*prepare)(), void (*in_parent)(), void (*in_child)()) {
#if defined(__unix__) || defined(__APPLE__)
  return pthread_atfork(prepare, in_parent, in_child) == 0;
#else
  (void)prepare;
  (void)in_parent;
  (void)in_child;
  return false;  // no fork() to guard against
#endif
}

}  // namespace teamla::team
