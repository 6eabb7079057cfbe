// SPDX-License-Identifier: Apache-2.0
// environment.cpp: the engine's one reader of the environment (environment.hpp).
#include "environment.hpp"

#include <cstdlib>

namespace teamla::engine {

const char* variable(const char* name) { return std::getenv(name); }

}  // namespace teamla::engine
