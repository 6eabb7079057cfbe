// SPDX-License-Identifier: Apache-2.0
// showcase_eigen_arm.cpp: the showcase's Eigen arm, an executable of its own: gemm by Eigen's
// product, Cholesky by LLT and LU by PartialPivLU in place. It is built once per ISA
// (showcase_eigen_avx2, showcase_eigen_avx512), each wholly with that ISA's flags, so that no Eigen
// template compiled for AVX-512 can be linked into code that runs on an AVX2 CPU; the showcase runs
// the copy the CPU has, with OpenMP so that Eigen's gemm uses every CPU like the other arms. Not
// Google Benchmark: a child process of the showcase, which is custom.
//
//   showcase_eigen_<isa> [--gemm-only]    prints "gemm N SECONDS", "potrf N SECONDS" and
//                                         "getrf N SECONDS"
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>
#include <cstdio>
#include <cstring>

#include "showcase.hpp"

namespace {

class EigenArm final : public teamla::showcase::DenseArm {
 public:
  void gemm(long n, const double* a, const double* b, double* c) override {
    Eigen::Map<const Eigen::MatrixXd> am(a, n, n), bm(b, n, n);
    Eigen::Map<Eigen::MatrixXd> cm(c, n, n);
    cm.noalias() = am * bm;
  }
  long potrf(long n, double* a) override {
    Eigen::Map<Eigen::MatrixXd> am(a, n, n);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(am);  // factors in place
    return llt.info() == Eigen::Success ? 0 : 1;
  }
  long getrf(long n, double* a, int* /*ipiv*/) override {
    Eigen::Map<Eigen::MatrixXd> am(a, n, n);
    const Eigen::PartialPivLU<Eigen::Ref<Eigen::MatrixXd>> lu(am);  // factors in place
    return 0;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const bool gemm_only = argc == 2 && std::strcmp(argv[1], "--gemm-only") == 0;
  if (argc > 2 || (argc == 2 && !gemm_only)) {
    std::fprintf(stderr, "usage: %s [--gemm-only]\n", argv[0]);
    return 2;
  }
  EigenArm arm;
  return teamla::showcase::run_dense_arm(arm, gemm_only);
}
