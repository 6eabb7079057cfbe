// SPDX-License-Identifier: Apache-2.0
// potrf_bench_eigen.cpp: Eigen's LLT arm (in place on a Map, threads by Eigen::setNbThreads
// under OpenMP). Compiled with the same ISA flags as teamla's AVX-512 kernels.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "potrf_bench_arms.hpp"

namespace teamla::bench {
namespace {

template <class T>
int run(T* a, long n, bool lower) {
  using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  Eigen::Map<M> map(a, n, n);
  if (lower) {
    Eigen::LLT<Eigen::Ref<M>, Eigen::Lower> llt(map);
    return llt.info() == Eigen::Success ? 0 : 1;
  }
  Eigen::LLT<Eigen::Ref<M>, Eigen::Upper> llt(map);
  return llt.info() == Eigen::Success ? 0 : 1;
}

}  // namespace

void eigen_set_threads(int threads) { Eigen::setNbThreads(threads); }
int eigen_llt(double* a, long n, bool lower) { return run(a, n, lower); }
int eigen_llt(float* a, long n, bool lower) { return run(a, n, lower); }

}  // namespace teamla::bench
