// SPDX-License-Identifier: Apache-2.0
// config.hpp: how a CpuEngine is configured: a plain struct, and the environment overrides.
//
// EngineConfig is a value; copy it freely. from_env() is the one place the engine reads the
// environment: TEAMLA_MODE and TEAMLA_WIDTH_CACHE here, and TEAMLA_NUM_THREADS, TEAMLA_WAIT_POLICY,
// TEAMLA_SPIN_POLLS and TEAMLA_WARM_UP_MS through the team's own reader
// (team::PoolBuilder::apply_env), so each variable has exactly one parser. The BLAS libraries
// (engine/blas) read theirs here too: from_blas_env() and blas_environment(). Each reads the
// environment each time it is called, and is as thread-safe as reading the environment.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/team/wait_policy.hpp"

namespace teamla::engine {

enum class Mode : unsigned char {
  // held: the engine owns a pool and a team, reserved for its lifetime (the fast path).
  held,
  // per_call: every call builds a fresh pool and team and ends them before returning (their
  // workers handed on to the next call's pool, or, under the legacy wait policy, started and
  // joined per call), and every call runs the new pool's warm-up. Kept to measure what a pool
  // per call costs, not to be used.
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
  // How each region's width is decided (linalg/exec.hpp). from_env(): TEAMLA_WIDTH_RULE,
  // "observed" or "model" (the cost model alone, for benches that reproduce threadteam 0.1.3).
  linalg::WidthRule width_rule = linalg::WidthRule::observed;

  // from_env() returns `base` with each TEAMLA_* variable that is set applied on top.
  // Throws ConfigError naming the variable and its value when one is invalid.
  static EngineConfig from_env(EngineConfig base);
  static EngineConfig from_env();  // from_env(EngineConfig{})

  // from_blas_env() is the BLAS libraries' engine configuration (docs/blas.md, "Threads"):
  // from_env(), its threads by the thread-count rule: TEAMLA_NUM_THREADS, else
  // OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS's first entry, else 0 (the affinity set). It
  // never throws for the environment: when a TEAMLA_* variable is invalid it sets `invalid` to
  // why and returns the defaults with the rule's threads (each variable's leading count).
  static EngineConfig from_blas_env(std::string& invalid);
};

// BlasEnvironment: the BLAS libraries' own variables (docs/blas.md).
struct BlasEnvironment {
  // TEAMLA_BLAS_VERBOSE as a level: 0 when unset or not a positive number.
  int verbosity = 0;
  // TEAMLA_BLAS_BACKEND and TEAMLA_BLAS_COMPLETION: libblas.so.3's backend list and reference
  // BLAS, as set (null when unset).
  const char* backend = nullptr;
  const char* completion = nullptr;
  // TEAMLA_LAPACK_BACKEND: liblapack.so.3's backend list, as set (null when unset).
  const char* lapack_backend = nullptr;
};
[[nodiscard]] BlasEnvironment blas_environment();

}  // namespace teamla::engine
