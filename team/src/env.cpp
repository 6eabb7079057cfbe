// SPDX-License-Identifier: Apache-2.0
// env.cpp: the one place the team reads the environment: PoolBuilder::apply_env() (the TEAMLA_*
// runtime variables) and local_ranks() (the MPI launcher's).
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/process.hpp"

namespace teamla::team {
namespace {

[[noreturn]] void reject(const char* name, std::string_view value, const char* expected) {
  throw std::invalid_argument(std::string("teamla: invalid ") + name + "='" + std::string(value) +
                              "' (expected " + expected + ")");
}

// parse_unsigned() accepts a whole decimal number in [min, max] and nothing else.
std::uint64_t parse_unsigned(const char* name, std::string_view value, std::uint64_t min,
                             std::uint64_t max, const char* expected) {
  std::uint64_t parsed = 0;
  const char* end = value.data() + value.size();
  const auto [stop, error] = std::from_chars(value.data(), end, parsed);
  if (value.empty() || error != std::errc() || stop != end || parsed < min || parsed > max) {
    reject(name, value, expected);
  }
  return parsed;
}

}  // namespace

PoolBuilder& PoolBuilder::apply_env() {
  if (const char* value = std::getenv("TEAMLA_NUM_THREADS")) {
    threads(parse_unsigned("TEAMLA_NUM_THREADS", value, 1, 4096, "an integer in [1, 4096]"));
  }
  if (const char* value = std::getenv("TEAMLA_WAIT_POLICY")) {
    const std::string_view text(value);
    if (text != "staged" && text != "legacy" && text != "passive") {
      reject("TEAMLA_WAIT_POLICY", text, "staged, legacy or passive");
    }
    policy(parse_wait_policy(text));
  }
  if (const char* value = std::getenv("TEAMLA_SPIN_POLLS")) {
    tuning_.spin_polls = static_cast<std::uint32_t>(
        parse_unsigned("TEAMLA_SPIN_POLLS", value, 0, WaitTuning::kSpinPollsFromTime - 1,
                       "an integer in [0, 4294967294]"));
  }
  if (const char* value = std::getenv("TEAMLA_WARM_UP_MS")) {
    tuning_.warm_up = std::chrono::milliseconds(
        parse_unsigned("TEAMLA_WARM_UP_MS", value, 0, 3'600'000, "milliseconds in [0, 3600000]"));
  }
  return *this;
}

namespace {
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit ProcessNumber<unsigned> g_local_ranks;
}  // namespace

unsigned local_ranks() {
  return g_local_ranks.get([] {
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
      const char* text = std::getenv(name);
      const long value = text == nullptr ? 0 : std::strtol(text, nullptr, 10);
      if (value > 0) return static_cast<unsigned>(value);
    }
    return 1U;
  });
}

}  // namespace teamla::team
