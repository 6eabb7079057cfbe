// SPDX-License-Identifier: Apache-2.0
// width_cache.cpp: the file of calibrated width decisions (width_cache.hpp).
#include "plan/width_cache.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "teamla/linalg/isa.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/version.hpp"

namespace teamla::linalg::detail {
namespace {

constexpr const char* kFormat = "teamla width cache 1";

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

bool valid_rate(float rate) { return std::isfinite(rate) && rate > 0; }

}  // namespace

std::string machine_key() {
  const team::CpuInfo& cpu = team::cpu_info();
  std::ostringstream key;
  key << cpu.vendor << " family " << cpu.family << " model " << cpu.model << " '" << cpu.brand
      << "' isa " << active_isa() << " cpus " << team::usable_cpu_count() << " kernel "
      << team::kernel_release() << " teamla " << TEAMLA_VERSION_MAJOR << '.' << TEAMLA_VERSION_MINOR
      << '.' << TEAMLA_VERSION_PATCH;
  return key.str();
}

std::string cache_file(const std::string& directory) {
  char name[32];
  std::snprintf(name, sizeof name, "width-%016llx.txt",
                static_cast<unsigned long long>(fnv1a(machine_key())));
  return (std::filesystem::path(directory) / name).string();
}

CacheRead read_width_cache(const std::string& directory, unsigned cells,
                           std::vector<CachedDecision>& out) {
  out.clear();
  std::ifstream file(cache_file(directory));
  if (!file) return CacheRead::none;
  std::string line;
  if (!std::getline(file, line) || line != kFormat) return CacheRead::rejected;
  if (!std::getline(file, line) || line != "key " + machine_key()) return CacheRead::rejected;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    CachedDecision decision;
    int wide = -1;
    std::string rest;
    if (!(fields >> decision.cell >> decision.width >> wide >> decision.serial_ns_per_flop >>
          decision.wide_ns_per_flop) ||
        (fields >> rest) || decision.cell >= cells || decision.width < 2 ||
        (wide != 0 && wide != 1) || !valid_rate(decision.serial_ns_per_flop) ||
        !valid_rate(decision.wide_ns_per_flop)) {
      out.clear();
      return CacheRead::rejected;
    }
    decision.wide = wide == 1;
    out.push_back(decision);
  }
  return CacheRead::loaded;
}

bool write_width_cache(const std::string& directory, const std::vector<CachedDecision>& decisions) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return false;
  const std::string path = cache_file(directory);
  const std::string temporary =
      path + ".tmp" + std::to_string(fnv1a(path + std::to_string(team::monotonic_ns())) % 1000000);
  {
    std::ofstream file(temporary, std::ios::trunc);
    if (!file) return false;
    file << kFormat << "\nkey " << machine_key() << '\n';
    for (const CachedDecision& d : decisions) {
      file << d.cell << ' ' << d.width << ' ' << (d.wide ? 1 : 0) << ' ' << d.serial_ns_per_flop
           << ' ' << d.wide_ns_per_flop << '\n';
    }
    file.flush();
    if (!file) {
      std::filesystem::remove(temporary, error);
      return false;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (!error) return true;
  std::filesystem::remove(temporary, error);
  return false;
}

}  // namespace teamla::linalg::detail
