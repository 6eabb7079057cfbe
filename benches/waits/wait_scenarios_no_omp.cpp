// SPDX-License-Identifier: Apache-2.0
// wait_scenarios_no_omp.cpp: stands in for the libgomp arm when OpenMP is not available.
#include <stdexcept>
#include <vector>

#include "wait_scenarios_common.hpp"

namespace teamla::bench {

bool omp_arm_available() { return false; }

void run_omp_arm(const ScenarioOptions&, std::vector<Row>&) {
  throw std::logic_error("wait_scenarios was built without OpenMP");
}

}  // namespace teamla::bench
