// SPDX-License-Identifier: Apache-2.0
// width_cache.hpp (internal): the file that keeps the width planner's calibrated decisions
// for one machine (width.hpp, "The width cache").
//
// One file per machine in the cache directory, width-<hash>.txt, the hash that of the machine
// key (machine_key()). Its first two lines are the format's name and the key; each further line
// is one cell's decision: "cell width wide serial_ns_per_flop wide_ns_per_flop". A file that
// does not parse whole, or holds another key, is rejected: nothing of it is used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace teamla::linalg::detail {

// CachedDecision: one cell's calibrated decision.
struct CachedDecision {
  unsigned cell = 0;
  std::uint32_t width = 0;  // the width the wide arm was calibrated at
  bool wide = false;
  float serial_ns_per_flop = 0;
  float wide_ns_per_flop = 0;
};

// machine_key(): what a decision depends on besides the work: the CPU (vendor, family, model,
// brand), the active kernels' ISA, the usable CPUs, the OS kernel and the teamla version.
std::string machine_key();

// cache_file(): the file of this machine in `directory`.
std::string cache_file(const std::string& directory);

enum class CacheRead : unsigned char { none, loaded, rejected };

// read_width_cache(): the decisions of this machine's file in `directory` into `out` (cells below
// `cells`). none: no file; rejected: a file that is corrupt or another machine's (`out` empty).
CacheRead read_width_cache(const std::string& directory, unsigned cells,
                           std::vector<CachedDecision>& out);

// write_width_cache(): replaces the file with `decisions` (written to a temporary file renamed
// over it, so a reader never sees half a file), creating `directory` if needed; false when it
// cannot be written (read-only, no space, no such parent).
bool write_width_cache(const std::string& directory, const std::vector<CachedDecision>& decisions);

}  // namespace teamla::linalg::detail
