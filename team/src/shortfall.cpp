// SPDX-License-Identifier: Apache-2.0
// shortfall.cpp: the process-wide shortfall counts and their one-line reports.
#include "teamla/team/shortfall.hpp"

#include <array>
#include <atomic>
#include <cstdio>

namespace teamla::team {
namespace {

// Trivially destructible: counting stays valid while the process exits.
constinit std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(Shortfall::count)>
    g_counts{};

void report_first(Shortfall kind, std::size_t amount) noexcept {
  const auto value = static_cast<unsigned long long>(amount);
  if (kind == Shortfall::threads) {
    std::fprintf(stderr,
                 "teamla: could not start %llu worker thread(s); teams run narrower (reported "
                 "once; later ones are counted)\n",
                 value);
  } else {
    std::fprintf(stderr,
                 "teamla: could not allocate %llu bytes of workspace; the call ran with small "
                 "blocks on the stack (reported once; later ones are counted)\n",
                 value);
  }
}

}  // namespace

void note_shortfall(Shortfall kind, std::size_t bytes_or_threads) noexcept {
  const auto index = static_cast<std::size_t>(kind);
  if (index >= g_counts.size()) return;
  if (g_counts[index].fetch_add(1, std::memory_order_relaxed) == 0) {
    report_first(kind, bytes_or_threads);
  }
}

std::uint64_t shortfalls(Shortfall kind) noexcept {
  const auto index = static_cast<std::size_t>(kind);
  return index < g_counts.size() ? g_counts[index].load(std::memory_order_relaxed) : 0;
}

}  // namespace teamla::team
