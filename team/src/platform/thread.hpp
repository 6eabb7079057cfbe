// SPDX-License-Identifier: Apache-2.0
// thread.hpp: the calling thread's CPU, a yield, and its name, behind one interface.
//
// The runtime asks the OS three things about the calling thread: the CPU it runs on (to tell
// when a member is stacked on its leader's CPU), to give its CPU to another runnable thread,
// and to carry a name that `top -H` and debuggers show. The implementation is chosen here, in
// one place: Linux (thread_linux.cpp), or a portable fallback (thread_portable.cpp) that knows
// no CPU, yields through the C++ runtime and names nothing. Defining TEAMLA_PORTABLE_THREAD
// forces the fallback. Every function is safe to call from any thread at any time.
#pragma once

#include <string_view>

#if defined(__linux__) && !defined(TEAMLA_PORTABLE_THREAD)
#define TEAMLA_THREAD_LINUX 1
#else
#define TEAMLA_THREAD_LINUX 0
#endif

namespace teamla::team::platform {

// current_cpu() returns the CPU the calling thread runs on, or -1 where that is unknown. The
// answer may be stale by the time it is read: callers use it as a hint, never as an identity.
int current_cpu();

// yield_now() offers the calling thread's CPU to another runnable thread and returns when it
// is scheduled again (at once when nothing else is runnable there).
void yield_now();

// set_thread_name() names the calling thread; the kernel keeps 15 characters, so a longer
// name is cut to its first 15.
void set_thread_name(std::string_view name);

}  // namespace teamla::team::platform
