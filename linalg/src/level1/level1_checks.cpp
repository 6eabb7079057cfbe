// SPDX-License-Identifier: Apache-2.0
// level1_checks.cpp: the one argument check of the level-1 routines, out of line and cold so
// that the inline compare is all a call pays.
#include <string>

#include "level1/level1_internal.hpp"
#include "teamla/linalg/errors.hpp"

namespace teamla::linalg::level1_detail {

[[gnu::cold, gnu::noinline]] void fail_size(const char* routine, index_t nx, index_t ny) {
  throw InvalidArgument(routine, "y",
                        "y has " + std::to_string(ny) + " elements but x has " +
                            std::to_string(nx) + " (paired vectors must have equal sizes)");
}

}  // namespace teamla::linalg::level1_detail
