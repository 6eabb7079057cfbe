// SPDX-License-Identifier: Apache-2.0
// gemm_avx2_d8x6.cpp: the AVX2+FMA double microkernel, MR x NR = 8 x 6.
//
// Register budget (16 ymm): 2 x 6 = 12 accumulators, 2 A vectors, 1 broadcast of B, 1 spare.
// Per k step: 2 loads of A, 6 broadcasts, 12 FMAs (latency 4-5 x 2 pipes: 12 covers it).
// Compiled with -mavx2 -mfma, the flags of its folder (linalg/CMakeLists.txt).
#include "kernels/avx2/ops_avx2.hpp"
#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"

namespace teamla::linalg::detail {

KernelFns<double> avx2_kernels_d8x6() {
  return make_kernel_fns<Avx2Ops<double>, 8, 6, &transpose_copy<double>>("avx2_d8x6");
}

}  // namespace teamla::linalg::detail
