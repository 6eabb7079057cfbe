// SPDX-License-Identifier: Apache-2.0
// process.hpp: process-wide hooks that code above team/ needs from the OS.
//
// The thread-team runtime owns every OS call of teamla (team/src/platform/); this header is
// the part of it that other modules may reach, such as the BLAS library's process engine,
// which must keep a fork() from copying a mutex that another thread holds.
#pragma once

namespace teamla::team {

// on_fork() registers three hooks run around every later fork() of the process: `prepare` in
// the forking thread before the fork, `in_parent` in it afterwards, `in_child` in the child's
// only thread (POSIX atfork handlers). Hooks run in the reverse order of registration for
// `prepare`, in order for the others. Returns false when nothing was registered (no memory, or a
// system without fork()). Registration cannot be undone: call it once per set of hooks.
bool on_fork(void (*prepare)(), void (*in_parent)(), void (*in_child)());

}  // namespace teamla::team
