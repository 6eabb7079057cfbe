// SPDX-License-Identifier: Apache-2.0
// thread_linux.cpp: current_cpu(), yield_now() and set_thread_name() on Linux (see thread.hpp).
#include "platform/thread.hpp"

#if TEAMLA_THREAD_LINUX
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstring>

namespace teamla::team::platform {

int current_cpu() { return sched_getcpu(); }

void yield_now() { sched_yield(); }

void set_thread_name(std::string_view name) {
  constexpr std::size_t kKernelNameMax = 15;  // TASK_COMM_LEN less its terminating NUL
  char truncated[kKernelNameMax + 1] = {};
  std::memcpy(truncated, name.data(), std::min(name.size(), kKernelNameMax));
  pthread_setname_np(pthread_self(), truncated);
}

}  // namespace teamla::team::platform
#endif
