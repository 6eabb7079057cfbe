// SPDX-License-Identifier: Apache-2.0
// args.hpp: the command-line walk of the custom benches (the Google Benchmark ones take only
// --benchmark_* options and leave argv to it).
//
//   for (ArgCursor arg(argc, argv); arg.next();) {
//     if (arg.is("--rounds") && arg.has_value()) rounds = std::atoi(arg.value());
//     else if (arg.is("--no-load")) with_load = false;
//     else return usage();
//   }
//
// A missing value is reported by has_value() rather than handled here, so each bench keeps
// its own answer to it (a usage line, an exception, a default).
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace teamla::bench {

class ArgCursor {
 public:
  ArgCursor(int argc, char** argv) : argc_(argc), argv_(argv) {}

  // next() moves to the next argument (the first, at the first call); false past the last.
  bool next() { return ++at_ < argc_; }
  // name() is the current argument.
  [[nodiscard]] std::string name() const { return argv_[at_]; }
  // is() tells whether the current argument is `option`.
  [[nodiscard]] bool is(std::string_view option) const { return option == argv_[at_]; }
  // has_value() tells whether an argument follows the current one.
  [[nodiscard]] bool has_value() const { return at_ + 1 < argc_; }
  // value() consumes the argument after the current one; nullptr, consuming nothing, when
  // there is none.
  const char* value() { return has_value() ? argv_[++at_] : nullptr; }
  // rest() is the arguments after the current one (a command to run, say), null-terminated.
  [[nodiscard]] char** rest() const { return argv_ + at_ + 1; }

 private:
  int argc_;
  char** argv_;
  int at_ = 0;
};

// split_list(): the non-empty items of a comma-separated list ("2,,4" gives "2", "4").
inline std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

}  // namespace teamla::bench
