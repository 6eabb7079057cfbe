// SPDX-License-Identifier: Apache-2.0
// isa.cpp: the one place where the kernel ISA is chosen (cpuid, TEAMLA_ISA, test hooks).
#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "isa_dispatch.hpp"
#include "teamla/linalg/isa.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// The choice from the environment and cpuid, made once. Throws (every time it is asked) when
// TEAMLA_ISA is invalid or names an ISA the CPU lacks.
struct EnvChoice {
  Isa isa = Isa::ref;
  std::string error;
};

EnvChoice choose_from_env() {
  EnvChoice choice;
  const char* forced = std::getenv("TEAMLA_ISA");
  if (forced != nullptr && *forced != '\0') {
    try {
      choice.isa = parse_isa(forced);
    } catch (const std::runtime_error& e) {
      choice.error = e.what();
      return choice;
    }
    if (!isa_supported(choice.isa)) {
      choice.error = std::string("teamla: TEAMLA_ISA=") + forced +
                     " is not supported by this CPU (" + team::cpu_info().brand + ")";
    }
    return choice;
  }
  if (isa_supported(Isa::avx512)) {
    choice.isa = Isa::avx512;
  } else if (isa_supported(Isa::avx2)) {
    choice.isa = Isa::avx2;
  }
  return choice;
}

// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit team::ProcessValue<EnvChoice> g_env_choice;

const EnvChoice& env_choice() { return g_env_choice.get(choose_from_env); }

// Test override: -1 none, else an Isa value.
std::atomic<int> g_isa_override{-1};

struct BlockingOverride {
  bool active = false;
  index_t mc = 0, kc = 0, nc = 0, small_n = 0;
};
BlockingOverride g_blocking_override;

// The tables, indexed by Isa (ref, avx2, avx512), each built by its first use (docs/team.md,
// "Fork").
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit team::ProcessValue<IsaTable> g_tables[3];

const IsaTable& table_of(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return g_tables[2].get(isa_table_avx512);
    case Isa::avx2:
      return g_tables[1].get(isa_table_avx2);
    case Isa::ref:
      break;
  }
  return g_tables[0].get(isa_table_ref);
}

template <class T>
void apply_override(KernelSet<T>& set) {
  const auto round_up = [](index_t v, index_t unit) { return (v + unit - 1) / unit * unit; };
  set.blocking.mc = round_up(g_blocking_override.mc, set.fns.mr);
  set.blocking.kc = g_blocking_override.kc;
  set.blocking.nc = round_up(g_blocking_override.nc, set.fns.nr);
  set.blocking.small_n = g_blocking_override.small_n;
}

Isa resolved_isa() {
  const int forced = g_isa_override.load(std::memory_order_relaxed);
  if (forced >= 0) {
    return static_cast<Isa>(forced);
  }
  const EnvChoice& choice = env_choice();
  if (!choice.error.empty()) {
    throw std::runtime_error(choice.error);
  }
  return choice.isa;
}

}  // namespace

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2:
      return "avx2";
    case Isa::ref:
      break;
  }
  return "ref";
}

Isa parse_isa(std::string_view name) {
  if (name == "avx512") return Isa::avx512;
  if (name == "avx2") return Isa::avx2;
  if (name == "ref") return Isa::ref;
  throw std::runtime_error("teamla: TEAMLA_ISA=" + std::string(name) +
                           " is not one of avx512, avx2, ref");
}

bool isa_supported(Isa isa) {
  const team::CpuFeatures& f = team::cpu_info().features;
  switch (isa) {
    case Isa::avx512:
      return f.has_avx512() && f.has_avx2_fma();
    case Isa::avx2:
      return f.has_avx2_fma();
    case Isa::ref:
      break;
  }
  return true;
}

// g_resolved: the table of the ISA from TEAMLA_ISA or cpuid, once resolved with no test
// override active; the hooks clear it. A tiny gemm asks for its kernels on every call, and
// resolving them each time costs a tenth of the call (docs/engine.md, "Cost of a call").
std::atomic<const IsaTable*> g_resolved{nullptr};

const IsaTable& resolve_active_table() {
  const IsaTable& base = table_of(resolved_isa());
  if (!g_blocking_override.active) {
    if (g_isa_override.load(std::memory_order_relaxed) < 0) {
      g_resolved.store(&base, std::memory_order_release);
    }
    return base;
  }
  // Tests only: a modified copy per ISA, rebuilt on each call (hooks are not thread-safe).
  static thread_local IsaTable patched{Isa::ref, {}, {}};
  patched = base;
  apply_override(patched.d);
  apply_override(patched.s);
  return patched;
}

void force_isa(Isa isa) {
  if (!isa_supported(isa)) {
    throw std::runtime_error("teamla: ISA " + std::string(isa_name(isa)) +
                             " is not supported by this CPU");
  }
  g_isa_override.store(static_cast<int>(isa), std::memory_order_relaxed);
  g_resolved.store(nullptr, std::memory_order_release);
}

void clear_isa_override() {
  g_isa_override.store(-1, std::memory_order_relaxed);
  g_resolved.store(nullptr, std::memory_order_release);
}

void force_blocking(index_t mc, index_t kc, index_t nc, index_t small_n) {
  g_blocking_override = {true, mc < 1 ? 1 : mc, kc < 1 ? 1 : kc, nc < 1 ? 1 : nc, small_n};
  g_resolved.store(nullptr, std::memory_order_release);
}

void clear_blocking_override() {
  g_blocking_override = {};
  g_resolved.store(nullptr, std::memory_order_release);
}

}  // namespace detail

std::string_view active_isa() { return detail::isa_name(detail::active_table().isa); }

}  // namespace teamla::linalg
