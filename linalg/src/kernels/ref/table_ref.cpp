// SPDX-License-Identifier: Apache-2.0
// table_ref.cpp: the registration table of the portable reference kernels: gemm's and the
// TRSM/POTRF leaves (kernels/chol_leaf.hpp), with no ISA flags (its folder gets none,
// linalg/CMakeLists.txt).
//
// These kernels exist for portability and as the test oracle; their blocking is sized for
// the caches of any x86-64 (32 KiB L1d, 256 KiB L2), not tuned. small_n = 0: the reference
// path always packs, so the packing code is what the oracle exercises.
// serial_gflops: the 1-thread double rate at n = 256 under TEAMLA_ISA=ref (docs/perf/blocking.md).
#include "isa_dispatch.hpp"
#include "kernels/chol_leaf.hpp"

namespace teamla::linalg::detail {

using level3_detail::CholLeaves;
using level3_detail::TileShape;

namespace {

// The TRSM/POTRF leaves' description of this ISA (kernels/chol_leaf.hpp).
struct LeafRef {
  static constexpr int kVecBytes = 16;
  static constexpr bool kRegisterLeaves = false;
  static constexpr std::array<TileShape, 0> kTiles{};  // the loop serves its 4 x 4 tiles
};

}  // namespace

IsaTable isa_table_ref() {
  return IsaTable{
      Isa::ref,
      {ref_kernels_d4x4(),
       Blocking{.mc = 64, .kc = 256, .nc = 2048, .small_n = 0, .serial_gflops = 8.5},
       &CholLeaves<LeafRef>::table<double>()},
      {ref_kernels_s4x4(),
       Blocking{.mc = 64, .kc = 512, .nc = 2048, .small_n = 0, .serial_gflops = 8.5},
       &CholLeaves<LeafRef>::table<float>()},
  };
}

}  // namespace teamla::linalg::detail
