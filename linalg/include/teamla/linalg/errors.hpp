// SPDX-License-Identifier: Apache-2.0
// errors.hpp: the exception thrown for bad input, before anything is written.
#pragma once

#include <stdexcept>
#include <string>

namespace teamla::linalg {

// InvalidArgument names the routine, the argument and its value, e.g.
// "teamla::gemm: lda = 3 is smaller than the rows of A (5)". Thrown before any output is
// written, so the caller's data is untouched.
class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(std::string routine, std::string argument, const std::string& message)
      : std::invalid_argument("teamla::" + routine + ": " + message),
        routine_(std::move(routine)),
        argument_(std::move(argument)) {}
  [[nodiscard]] const std::string& routine() const { return routine_; }
  [[nodiscard]] const std::string& argument() const { return argument_; }

 private:
  std::string routine_;
  std::string argument_;
};

}  // namespace teamla::linalg
