// SPDX-License-Identifier: Apache-2.0
// isa_table_avx2.cpp: the registration table of the AVX2+FMA kernels.
//
// Measured on the reference machine (AMD EPYC VM, Zen 4 class, L1d 32 KiB, L2 1 MiB) with
// TEAMLA_ISA=avx2; 1-thread GF/s by thread CPU time, median of 7 alternated runs. On this
// core 256-bit FMAs reach the same peak as 512-bit ones (two 256-bit pipes), so this path
// runs as fast as the AVX-512 one: double n = 512 44.4 GF/s, float 94.4 GF/s.
//
// mc, kc, nc (BLIS rules): a kc x NR micro-panel of B in L1 (256 x 6 x 8 B = 12 KiB), an
// mc x kc block of A in about half of L2 (192 x 256 x 8 B = 384 KiB), the B panel in L3.
// small_n = 128: float n = 128 in place 105.8 GF/s vs packed 92.6; double n = 128 48.5 vs
// 47.6 (no loss); larger values were not better for double (256: 48.1).
#include "isa_dispatch.hpp"

namespace teamla::linalg::detail {

IsaTable isa_table_avx2() {
  return IsaTable{
      Isa::avx2,
      {avx2_kernels_d8x6(),
       Blocking{.mc = 192, .kc = 256, .nc = 3072, .small_n = 128, .serial_gflops = 44.0}},
      {avx2_kernels_s16x6(),
       Blocking{.mc = 192, .kc = 512, .nc = 3072, .small_n = 128, .serial_gflops = 94.0}},
  };
}

}  // namespace teamla::linalg::detail
