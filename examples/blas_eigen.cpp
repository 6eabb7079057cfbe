// SPDX-License-Identifier: Apache-2.0
// blas_eigen.cpp: Eigen with EIGEN_USE_BLAS, running its BLAS calls on teamla via LD_PRELOAD.
//
// Built against the system BLAS (libblas.so.3), like any EIGEN_USE_BLAS program; run as
//
//   LD_PRELOAD=/path/to/libteamla_blas.so TEAMLA_BLAS_VERBOSE=1 ./blas_eigen
//
// Eigen's large products then call dgemm_, and its blocked Cholesky (LLT) calls dtrsm_ and
// dgemm_/dsyrk_, all served by teamla. The one-line check: the program asks the dynamic
// linker which library its dgemm_ comes from, and the verbose log names what teamla served.
#define EIGEN_USE_BLAS
#include <dlfcn.h>

#include <Eigen/Dense>
#include <cstdio>
#include <cstring>

int main() {
  // The dgemm_ this program's calls bind to: the first in the global scope.
  void* const dgemm = dlsym(RTLD_DEFAULT, "dgemm_");
  Dl_info where{};
  const bool found = dgemm != nullptr && dladdr(dgemm, &where) != 0;
  const char* provider = found && where.dli_fname != nullptr ? where.dli_fname : "?";
  std::printf("dgemm_ comes from %s\n", provider);

  const Eigen::Index n = 400;
  const Eigen::MatrixXd a = Eigen::MatrixXd::Random(n, n);
  const Eigen::MatrixXd spd =
      a * a.transpose() + static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
  const Eigen::VectorXd x = Eigen::VectorXd::Random(n);
  const Eigen::VectorXd rhs = spd * x;
  const Eigen::LLT<Eigen::MatrixXd> llt(spd);
  const double error = (llt.solve(rhs) - x).cwiseAbs().maxCoeff();
  std::printf("LLT solve of an SPD %ldx%ld system: max error %.2e\n", static_cast<long>(n),
              static_cast<long>(n), error);

  if (llt.info() != Eigen::Success || error > 1e-10) {
    std::printf("FAILED: wrong result\n");
    return 1;
  }
  if (std::strstr(provider, "teamla_blas") == nullptr) {
    std::printf("FAILED: dgemm_ is not teamla's (run with LD_PRELOAD=libteamla_blas.so)\n");
    return 1;
  }
  std::printf("Eigen on teamla: results correct\n");
  return 0;
}
