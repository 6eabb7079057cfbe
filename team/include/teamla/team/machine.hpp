// SPDX-License-Identifier: Apache-2.0
// machine.hpp: what teamla knows about the CPU it runs on.
//
// These are the facts the runtime and the kernels decide with: how many CPUs the process may
// use (its affinity set, so `taskset -c 0` gives 1), which vector ISAs the CPU *and* the OS
// support, the cache sizes that size the GEMM blocks, and a cheap clock. All functions are
// thread-safe. cpu_info() is computed once; affinity_cpu_count() is re-read on every call,
// because the affinity mask of a process can change while it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace teamla::team {

// CpuFeatures: vector ISA support. A flag is true only when the CPU reports it and the OS
// saves the register state it needs (XCR0), so a true flag is safe to execute.
struct CpuFeatures {
  bool sse42 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512dq = false;
  bool avx512bw = false;
  bool avx512vl = false;

  // has_avx2_fma() is the AVX2 kernel's requirement; has_avx512() the AVX-512 kernel's.
  [[nodiscard]] bool has_avx2_fma() const { return avx2 && fma; }
  [[nodiscard]] bool has_avx512() const { return avx512f && avx512dq && avx512bw && avx512vl; }
};

// CacheSizes: data cache sizes in bytes, per core for L1d and L2, per package for L3.
// A level the CPU does not report is 0.
struct CacheSizes {
  std::size_t l1d = 0;
  std::size_t l2 = 0;
  std::size_t l3 = 0;
  std::size_t line = 64;
};

struct CpuInfo {
  std::string vendor;  // "AuthenticAMD", "GenuineIntel", ...
  std::string brand;   // the brand string, trimmed
  unsigned family = 0;
  unsigned model = 0;
  CpuFeatures features;
  CacheSizes caches;
};

// cpu_info() returns the CPU's identity, features and caches, detected once by cpuid.
const CpuInfo& cpu_info();

// affinity_cpu_count() returns the number of CPUs in the calling thread's affinity set (>= 1).
unsigned affinity_cpu_count();

// cpu_quota_limit() returns the CPUs the process's cgroup quota grants, rounded up (cgroup v2
// cpu.max or v1 cfs quota, the tightest of its cgroup and their parents); 0 when there is no
// quota. It reads files: not for a hot path.
unsigned cpu_quota_limit();

// local_ranks() is the number of ranks of an MPI job on this node, from the launcher's
// environment (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH's MPI_LOCALNRANKS), read once;
// 1 outside one.
unsigned local_ranks();

// usable_cpu_count() returns min(affinity_cpu_count(), cpu_quota_limit()): the widest section
// that can run at once. When local_ranks() > 1 and the affinity set is every online CPU (the
// ranks are not bound), the ranks share those CPUs, so each gets affinity / ranks (at least
// 1): ranks x threads never oversubscribe the node by themselves (docs/distributed.md). It is
// cached and re-read at most every kUsableCpusRefreshNs, so a width follows a changed
// affinity set or quota within that bound, and a call pays one clock read.
inline constexpr std::uint64_t kUsableCpusRefreshNs = 100'000'000;
unsigned usable_cpu_count();

// online_cpu_count() returns the number of CPUs online in the machine (>= 1).
unsigned online_cpu_count();

// kernel_release() names the running OS kernel (uname's release, e.g. "6.1.0-18-amd64"; ""
// where there is none): what decides scheduling and wake-up costs besides the CPU.
std::string kernel_release();

// monotonic_ns() reads CLOCK_MONOTONIC in nanoseconds (its cost: docs/perf/waits.md, "Wait
// primitives").
std::uint64_t monotonic_ns();

// spin_poll_ns() is the cost of one spin poll (an atomic load and cpu_relax()), measured once
// per process (the fastest of 5 timed runs of 2000 polls): the PAUSE alone costs several times
// more on some CPUs than on others, so spin budgets given as times are converted through it.
double spin_poll_ns();

// coarse_monotonic_ns() reads CLOCK_MONOTONIC_COARSE (the last tick: a few ns to read, a few
// ms of resolution), for checks that run on every call but need only a coarse time.
std::uint64_t coarse_monotonic_ns();

// read_tsc() reads the time-stamp counter; 0 where there is none. Ticks, not ns.
std::uint64_t read_tsc();

// cpu_relax() is one spin-wait hint: PAUSE on x86-64, YIELD on AArch64, a no-op elsewhere
// (PAUSE's cost per CPU: docs/perf/waits.md, "Wait primitives").
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace teamla::team
