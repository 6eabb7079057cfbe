// SPDX-License-Identifier: Apache-2.0
// showcase_no_eigen.cpp: the showcase built without Eigen (libeigen3-dev missing): no Eigen row.
#include "showcase.hpp"

namespace teamla::showcase {
std::unique_ptr<DenseArm> make_eigen_arm() { return nullptr; }
}  // namespace teamla::showcase
