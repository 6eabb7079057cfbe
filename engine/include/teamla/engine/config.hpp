// SPDX-License-Identifier: Apache-2.0
// config.hpp: how a CpuEngine is configured: a plain struct, and the environment overrides.
//
// EngineConfig is a value; copy it freely. from_env() is the one place the engine reads the
// environment: TEAMLA_MODE and TEAMLA_WIDTH_CACHE here, and TEAMLA_NUM_THREADS, TEAMLA_WAIT_POLICY,
// TEAMLA_SPIN_POLLS and TEAMLA_WARM_UP_MS through the team's own reader
// (team::PoolBuilder::apply_env), so each variable has exactly one parser. It reads the
// environment each time it is called and is as thread-safe as getenv.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "teamla/linalg/errors.hpp"
#include "teamla/team/wait_policy.hpp"

namespace teamla::engine {

enum class Mode : unsigned char {
  // held: the engine owns a pool and a team, reserved for its lifetime (the fast path).
  held,
  // per_call: every call builds a fresh pool and team and joins them before returning, as
  // faer's with_team does: the faer#107 arm. It pays thread creation on every call, and
  // every call runs the new pool's warm-up. Kept to measure that cost, not to be used.
  per_call,
  // serial: never starts a thread; every call runs on its caller. Safe inside any other
  // thread pool (OpenMP, TBB, another engine).
  serial,
};

// ConfigError: an invalid configuration value, from the struct or the environment. The
// message names the setting (e.g. "TEAMLA_MODE") and the value.
class ConfigError : public linalg::InvalidArgument {
 public:
  ConfigError(std::string setting, const std::string& message)
      : linalg::InvalidArgument("CpuEngine", std::move(setting), message) {}
};

// to_string(): "held", "per_call", "serial". parse_mode() accepts exactly those and throws
// ConfigError naming `setting`, the value, and the accepted ones otherwise.
std::string_view to_string(Mode mode);
Mode parse_mode(std::string_view text, std::string_view setting = "mode");

struct EngineConfig {
  // The most threads a call uses, counting the caller. 0: the CPUs of the process's
  // affinity set when the engine is built.
  std::size_t threads = 0;
  Mode mode = Mode::held;
  team::WaitPolicy wait_policy = team::WaitPolicy::staged;
  // Spin budget of every wait (polls, one PAUSE each); see team/wait_policy.hpp.
  std::uint32_t spin_polls = team::WaitTuning{}.spin_polls;
  // How long a new pool watches for preemption of its spinners; 0 turns it off.
  std::chrono::milliseconds warm_up = team::WaitTuning{}.warm_up;
  // The directory of the width cache (linalg/width.hpp: the calibrated width decisions of this
  // machine, kept across processes); "" keeps them in the process only. from_env() sets it to
  // TEAMLA_WIDTH_CACHE ("off": none), else $XDG_CACHE_HOME/teamla, else $HOME/.cache/teamla.
  std::string width_cache{};

  // from_env() returns `base` with each TEAMLA_* variable that is set applied on top.
  // Throws ConfigError naming the variable and its value when one is invalid.
  static EngineConfig from_env(EngineConfig base);
  static EngineConfig from_env();  // from_env(EngineConfig{})
};

}  // namespace teamla::engine
