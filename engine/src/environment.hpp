// SPDX-License-Identifier: Apache-2.0
// environment.hpp: the one place the engine reads the environment (environment.cpp). It depends
// on nothing else of teamla, so that liblapack.so.3, which holds no teamla code beyond its
// forwarding, can read its variables without bringing a second pool's code along.
#pragma once

namespace teamla::engine {

// variable(): the value of the environment variable `name`, or null when it is unset.
[[nodiscard]] const char* variable(const char* name);

}  // namespace teamla::engine
