// SPDX-License-Identifier: Apache-2.0
// acquire_probe_107.hpp: the cases and arms of the faer#107 probe, shared by its parent
// (which spawns one process per case, arm and repetition) and the child that runs one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace teamla::bench {

enum class ProbeCase { gemm_new_pool, gemm_held_team, chol_held_pool };
// passive (every wait sleeps at once) is not a default arm: it shows what sleeping buys.
enum class ProbeArm { legacy, staged, openblas, passive };

struct ProbeResult {
  std::vector<double> samples_us;  // one per timed call
  double median_us = 0;
  double serial_us = 0;            // the same call on one thread, in the same process
  std::size_t max_width_used = 0;  // the widest section the kernels opened (1: all inline)
};

// run_probe_process() runs one case under one arm at `width` in the calling process.
ProbeResult run_probe_process(ProbeCase probe_case, ProbeArm arm, std::size_t width);

}  // namespace teamla::bench
