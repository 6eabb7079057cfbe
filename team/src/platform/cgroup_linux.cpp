// cgroup_linux.cpp: the CPU quota of the process's cgroup (v2 cpu.max, v1 cfs quota), and the
// usable CPU count that caps every section's width.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "platform/cgroup.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::team {
namespace platform {
namespace {

// read_quota(): the CPUs a quota file grants (ceil(quota / period)); 0 for none or unreadable.
// v2 cpu.max holds "max 100000" or "50000 100000"; v1 keeps quota (-1: none) and period apart.
unsigned read_v2(const std::string& dir) {
  std::ifstream in(dir + "/cpu.max");
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return 0;
  const double q = std::stod(quota);
  return q > 0 ? static_cast<unsigned>(std::ceil(q / period)) : 0;
}

unsigned read_v1(const std::string& dir) {
  std::ifstream quota_in(dir + "/cpu.cfs_quota_us");
  std::ifstream period_in(dir + "/cpu.cfs_period_us");
  double quota = 0;
  double period = 0;
  if (!(quota_in >> quota) || !(period_in >> period) || quota <= 0 || period <= 0) return 0;
  return static_cast<unsigned>(std::ceil(quota / period));
}

// tightest(): the smallest non-zero limit of `dir` and each of its parents up to `root`
// (a parent's quota bounds its children).
template <class Read>
unsigned tightest(const std::string& root, std::string path, Read read) {
  unsigned limit = 0;
  for (;;) {
    const unsigned here = read(root + path);
    if (here != 0 && (limit == 0 || here < limit)) limit = here;
    if (path.empty() || path == "/") break;
    const auto slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? std::string("/") : path.substr(0, slash);
  }
  return limit;
}

}  // namespace

unsigned cgroup_cpu_limit(const std::string& proc_self_cgroup, const std::string& fs_root) {
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  unsigned limit = 0;
  const auto keep = [&](unsigned l) {
    if (l != 0 && (limit == 0 || l < limit)) limit = l;
  };
  while (std::getline(lines, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::path".
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      keep(tightest(fs_root, path, read_v2));
      keep(tightest(fs_root + "/unified", path, read_v2));  // hybrid layout
    } else if (("," + controllers + ",").find(",cpu,") != std::string::npos) {
      keep(tightest(fs_root + "/" + controllers, path, read_v1));
      keep(tightest(fs_root + "/cpu", path, read_v1));
    }
  }
  return limit;
}

}  // namespace platform

unsigned cpu_quota_limit() {
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  return platform::cgroup_cpu_limit(text.str(), "/sys/fs/cgroup");
}

namespace {
std::atomic<unsigned> g_usable{0};
std::atomic<std::uint64_t> g_usable_stamp_ns{0};
}  // namespace

unsigned usable_cpu_count() {
  const std::uint64_t now_ns = monotonic_ns();
  std::uint64_t stamp = g_usable_stamp_ns.load(std::memory_order_relaxed);
  const unsigned cached = g_usable.load(std::memory_order_relaxed);
  if (cached != 0 && now_ns - stamp < kUsableCpusRefreshNs) return cached;
  // One thread re-reads; the others keep the cached value meanwhile.
  if (cached != 0 &&
      !g_usable_stamp_ns.compare_exchange_strong(stamp, now_ns, std::memory_order_relaxed)) {
    return cached;
  }
  unsigned usable = affinity_cpu_count();
  const unsigned quota = cpu_quota_limit();
  if (quota != 0) usable = std::min(usable, quota);
  usable = std::max(usable, 1U);
  g_usable.store(usable, std::memory_order_relaxed);
  g_usable_stamp_ns.store(now_ns, std::memory_order_relaxed);
  return usable;
}

}  // namespace teamla::team
