// SPDX-License-Identifier: Apache-2.0
// potrf_bench_arms.hpp: the Eigen arm of potrf_bench, in a translation unit of its own so
// that only it gets Eigen, OpenMP and the AVX-512 flags teamla's kernels use.
#pragma once

namespace teamla::bench {

void eigen_set_threads(int threads);
// eigen_llt() factors the n x n column-major matrix in place with Eigen::LLT (in-place
// decomposition on a Map); returns 0 on success, 1 otherwise.
int eigen_llt(double* a, long n, bool lower);
int eigen_llt(float* a, long n, bool lower);

}  // namespace teamla::bench
