// SPDX-License-Identifier: Apache-2.0
// showcase_eigen.cpp: the showcase's Eigen arm: gemm by Eigen's product, Cholesky by LLT in place.
// Compiled with the same ISA flags as teamla's AVX-512 kernels (run only where the CPU has them),
// and with OpenMP when available so that Eigen's gemm uses every CPU like the other arms.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "showcase.hpp"

namespace teamla::showcase {
namespace {

class EigenArm final : public DenseArm {
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
};

}  // namespace

std::unique_ptr<DenseArm> make_eigen_arm() { return std::make_unique<EigenArm>(); }

}  // namespace teamla::showcase
