// SPDX-License-Identifier: Apache-2.0
// dense_bench_eigen.cpp: the Eigen arm of the dense benchmarks (a noalias product on Maps, and
// LLT in place; threads by Eigen::setNbThreads under OpenMP), on Google Benchmark. Built once
// per ISA (dense_bench_eigen_avx2, dense_bench_eigen_avx512), each wholly compiled with that
// ISA's flags; the scripts run the one the CPU has.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "dense_bench.hpp"

namespace {

class EigenArm {
 public:
  [[nodiscard]] std::string describe() const {
    return "eigen=" + std::to_string(EIGEN_WORLD_VERSION) + "." +
           std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION);
  }
  void set_threads(int threads) { Eigen::setNbThreads(threads); }

  static constexpr bool kComplex = true;
  template <class T>
  void gemm(long m, long n, long k, const T* a, const T* b, T* c) {
    using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<M>(c, m, n).noalias() = Eigen::Map<const M>(a, m, k) * Eigen::Map<const M>(b, k, n);
  }
  template <class T>
  int potrf(long n, T* a) {
    using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<M> map(a, n, n);
    Eigen::LLT<Eigen::Ref<M>, Eigen::Lower> llt(map);
    return llt.info() == Eigen::Success ? 0 : 1;
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  EigenArm arm;
  return teamla::bench::run_dense_bench(arm, argc, argv);
}
