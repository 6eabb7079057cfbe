// SPDX-License-Identifier: Apache-2.0
// step_width.hpp (internal): how a blocked factorization (potrf, getrf) picks the width of each
// step, and how a wide step reports its time.
//
// A factorization decides step by step: its early steps are large and its last ones small, so
// one width for the whole call would waste either the team or the sections. A step's width
// comes from the cost model (width.hpp) with the step's serial time, the team's measured section
// cost, and, under WidthRule::observed, the penalty observed while wide steps kept losing to
// foreign load. A wide step is one section that waits inside itself for its panel, so it is
// charged two sections' cost.
#pragma once

#include <cstddef>
#include <cstdint>

#include "teamla/linalg/exec.hpp"

namespace teamla::linalg::level3_detail {

class StepWidth {
 public:
  // Reads the cap and the section cost once for the call and fills exec.stats' width_cap and
  // section_cost_ns. scalar_bytes: 8 (double) or 4 (float), for gemm's serial rate.
  StepWidth(Exec& exec, std::size_t scalar_bytes);

  // cap(): the widest any step may run (1: every step inline).
  [[nodiscard]] std::size_t cap() const { return cap_; }
  // serial_ns(): the serial time of `flops` at `rate_fraction` of gemm's serial rate.
  [[nodiscard]] double serial_ns(double flops, double rate_fraction = 1.0) const;
  // choose(): the width of a step whose serial time is `step_ns`.
  [[nodiscard]] std::size_t choose(double step_ns) const;

  // WideStep: times one wide step from its construction; record() reports it to the width
  // model with the serial time it had to beat.
  class WideStep {
   public:
    WideStep();
    void record(double expected_ns) const;

   private:
    std::uint64_t start_ns_;
    std::uint64_t waited_before_ns_;
  };

 private:
  std::size_t cap_ = 1;
  double section_ns_ = 0;
  bool observed_ = true;
  double gflops_ = 1;
};

}  // namespace teamla::linalg::level3_detail
