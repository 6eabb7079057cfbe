// SPDX-License-Identifier: Apache-2.0
// cpu_budget.hpp: the process's one CPU budget, shared by every caller and every team.
//
// The budget counts the threads that run library work now (`running`), against the CPUs the
// process may use (usable_cpu_count()):
//  - a thread that makes a call holds a CallerSlot for the call's length: one slot, however
//    deeply its calls nest (none on a pool worker, which its section's grant counts); and its
//    CPU still counts as taken for a millisecond after the call ends (its own next call
//    excepted): a caller is rarely idle right after a call (it makes the next one, or spins in
//    its own runtime's barrier, as OpenMP threads do at the end of a parallel loop);
//  - a claimed section (Team::run_claimed) is granted members only from the slots free at
//    that moment, one slot each, given back when the section ends. A section granted no
//    member runs inline on its leader.
// So k concurrent callers on P usable CPUs run at most max(P, k) participants, never k x P:
// a caller that finds every CPU taken runs its regions inline. Claimed work makes a narrower
// section safe at any moment (team.hpp).
//
// A caller that arrives while a section of another caller holds members over-commits the
// budget for a moment (a caller is never refused: its thread runs anyway). A member of that
// section that finishes a unit and finds the budget over-committed gives its slot back and
// leaves the section (counted in WaitCounters::budget_leaves); the section's other
// participants take its remaining units. And a member waiting between sections ends its spin
// while every usable CPU runs library work: spinning there would take a CPU from a thread
// that has work.
//
// Only sections led inside a call are budgeted. A team used outside any call (an application
// that sizes its own teams, the wait benches), the legacy policy (threadteam 0.1.3's waits, a
// runtime that had no budget) and non-claimed sections (Team::run: a section with barriers
// cannot run narrower than planned) ignore it.
//
// Thread safety: every function may be called from any thread. The counts are relaxed
// atomics: the budget decides widths, and no memory is published through it.
#pragma once

#include <cstddef>

namespace teamla::team {

// CallerSlot: holds one slot of the budget for the calling thread while it lives. Nested
// slots of one thread (an engine call that runs a team section) count once.
class CallerSlot {
 public:
  CallerSlot();
  ~CallerSlot();
  CallerSlot(const CallerSlot&) = delete;
  CallerSlot& operator=(const CallerSlot&) = delete;

 private:
  bool counted_;
};

// free_cpus() is the number of usable CPUs that run no library work now and whose caller did
// not just leave a call (0 when all are taken): the most members a section planned now can be
// granted.
std::size_t free_cpus();

// BudgetUse: a snapshot, for tests and reports.
struct BudgetUse {
  std::size_t running = 0;   // callers' slots plus granted members, now (lingering not counted)
  std::size_t capacity = 0;  // the usable CPUs the budget last read
};
BudgetUse budget_use();

}  // namespace teamla::team
