// SPDX-License-Identifier: Apache-2.0
// isa_table_ref.cpp: the registration table of the portable reference kernels.
//
// These kernels exist for portability and as the test oracle; their blocking is sized for
// the caches of any x86-64 (32 KiB L1d, 256 KiB L2), not tuned. small_n = 0: the reference
// path always packs, so the packing code is what the oracle exercises. serial_gflops: 8.5
// GF/s double, n = 256, TEAMLA_ISA=ref (docs/gemm.md).
#include "isa_dispatch.hpp"

namespace teamla::linalg::detail {

IsaTable isa_table_ref() {
  return IsaTable{
      Isa::ref,
      {ref_kernels_d4x4(),
       Blocking{.mc = 64, .kc = 256, .nc = 2048, .small_n = 0, .serial_gflops = 8.5}},
      {ref_kernels_s4x4(),
       Blocking{.mc = 64, .kc = 512, .nc = 2048, .small_n = 0, .serial_gflops = 8.5}},
  };
}

}  // namespace teamla::linalg::detail
