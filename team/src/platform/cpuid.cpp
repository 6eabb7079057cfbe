// SPDX-License-Identifier: Apache-2.0
// cpuid.cpp: feature and cache detection with the cpuid instruction.
#include <algorithm>
#include <cstring>

#include "teamla/team/machine.hpp"
#include "teamla/team/process.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace teamla::team {
namespace {

#if defined(__x86_64__) || defined(__i386__)
struct Regs {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

std::uint64_t xgetbv0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

bool bit(unsigned word, unsigned index) { return ((word >> index) & 1U) != 0; }

CpuFeatures detect_features(unsigned max_leaf) {
  CpuFeatures f;
  const Regs l1 = cpuid(1);
  f.sse42 = bit(l1.ecx, 20);
  const bool osxsave = bit(l1.ecx, 27);
  // The OS must save YMM (XCR0 bits 1-2) for AVX, and also opmask/ZMM (bits 5-7) for AVX-512.
  const std::uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  const bool ymm_saved = (xcr0 & 0x6) == 0x6;
  const bool zmm_saved = (xcr0 & 0xE6) == 0xE6;
  f.avx = bit(l1.ecx, 28) && ymm_saved;
  f.fma = bit(l1.ecx, 12) && ymm_saved;
  if (max_leaf >= 7) {
    const Regs l7 = cpuid(7, 0);
    f.avx2 = bit(l7.ebx, 5) && ymm_saved;
    f.avx512f = bit(l7.ebx, 16) && zmm_saved;
    f.avx512dq = bit(l7.ebx, 17) && zmm_saved;
    f.avx512bw = bit(l7.ebx, 30) && zmm_saved;
    f.avx512vl = bit(l7.ebx, 31) && zmm_saved;
  }
  return f;
}

// AMD's older cache leaves: 0x80000005 ECX (L1d KiB in bits 31:24, line in 7:0), 0x80000006
// ECX (L2 KiB in 31:16) and EDX (L3 in 512 KiB units in 31:18). Some hypervisors fill these and
// leave 0x8000001D empty (all zeros); glibc's sysconf reads these older leaves too.
CacheSizes amd_legacy_caches(unsigned max_ext) {
  CacheSizes c;
  if (max_ext >= 0x80000005) {
    const Regs l1 = cpuid(0x80000005);
    c.l1d = static_cast<std::size_t>(l1.ecx >> 24) * 1024;
    if ((l1.ecx & 0xFF) != 0) c.line = l1.ecx & 0xFF;
  }
  if (max_ext >= 0x80000006) {
    const Regs l2 = cpuid(0x80000006);
    c.l2 = static_cast<std::size_t>(l2.ecx >> 16) * 1024;
    c.l3 = static_cast<std::size_t>(l2.edx >> 18) * 512 * 1024;
  }
  return c;
}

// Deterministic cache parameters: leaf 4 (Intel) or 0x8000001D (AMD, with topology
// extensions; the older AMD leaves where it reports nothing).
CacheSizes detect_caches(unsigned max_leaf, bool amd) {
  CacheSizes c;
  unsigned leaf = 4;
  if (amd) {
    const unsigned max_ext = cpuid(0x80000000).eax;
    if (max_ext < 0x8000001D || (cpuid(0x8000001D, 0).eax & 0x1F) == 0) {
      return amd_legacy_caches(max_ext);
    }
    leaf = 0x8000001D;
  } else if (max_leaf < 4) {
    return c;
  }
  for (unsigned sub = 0; sub < 16; ++sub) {
    const Regs r = cpuid(leaf, sub);
    const unsigned type = r.eax & 0x1F;  // 0: no more caches, 1: data, 2: instruction, 3: unified
    if (type == 0) break;
    if (type == 2) continue;
    const unsigned level = (r.eax >> 5) & 0x7;
    const std::size_t ways = ((r.ebx >> 22) & 0x3FF) + 1;
    const std::size_t partitions = ((r.ebx >> 12) & 0x3FF) + 1;
    const std::size_t line = (r.ebx & 0xFFF) + 1;
    const std::size_t sets = static_cast<std::size_t>(r.ecx) + 1;
    const std::size_t size = ways * partitions * line * sets;
    if (level == 1) {
      c.l1d = size;
      c.line = line;
    } else if (level == 2) {
      c.l2 = size;
    } else if (level == 3) {
      c.l3 = size;
    }
  }
  return c;
}

std::string trimmed(std::string s) {
  s.erase(std::find(s.begin(), s.end(), '\0'), s.end());
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

CpuInfo detect() {
  CpuInfo info;
  const Regs l0 = cpuid(0);
  char vendor[13] = {};
  std::memcpy(vendor + 0, &l0.ebx, 4);
  std::memcpy(vendor + 4, &l0.edx, 4);
  std::memcpy(vendor + 8, &l0.ecx, 4);
  info.vendor = vendor;
  const Regs l1 = cpuid(1);
  const unsigned base_family = (l1.eax >> 8) & 0xF;
  const unsigned base_model = (l1.eax >> 4) & 0xF;
  info.family = base_family == 0xF ? base_family + ((l1.eax >> 20) & 0xFF) : base_family;
  info.model = (base_family == 0x6 || base_family == 0xF)
                   ? (((l1.eax >> 16) & 0xF) << 4) | base_model
                   : base_model;
  if (cpuid(0x80000000).eax >= 0x80000004) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      const Regs r = cpuid(0x80000002 + i);
      std::memcpy(brand + 16 * i + 0, &r.eax, 4);
      std::memcpy(brand + 16 * i + 4, &r.ebx, 4);
      std::memcpy(brand + 16 * i + 8, &r.ecx, 4);
      std::memcpy(brand + 16 * i + 12, &r.edx, 4);
    }
    info.brand = trimmed(brand);
  }
  info.features = detect_features(l0.eax);
  info.caches =
      detect_caches(l0.eax, info.vendor == "AuthenticAMD" || info.vendor == "HygonGenuine");
  return info;
}
#else
CpuInfo detect() { return CpuInfo{"unknown", "", 0, 0, {}, {}}; }
#endif

// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): published once
constinit ProcessValue<CpuInfo> g_cpu_info;
}  // namespace

const CpuInfo& cpu_info() { return g_cpu_info.get(detect); }

}  // namespace teamla::team
