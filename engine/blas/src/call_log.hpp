// SPDX-License-Identifier: Apache-2.0
// call_log.hpp: which exported routines served calls, for TEAMLA_BLAS_VERBOSE.
//
// TEAMLA_BLAS_VERBOSE=1 prints the release first ("teamla_blas: teamla 0.1.0", from
// teamla/version.hpp), then one line to stderr at the first call of each exported routine
// ("teamla_blas: dgemm_ served by teamla (engine held, width 2, isa avx512, threads 2)",
// threads being the most that call could use: see process_engine.hpp) and, at exit,
// the number of calls each routine served and the engine's counters (calls on the team,
// contended calls, sleeps, preemptions). TEAMLA_BLAS_VERBOSE=2 prints a line per call.
// Unset or 0: nothing is printed or counted; a call only reads the level. Thread-safe.
#pragma once

#include <cstddef>

#include "verbosity.hpp"

namespace teamla::blas {

enum class Entry : unsigned short {
#define TEAMLA_ENTRY(name) name,
#include "call_log_entries.inc"
#undef TEAMLA_ENTRY
  count
};

// last_call_threads(): the most threads the calling thread's last call could use (0 before
// one; 1 for a call run inline), for the verbose log. set_last_call_threads() records it
// (abi_routines.hpp, abi_routines.cpp).
[[nodiscard]] std::size_t last_call_threads();
void set_last_call_threads(std::size_t threads);

// note_served(): `entry` computed a result (its arguments were legal); its dimensions are
// printed at verbosity 2 only (for potrf/potrs/posv: n, nrhs; unused ones are 0). Unverbose,
// it is the compare above and nothing else.
void note_served_verbose(Entry entry, int m, int n, int k);
inline void note_served(Entry entry, int m, int n, int k) {
  if (verbosity() > 0) note_served_verbose(entry, m, n, k);
}

}  // namespace teamla::blas
