// showcase: what teamla sees of this machine. scripts/demo runs it.
#include <cstdio>

#include "teamla/team/machine.hpp"

int main() {
  using namespace teamla::team;
  const CpuInfo& cpu = cpu_info();
  const CpuFeatures& f = cpu.features;
  std::printf("teamla showcase\n");
  std::printf("  CPU       %s (%s, family %u model %u)\n", cpu.brand.c_str(), cpu.vendor.c_str(),
              cpu.family, cpu.model);
  std::printf("  CPUs      %u in the affinity set, %u online\n", affinity_cpu_count(),
              online_cpu_count());
  std::printf("  ISA       avx2=%d fma=%d avx512f=%d dq=%d bw=%d vl=%d -> kernels: %s\n", f.avx2, f.fma,
              f.avx512f, f.avx512dq, f.avx512bw, f.avx512vl,
              f.has_avx512() ? "avx512" : (f.has_avx2_fma() ? "avx2" : "ref"));
  std::printf("  caches    L1d %zu KiB, L2 %zu KiB, L3 %zu KiB, line %zu B\n", cpu.caches.l1d / 1024,
              cpu.caches.l2 / 1024, cpu.caches.l3 / 1024, cpu.caches.line);
  return 0;
}
