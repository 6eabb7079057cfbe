// SPDX-License-Identifier: Apache-2.0
// shortfall.hpp: resources teamla asked for and did not get, counted and reported once.
//
// A BLAS runs inside other people's processes, so running out of threads (a cgroup pids.max,
// RLIMIT_NPROC) or memory (a cgroup memory limit, RLIMIT_AS) must not end the process. Each
// place that can run short has a fallback that needs nothing new (fewer threads, smaller
// blocks on the caller's stack) and calls note_shortfall(): the process-wide count of that
// kind goes up, and the first shortfall of each kind prints one line to stderr, so a slower
// run never happens silently. Thread-safe and allocation-free.
#pragma once

#include <cstddef>
#include <cstdint>

namespace teamla::team {

enum class Shortfall : unsigned char {
  threads,  // a worker thread could not be started: the team runs narrower
  memory,   // a workspace could not grow: the kernel ran with small blocks on the stack
  count
};

// note_shortfall(): counts one shortfall of `kind`; the first of its kind prints
// "teamla: <what> (reported once; later ones are counted)" to stderr. `bytes_or_threads`
// is the amount that was refused, for that line.
void note_shortfall(Shortfall kind, std::size_t bytes_or_threads) noexcept;

// shortfalls(): how many shortfalls of `kind` this process has had.
[[nodiscard]] std::uint64_t shortfalls(Shortfall kind) noexcept;

}  // namespace teamla::team
