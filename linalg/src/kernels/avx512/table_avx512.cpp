// SPDX-License-Identifier: Apache-2.0
// isa_table_avx512.cpp: the registration table of the AVX-512 kernels.
//
// Measured on the reference machine: AMD EPYC VM, family 25 model 17 (Zen 4 class: 512-bit
// FMAs issue at one per cycle), 2 vCPUs, L1d 32 KiB, L2 1 MiB; a pure FMA loop peaks at
// ~58 GF/s double, ~116 GF/s float per core. Figures are 1-thread GF/s by thread CPU time,
// median of 7 alternated runs (a tuning harness not kept in the repository; docs/gemm.md),
// with other builds running.
//
// mc, kc, nc (BLIS rules): a kc x NR micro-panel of B stays in L1 (256 x 8 x 8 B = 16 KiB;
// float 512 x 8 x 4 B = 16 KiB), an mc x kc block of A takes about half of L2 (240 x 256 x
// 8 B = 480 KiB), a kc x nc panel of B lives in L3. n = 512 double: mc/kc 240/256 49.8 GF/s,
// 480/256 ~ same; float 240/512 101.9 GF/s against 240/256 97.0 and 480/256 96.0.
// small_n = 256: below it, reading A and B in place beats packing them: double n = 128:
// 54.4 GF/s (in place) vs 50.0 (packed); n = 192: 55.2 vs 50.6; n = 256: 57.5 vs 47.7; at
// n = 384 packing wins (45.6 vs 42.8), and at 512 clearly (49.8 vs 40.7). Float n = 128:
// 102.1 vs 92.6; n = 256: 97.3 vs 91.5.
// serial_gflops (the cost model's serial rate): double 45 (n = 512..1024 measured 44-50),
// float 95 (n = 512: 94-102).
#include "isa_dispatch.hpp"

namespace teamla::linalg::detail {

IsaTable isa_table_avx512() {
  return IsaTable{
      Isa::avx512,
      {avx512_kernels_d24x8(),
       Blocking{.mc = 240, .kc = 256, .nc = 4096, .small_n = 256, .serial_gflops = 45.0}},
      {avx512_kernels_s48x8(),
       Blocking{.mc = 240, .kc = 512, .nc = 4096, .small_n = 256, .serial_gflops = 95.0}},
  };
}

}  // namespace teamla::linalg::detail
