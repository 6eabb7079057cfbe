// SPDX-License-Identifier: Apache-2.0
// thread_portable.cpp: the fallback behind thread.hpp, for systems without the Linux calls.
//
// Without a CPU number every "stacked on the leader's CPU" check is simply never true, which is
// the behaviour of a machine where no two team threads share a CPU.
#include "platform/thread.hpp"

#if !TEAMLA_THREAD_LINUX
#include <thread>

namespace teamla::team::platform {

int current_cpu() { return -1; }

void yield_now() { std::this_thread::yield(); }

void set_thread_name(std::string_view) {}

}  // namespace teamla::team::platform
#endif
