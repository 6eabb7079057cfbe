// SPDX-License-Identifier: Apache-2.0
// cgroup_linux.cpp: the CPU quota of the process's cgroup (v2 cpu.max, v1 cfs quota), and the
// usable CPU count that caps every section's width. Nothing here allocates: the usable count is
// refreshed from inside calls, and a call after the first must allocate nothing
// (tests/engine/engine_alloc_test.cpp).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "platform/cgroup.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::team {
namespace platform {
namespace {

constexpr std::size_t kPathMax = 4096;

// read_small_file(): up to size-1 bytes of `path`, NUL-terminated; false if unreadable.
bool read_small_file(const char* path, char* out, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = ::read(fd, out, size - 1);
  ::close(fd);
  if (got <= 0) return false;
  out[got] = '\0';
  return true;
}

// The CPUs a quota grants, rounded up; 0 for none or unreadable.
unsigned cpus_of(double quota, double period) {
  return quota > 0 && period > 0 ? static_cast<unsigned>(std::ceil(quota / period)) : 0;
}

// v2: cpu.max holds "max 100000" or "50000 100000".
unsigned read_v2(const char* dir) {
  char path[kPathMax + 32];
  char text[64];
  std::snprintf(path, sizeof path, "%s/cpu.max", dir);
  if (!read_small_file(path, text, sizeof text) || std::strncmp(text, "max", 3) == 0) return 0;
  char* end = nullptr;
  const double quota = std::strtod(text, &end);
  return cpus_of(quota, std::strtod(end, nullptr));
}

// v1: the quota (-1: none) and the period in two files.
unsigned read_v1(const char* dir) {
  char path[kPathMax + 32];
  char quota[32];
  char period[32];
  std::snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
  if (!read_small_file(path, quota, sizeof quota)) return 0;
  std::snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
  if (!read_small_file(path, period, sizeof period)) return 0;
  return cpus_of(std::strtod(quota, nullptr), std::strtod(period, nullptr));
}

// tightest(): the smallest non-zero limit of root+path and each parent up to root (a parent's
// quota bounds its children).
unsigned tightest(std::string_view root, std::string_view path, unsigned (*read)(const char*)) {
  char dir[kPathMax];
  unsigned limit = 0;
  for (;;) {
    if (root.size() + path.size() + 1 > sizeof dir) return limit;
    std::snprintf(dir, sizeof dir, "%.*s%.*s", static_cast<int>(root.size()), root.data(),
                  static_cast<int>(path.size()), path.data());
    const unsigned here = read(dir);
    if (here != 0 && (limit == 0 || here < limit)) limit = here;
    if (path.empty() || path == "/") return limit;
    const std::size_t slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string_view::npos ? std::string_view("/")
                                                         : path.substr(0, slash);
  }
}

}  // namespace

unsigned cgroup_cpu_limit(std::string_view proc_self_cgroup, std::string_view fs_root) {
  unsigned limit = 0;
  const auto keep = [&](unsigned l) {
    if (l != 0 && (limit == 0 || l < limit)) limit = l;
  };
  char base[kPathMax];
  while (!proc_self_cgroup.empty()) {
    const std::size_t eol = proc_self_cgroup.find('\n');
    const std::string_view line = proc_self_cgroup.substr(0, eol);
    proc_self_cgroup =
        eol == std::string_view::npos ? std::string_view() : proc_self_cgroup.substr(eol + 1);
    // "hierarchy-id:controllers:path"; v2 is "0::path".
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string_view path = line.substr(second + 1);
    if (fs_root.size() + controllers.size() + 16 > sizeof base) continue;
    if (controllers.empty()) {
      keep(tightest(fs_root, path, read_v2));
      std::snprintf(base, sizeof base, "%.*s/unified", static_cast<int>(fs_root.size()),
                    fs_root.data());  // the hybrid layout
      keep(tightest(base, path, read_v2));
      continue;
    }
    // A v1 hierarchy whose controllers include "cpu" (e.g. "cpu,cpuacct").
    bool has_cpu = false;
    for (std::string_view rest = controllers; !rest.empty();) {
      const std::size_t comma = rest.find(',');
      has_cpu = has_cpu || rest.substr(0, comma) == "cpu";
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (!has_cpu) continue;
    std::snprintf(base, sizeof base, "%.*s/%.*s", static_cast<int>(fs_root.size()), fs_root.data(),
                  static_cast<int>(controllers.size()), controllers.data());
    keep(tightest(base, path, read_v1));
    std::snprintf(base, sizeof base, "%.*s/cpu", static_cast<int>(fs_root.size()), fs_root.data());
    keep(tightest(base, path, read_v1));
  }
  return limit;
}

}  // namespace platform

unsigned cpu_quota_limit() {
  char text[8192];
  if (!platform::read_small_file("/proc/self/cgroup", text, sizeof text)) return 0;
  return platform::cgroup_cpu_limit(text, "/sys/fs/cgroup");
}

namespace {
std::atomic<unsigned> g_usable{0};
std::atomic<std::uint64_t> g_usable_stamp_ns{0};
}  // namespace

unsigned usable_cpu_count() {
  const std::uint64_t now_ns = coarse_monotonic_ns();
  std::uint64_t stamp = g_usable_stamp_ns.load(std::memory_order_relaxed);
  const unsigned cached = g_usable.load(std::memory_order_relaxed);
  if (cached != 0 && now_ns - stamp < kUsableCpusRefreshNs) return cached;
  // One thread re-reads; the others keep the cached value meanwhile.
  if (cached != 0 &&
      !g_usable_stamp_ns.compare_exchange_strong(stamp, now_ns, std::memory_order_relaxed)) {
    return cached;
  }
  unsigned usable = affinity_cpu_count();
  // Unbound ranks of one job share the node's CPUs (bound ones see their share as affinity).
  if (const unsigned ranks = local_ranks(); ranks > 1 && usable == online_cpu_count()) {
    usable /= ranks;
  }
  const unsigned quota = cpu_quota_limit();
  if (quota != 0) usable = std::min(usable, quota);
  usable = std::max(usable, 1U);
  g_usable.store(usable, std::memory_order_relaxed);
  g_usable_stamp_ns.store(now_ns, std::memory_order_relaxed);
  return usable;
}

}  // namespace teamla::team
