// The showcase without Eigen (libeigen3-dev missing): the Eigen row is left out.
#include "showcase.hpp"

namespace teamla::showcase {
std::unique_ptr<DenseArm> make_eigen_arm() { return nullptr; }
}  // namespace teamla::showcase
