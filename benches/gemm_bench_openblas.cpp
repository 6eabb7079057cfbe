// SPDX-License-Identifier: Apache-2.0
// gemm_bench_openblas.cpp: the OpenBLAS arm (cblas; threads by openblas_set_num_threads).
// Run it with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for its AVX-512 kernels.
#include <cblas.h>

#include "gemm_bench_driver.hpp"

extern "C" char* openblas_get_corename();

namespace {

class OpenblasArm final : public teamla::bench::GemmArm {
 public:
  [[nodiscard]] std::string name() const override { return "openblas"; }
  [[nodiscard]] std::string describe() const override {
    return std::string("core=") + openblas_get_corename();
  }
  void set_threads(int threads) override { openblas_set_num_threads(threads); }
  void dgemm(long m, long n, long k, const double* a, const double* b, double* c) override {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, m, b, k, 0.0, c, m);
  }
  void sgemm(long m, long n, long k, const float* a, const float* b, float* c) override {
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0F, a, m, b, k, 0.0F, c, m);
  }
};

}  // namespace

int main(int argc, char** argv) {
  OpenblasArm arm;
  return teamla::bench::run_gemm_bench(arm, argc, argv);
}
