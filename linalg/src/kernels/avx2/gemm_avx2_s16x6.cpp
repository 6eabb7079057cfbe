// SPDX-License-Identifier: Apache-2.0
// gemm_avx2_s16x6.cpp: the AVX2+FMA float microkernel, MR x NR = 16 x 6.
//
// Same register plan as the double AVX2 kernel (12 accumulators, 2 A vectors, 1 broadcast),
// with 8 floats per ymm.
#include "kernels/avx2/ops_avx2.hpp"
#include "kernels/avx2/transpose_avx2.hpp"
#include "kernels/kernel_fns.hpp"

namespace teamla::linalg::detail {

KernelFns<float> avx2_kernels_s16x6() {
  return make_kernel_fns<Avx2Ops<float>, 16, 6, &transpose_copy<float>>("avx2_s16x6");
}

}  // namespace teamla::linalg::detail
