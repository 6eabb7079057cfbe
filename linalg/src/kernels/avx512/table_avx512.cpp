// SPDX-License-Identifier: Apache-2.0
// table_avx512.cpp: the registration table of the AVX-512 kernels: gemm's and the TRSM/POTRF
// leaves (kernels/chol_leaf.hpp), compiled with the ISA flags of its folder
// (linalg/CMakeLists.txt).
//
// mc, kc, nc (BLIS rules): a kc x NR micro-panel of B stays in L1 (256 x 8 x 8 B = 16 KiB;
// float 512 x 8 x 4 B = 16 KiB), an mc x kc block of A takes about half of a 1 MiB L2 (240 x
// 256 x 8 B = 480 KiB), a kc x nc panel of B lives in L3.
// mc, kc: the fastest of the sizes tried at n = 512 (docs/perf/blocking.md).
// small_n: the largest n tried at which reading A and B in place beat packing them
// (docs/perf/blocking.md).
// serial_gflops: the cost model's serial rate, the 1-thread rate at n = 512-1024
// (docs/perf/blocking.md).
#include "isa_dispatch.hpp"
#include "kernels/chol_leaf.hpp"

namespace teamla::linalg::detail {

using level3_detail::CholLeaves;
using level3_detail::TileShape;

namespace {

// The TRSM/POTRF leaves' description of this ISA (kernels/chol_leaf.hpp).
struct LeafAvx512 {
  static constexpr int kVecBytes = 64;
  static constexpr bool kRegisterLeaves = true;
  static constexpr std::array<TileShape, 2> kTiles{{{24, 8}, {48, 8}}};
};

}  // namespace

IsaTable isa_table_avx512() {
  return IsaTable{
      Isa::avx512,
      {avx512_kernels_d24x8(),
       Blocking{.mc = 240, .kc = 256, .nc = 4096, .small_n = 256, .serial_gflops = 45.0},
       &CholLeaves<LeafAvx512>::table<double>()},
      {avx512_kernels_s48x8(),
       Blocking{.mc = 240, .kc = 512, .nc = 4096, .small_n = 256, .serial_gflops = 95.0},
       &CholLeaves<LeafAvx512>::table<float>()},
  };
}

}  // namespace teamla::linalg::detail
