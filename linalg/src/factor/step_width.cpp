// SPDX-License-Identifier: Apache-2.0
// step_width.cpp: the width of a factorization's steps (step_width.hpp).
#include "factor/step_width.hpp"

#include "plan/width_internal.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg::level3_detail {

StepWidth::StepWidth(Exec& exec, std::size_t scalar_bytes)
    : cap_(detail::region_cap(exec)),
      observed_(exec.width_rule == WidthRule::observed),
      gflops_(gemm_serial_gflops(scalar_bytes)) {
  // The team's own measured cost, scaled to a width-2 section (choose_with_cost adds a third
  // of it per further member); with observation off (tests on a loaded machine) the table's.
  if (cap_ > 1) {
    section_ns_ = !detail::section_observation() ? dispatch_cost_ns(2)
                                                 : exec.team->section_cost_ns(cap_) /
                                                       (1.0 + static_cast<double>(cap_ - 2) / 3.0);
  }
  exec.stats.width_cap = cap_;
  exec.stats.section_cost_ns = section_ns_;
}

double StepWidth::serial_ns(double flops, double rate_fraction) const {
  return serial_estimate_ns(flops, gflops_ * rate_fraction);
}

std::size_t StepWidth::choose(double step_ns) const {
  if (cap_ <= 1) return 1;
  const double penalty_ns = observed_ ? observed_section_penalty_ns() : 0.0;
  return detail::choose_with_cost(step_ns, 2, cap_, section_ns_, penalty_ns);
}

StepWidth::WideStep::WideStep()
    : start_ns_(team::monotonic_ns()), waited_before_ns_(team::leader_wait_ns()) {}

void StepWidth::WideStep::record(double expected_ns) const {
  record_section(static_cast<double>(team::monotonic_ns() - start_ns_), expected_ns,
                 static_cast<double>(team::leader_wait_ns() - waited_before_ns_));
}

}  // namespace teamla::linalg::level3_detail
