// SPDX-License-Identifier: Apache-2.0
// call_log.cpp: the TEAMLA_BLAS_VERBOSE log of served calls (see call_log.hpp).
#include "call_log.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "process_engine.hpp"
#include "teamla/version.hpp"

namespace teamla::blas {
namespace {

constexpr std::array<const char*, static_cast<std::size_t>(Entry::count)> kNames = {
#define TEAMLA_ENTRY(name) #name,
#include "call_log_entries.inc"
#undef TEAMLA_ENTRY
};

// Trivially destructible, so counting stays valid during exit.
constinit std::array<std::atomic<std::uint64_t>, kNames.size()> g_served{};

// The calling thread's last call's width.
constinit thread_local std::size_t t_last_call_threads = 0;

void print_summary() {
  std::fprintf(stderr, "teamla_blas: calls served:");
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    const std::uint64_t calls = g_served[i].load(std::memory_order_relaxed);
    if (calls != 0) {
      std::fprintf(stderr, " %s %llu", kNames[i], static_cast<unsigned long long>(calls));
    }
  }
  std::fprintf(stderr, "\n");
}

}  // namespace

std::size_t last_call_threads() { return t_last_call_threads; }
void set_last_call_threads(std::size_t threads) { t_last_call_threads = threads; }

void note_served_verbose(Entry entry, int m, int n, int k) {
  const auto index = static_cast<std::size_t>(entry);
  // The counts are kept only when verbose: unverbose calls pay no atomic increment.
  const int level = verbosity();
  if (level <= 0) return;
  const std::uint64_t before = g_served[index].fetch_add(1, std::memory_order_relaxed);
  if (level == 1 && before != 0) return;
  static std::once_flag summary;
  std::call_once(summary, [] {
    std::fprintf(stderr, "teamla_blas: teamla %s\n", TEAMLA_VERSION_STRING);
    std::atexit(print_summary);
  });
  char engine_text[96];
  describe_engine(engine_text, sizeof engine_text);
  // The threads are the most this call could use: the engine's width capped by the calling
  // thread's count (openblas_set_num_threads).
  const std::size_t threads = last_call_threads();
  if (level == 1) {
    std::fprintf(stderr, "teamla_blas: %s served by teamla (%s, threads %zu)\n", kNames[index],
                 engine_text, threads);
  } else {
    std::fprintf(stderr, "teamla_blas: %s m=%d n=%d k=%d (%s, threads %zu)\n", kNames[index], m, n,
                 k, engine_text, threads);
  }
}

}  // namespace teamla::blas
