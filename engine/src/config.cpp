// SPDX-License-Identifier: Apache-2.0
// config.cpp: the engine's configuration: Mode names, and EngineConfig from the environment
// (read through environment.hpp).
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "environment.hpp"
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
  if (const char* chosen = variable("TEAMLA_WIDTH_CACHE")) {
    const std::string_view value(chosen);
    return value == "off" ? std::string() : std::string(value);
  }
  if (const char* xdg = variable("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::string(xdg) + "/teamla";
  }
  if (const char* home = variable("HOME"); home != nullptr && *home == '/') {
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
  // threads == 0 means "the affinity set when the engine is built": seeded as it is, it stays 0
  // unless TEAMLA_NUM_THREADS sets a count.
  team::PoolBuilder builder;
  builder.threads(base.threads).policy(base.wait_policy).tuning(tuning);
  try {
    builder.apply_env();
  } catch (const std::invalid_argument& error) {
    throw ConfigError("environment", error.what());
  }
  base.threads = builder.thread_count();
  base.wait_policy = builder.wait_policy();
  base.spin_polls = builder.wait_tuning().spin_polls;
  base.warm_up = builder.wait_tuning().warm_up;
  if (const char* mode = variable("TEAMLA_MODE")) base.mode = parse_mode(mode, "TEAMLA_MODE");
  base.width_cache = width_cache_from_env(base.width_cache);
  if (const char* rule = variable("TEAMLA_WIDTH_RULE")) {
    const std::string_view value(rule);
    if (value != "observed" && value != "model") {
      throw ConfigError("TEAMLA_WIDTH_RULE", "TEAMLA_WIDTH_RULE = '" + std::string(value) +
                                                 "' is not a width rule: use observed or model");
    }
    base.width_rule = value == "model" ? linalg::WidthRule::model : linalg::WidthRule::observed;
  }
  return base;
}

EngineConfig EngineConfig::from_env() { return from_env(EngineConfig{}); }

namespace {

// leading_count(): the leading positive integer of `text` ("4"; "4,2", OMP_NUM_THREADS's nested
// list), or 0 when it has none.
std::size_t leading_count(const char* text) {
  if (text == nullptr) return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || value <= 0) return 0;
  return static_cast<std::size_t>(value);
}

// first_count(): the leading count of the first of `variables` that holds one, or 0.
std::size_t first_count(std::initializer_list<const char*> variables) {
  for (const char* name : variables) {
    if (const std::size_t count = leading_count(variable(name))) return count;
  }
  return 0;
}

}  // namespace

EngineConfig EngineConfig::from_blas_env(std::string& invalid) {
  try {
    // TEAMLA_NUM_THREADS comes through from_env() (the team's parser): threads is 0 when unset.
    EngineConfig config = from_env();
    if (config.threads == 0) {
      config.threads = first_count({"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"});
    }
    return config;
  } catch (const std::exception& error) {
    invalid = error.what();
    EngineConfig defaults;
    defaults.threads =
        first_count({"TEAMLA_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"});
    return defaults;
  }
}

}  // namespace teamla::engine
