// SPDX-License-Identifier: Apache-2.0
// gemm_bench_eigen.cpp: the Eigen arm (noalias product on Maps; threads by Eigen::setNbThreads
// under OpenMP). Compiled with the same ISA flags as teamla's AVX-512 kernels.
#include <Eigen/Core>

#include "gemm_bench_driver.hpp"

namespace {

class EigenArm final : public teamla::bench::GemmArm {
 public:
  [[nodiscard]] std::string name() const override { return "eigen"; }
  void set_threads(int threads) override { Eigen::setNbThreads(threads); }
  void dgemm(long m, long n, long k, const double* a, const double* b, double* c) override {
    run(m, n, k, a, b, c);
  }
  void sgemm(long m, long n, long k, const float* a, const float* b, float* c) override {
    run(m, n, k, a, b, c);
  }

 private:
  template <class T>
  void run(long m, long n, long k, const T* a, const T* b, T* c) {
    using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<const M> ma(a, m, k);
    Eigen::Map<const M> mb(b, k, n);
    Eigen::Map<M> mc(c, m, n);
    mc.noalias() = ma * mb;
  }
};

}  // namespace

int main(int argc, char** argv) {
  EigenArm arm;
  return teamla::bench::run_gemm_bench(arm, argc, argv);
}
