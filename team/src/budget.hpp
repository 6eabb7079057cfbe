// SPDX-License-Identifier: Apache-2.0
// budget.hpp: the runtime's side of the process CPU budget (teamla/team/cpu_budget.hpp):
// grants to claimed sections, a member's leave, and the spin check of waiting members.
#pragma once

#include <cstddef>
#include <cstdint>

namespace teamla::team::budget {

// grant_members() reserves up to `wanted` slots for a section's members and returns how many
// it got (0 when every usable CPU runs library work).
std::size_t grant_members(std::size_t wanted);

// return_members() gives back `count` slots granted by grant_members().
void return_members(std::size_t count);

// leave_if_over_committed(): a member between two units gives its slot back if the budget
// runs more threads than it has CPUs; true if it did (the member then leaves the section).
bool leave_if_over_committed();

// all_cpus_taken(): every usable CPU runs library work now, not counting `own_members`
// (the waiting member's pool's grants not yet returned: those slots are the waiting members'
// own); a member waiting between sections then ends its spin. Relaxed loads.
bool all_cpus_taken(std::size_t own_members);

// count_as_worker(): the calling thread is a pool worker, whose work is counted by the grants
// of the sections it joins: a CallerSlot it opens (a call made from inside a unit) adds
// nothing.
void count_as_worker();

// in_call(): whether the calling thread holds a CallerSlot: its claimed sections are then
// granted members from the budget. A team used outside any call (an application's own use of
// team/, the wait benches) is the application's to size, and is not budgeted.
bool in_call();

// set_linger_ns() replaces how long a caller's CPU counts as taken after its call
// (default_linger_ns()); for tests.
void set_linger_ns(std::uint64_t linger_ns);
std::uint64_t default_linger_ns();

}  // namespace teamla::team::budget
