// SPDX-License-Identifier: Apache-2.0
// errors.hpp: the exception thrown for bad input, before anything is written.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

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

// NullBatchMatrix: the InvalidArgument of a batch given as groups (batch.hpp, GemmGroup) whose
// group `group()` leaves null a matrix one of its items uses: the pointer array `array()` ('a',
// 'b' or 'c') itself, or its entry `item()`. argument() names it as "groups[G].a" or
// "groups[G].a[I]"; the fields let a caller (the BLAS ABI's report to xerbla_) use it without
// reading the name.
class NullBatchMatrix : public InvalidArgument {
 public:
  NullBatchMatrix(std::size_t group, char array, std::optional<std::size_t> item,
                  std::string argument, const std::string& message)
      : InvalidArgument("gemm_batch", std::move(argument), message),
        group_(group),
        array_(array),
        item_(item) {}
  [[nodiscard]] std::size_t group() const { return group_; }
  [[nodiscard]] char array() const { return array_; }
  // The item whose pointer is null; empty when the array itself is.
  [[nodiscard]] std::optional<std::size_t> item() const { return item_; }

 private:
  std::size_t group_;
  char array_;
  std::optional<std::size_t> item_;
};

}  // namespace teamla::linalg
