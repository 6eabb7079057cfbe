// SPDX-License-Identifier: Apache-2.0
// config.cpp: the engine's configuration: Mode names and the one reader of the environment.
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "teamla/engine/config.hpp"
#include "teamla/team/pool.hpp"

namespace teamla::engine {

std::string_view to_string(Mode mode) {
  switch (mode) {
    case Mode::held:
      return "held";
    case Mode::per_call:
      return "per_call";
    case Mode::serial:
      return "serial";
  }
  return "invalid";
}

Mode parse_mode(std::string_view text, std::string_view setting) {
  for (Mode mode : {Mode::held, Mode::per_call, Mode::serial}) {
    if (text == to_string(mode)) return mode;
  }
  throw ConfigError(std::string(setting), std::string(setting) + " = '" + std::string(text) +
                                              "' is not a mode: use held, per_call or serial");
}

namespace {

// width_cache_from_env(): TEAMLA_WIDTH_CACHE ("off" or "": none), else the user's cache
// directory (XDG's), else `fallback`.
std::string width_cache_from_env(const std::string& fallback) {
  if (const char* chosen = std::getenv("TEAMLA_WIDTH_CACHE")) {
    const std::string_view value(chosen);
    return value == "off" ? std::string() : std::string(value);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::string(xdg) + "/teamla";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
    return std::string(home) + "/.cache/teamla";
  }
  return fallback;
}

}  // namespace

EngineConfig EngineConfig::from_env(EngineConfig base) {
  // The team's variables are parsed by the team's reader, on a builder seeded with `base`,
  // and read back: one parser per variable.
  team::WaitTuning tuning;
  tuning.spin_polls = base.spin_polls;
  tuning.warm_up = base.warm_up;
  team::PoolBuilder builder;
  builder.policy(base.wait_policy).tuning(tuning);
  if (base.threads != 0) builder.threads(base.threads);
  try {
    builder.apply_env();
  } catch (const std::invalid_argument& error) {
    throw ConfigError("environment", error.what());
  }
  // threads == 0 means "the affinity set when the engine is built": resolve it only when
  // the environment asked for a count.
  if (std::getenv("TEAMLA_NUM_THREADS") != nullptr) base.threads = builder.thread_count();
  base.wait_policy = builder.wait_policy();
  base.spin_polls = builder.wait_tuning().spin_polls;
  base.warm_up = builder.wait_tuning().warm_up;
  if (const char* mode = std::getenv("TEAMLA_MODE")) base.mode = parse_mode(mode, "TEAMLA_MODE");
  base.width_cache = width_cache_from_env(base.width_cache);
  return base;
}

EngineConfig EngineConfig::from_env() { return from_env(EngineConfig{}); }

}  // namespace teamla::engine
