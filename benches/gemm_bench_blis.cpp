// SPDX-License-Identifier: Apache-2.0
// gemm_bench_blis.cpp: the BLIS arm (typed API bli_?gemm; threads by
// bli_thread_set_num_threads). Run it with BLIS_ARCH_TYPE=0 (skx kernels) on this CPU.
#include <blis.h>

#include "gemm_bench_driver.hpp"

namespace {

class BlisArm final : public teamla::bench::GemmArm {
 public:
  [[nodiscard]] std::string name() const override { return "blis"; }
  [[nodiscard]] std::string describe() const override {
    return std::string("arch=") + bli_arch_string(bli_arch_query_id());
  }
  void set_threads(int threads) override { bli_thread_set_num_threads(threads); }
  void dgemm(long m, long n, long k, const double* a, const double* b, double* c) override {
    double one = 1.0;
    double zero = 0.0;
    bli_dgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<double*>(a), 1, m,
              const_cast<double*>(b), 1, k, &zero, c, 1, m);
  }
  void sgemm(long m, long n, long k, const float* a, const float* b, float* c) override {
    float one = 1.0F;
    float zero = 0.0F;
    bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<float*>(a), 1, m,
              const_cast<float*>(b), 1, k, &zero, c, 1, m);
  }
};

}  // namespace

int main(int argc, char** argv) {
  BlisArm arm;
  return teamla::bench::run_gemm_bench(arm, argc, argv);
}
