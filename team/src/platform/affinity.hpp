// SPDX-License-Identifier: Apache-2.0
// affinity.hpp: moving the calling thread off one CPU, for a member stacked on its leader's.
#pragma once

namespace teamla::team::platform {

// step_off_cpu() moves the calling thread to another CPU of its affinity set than `cpu`: it
// narrows its own mask to the set without `cpu` (the kernel migrates it at once), then puts the
// original mask back (a thread is never moved for a mask that still allows its CPU). False,
// touching nothing, when the set has no other CPU or a call fails. Two syscalls, a few us.
bool step_off_cpu(int cpu);

}  // namespace teamla::team::platform
