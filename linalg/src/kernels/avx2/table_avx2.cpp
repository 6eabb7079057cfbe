// SPDX-License-Identifier: Apache-2.0
// table_avx2.cpp: the registration table of the AVX2+FMA kernels: gemm's and the TRSM/POTRF
// leaves (kernels/chol_leaf.hpp), compiled with the ISA flags of its folder
// (linalg/CMakeLists.txt).
//
// mc, kc, nc (BLIS rules): a kc x NR micro-panel of B in L1 (256 x 6 x 8 B = 12 KiB), an
// mc x kc block of A in about half of L2 (192 x 256 x 8 B = 384 KiB), the B panel in L3.
// small_n: in place beat packing at n = 128 for float and tied for double, and a larger value
// gained nothing for double (docs/perf/blocking.md).
// serial_gflops: the cost model's serial rate, the 1-thread rate at n = 512
// (docs/perf/blocking.md).
#include "isa_dispatch.hpp"
#include "kernels/chol_leaf.hpp"

namespace teamla::linalg::detail {

using level3_detail::CholLeaves;
using level3_detail::TileShape;

namespace {

// The TRSM/POTRF leaves' description of this ISA (kernels/chol_leaf.hpp).
struct LeafAvx2 {
  static constexpr int kVecBytes = 32;
  static constexpr bool kRegisterLeaves = true;
  static constexpr std::array<TileShape, 2> kTiles{{{8, 6}, {16, 6}}};
};

}  // namespace

IsaTable isa_table_avx2() {
  return IsaTable{
      Isa::avx2,
      {avx2_kernels_d8x6(),
       Blocking{.mc = 192, .kc = 256, .nc = 3072, .small_n = 128, .serial_gflops = 44.0},
       &CholLeaves<LeafAvx2>::table<double>()},
      {avx2_kernels_s16x6(),
       Blocking{.mc = 192, .kc = 512, .nc = 3072, .small_n = 128, .serial_gflops = 94.0},
       &CholLeaves<LeafAvx2>::table<float>()},
  };
}

}  // namespace teamla::linalg::detail
