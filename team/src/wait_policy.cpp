// SPDX-License-Identifier: Apache-2.0
// wait_policy.cpp: names of the wait policies and counter arithmetic.
#include "teamla/team/wait_policy.hpp"

#include <stdexcept>
#include <string>

namespace teamla::team {

WaitCounters& WaitCounters::operator+=(const WaitCounters& o) {
  join_sleeps += o.join_sleeps;
  barrier_sleeps += o.barrier_sleeps;
  member_parks += o.member_parks;
  preemptions += o.preemptions;
  throttle_activations += o.throttle_activations;
  stacked_waits += o.stacked_waits;
  members_left_out += o.members_left_out;
  idle_arrivals += o.idle_arrivals;
  late_joins += o.late_joins;
  cpu_moves += o.cpu_moves;
  wakes_ahead += o.wakes_ahead;
  budget_narrowed += o.budget_narrowed;
  budget_leaves += o.budget_leaves;
  sections += o.sections;
  return *this;
}

WaitCounters& WaitCounters::operator-=(const WaitCounters& o) {
  join_sleeps -= o.join_sleeps;
  barrier_sleeps -= o.barrier_sleeps;
  member_parks -= o.member_parks;
  preemptions -= o.preemptions;
  throttle_activations -= o.throttle_activations;
  stacked_waits -= o.stacked_waits;
  members_left_out -= o.members_left_out;
  idle_arrivals -= o.idle_arrivals;
  late_joins -= o.late_joins;
  cpu_moves -= o.cpu_moves;
  wakes_ahead -= o.wakes_ahead;
  budget_narrowed -= o.budget_narrowed;
  budget_leaves -= o.budget_leaves;
  sections -= o.sections;
  return *this;
}

std::string_view to_string(WaitPolicy policy) {
  switch (policy) {
    case WaitPolicy::staged:
      return "staged";
    case WaitPolicy::legacy:
      return "legacy";
    case WaitPolicy::passive:
      return "passive";
  }
  return "unknown";
}

WaitPolicy parse_wait_policy(std::string_view text) {
  for (WaitPolicy policy : {WaitPolicy::staged, WaitPolicy::legacy, WaitPolicy::passive}) {
    if (text == to_string(policy)) return policy;
  }
  throw std::invalid_argument("teamla: unknown wait policy '" + std::string(text) +
                              "' (expected staged, legacy or passive)");
}

}  // namespace teamla::team
