// SPDX-License-Identifier: Apache-2.0
// level2_checks.cpp: the vector checks of the level-2 routines (level2_internal.hpp); the
// matrix checks are level 3's (checks.cpp). The messages are built in cold, out-of-line
// functions: the checks run on every call and must cost a few compares.
#include <string>

#include "level2/level2_internal.hpp"
#include "teamla/linalg/errors.hpp"

namespace teamla::linalg::level2_detail {
namespace {

[[gnu::cold, gnu::noinline]] void throw_bad_vector(const char* routine, const std::string& name,
                                                   index_t size, index_t inc) {
  if (size < 0) {
    throw InvalidArgument(routine, name,
                          name + " has a negative size (" + std::to_string(size) + ")");
  }
  if (inc == 0) {
    throw InvalidArgument(routine, "inc" + name, "inc" + name + " = 0 is not allowed");
  }
  throw InvalidArgument(routine, name,
                        name + " is null but has " + std::to_string(size) + " elements");
}

[[gnu::cold, gnu::noinline]] void throw_bad_length(const char* routine, const std::string& name,
                                                   index_t size, index_t needed, const char* what) {
  throw InvalidArgument(routine, name,
                        name + " has " + std::to_string(size) + " elements but " + what +
                            " number " + std::to_string(needed));
}

}  // namespace

void check_vector(const char* routine, const char* name, index_t size, index_t inc,
                  const void* data) {
  if (size < 0 || inc == 0 || (data == nullptr && size > 0)) {
    throw_bad_vector(routine, name, size, inc);
  }
}

void check_length(const char* routine, const char* name, index_t size, index_t needed,
                  const char* what) {
  if (size != needed) throw_bad_length(routine, name, size, needed, what);
}

}  // namespace teamla::linalg::level2_detail
