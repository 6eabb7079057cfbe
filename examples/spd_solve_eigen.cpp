// SPDX-License-Identifier: Apache-2.0
// spd_solve_eigen.cpp: the same solve on Eigen matrices, row-major A and column-major B, in
// place (no copies into teamla's format), checked against Eigen's own LLT.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstdio>

#include "teamla/engine/eigen.hpp"

int main() {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Index n = 400;
  const RowMajor g = RowMajor::Random(n, n);
  const RowMajor a = g * g.transpose() / double(n) + RowMajor::Identity(n, n);
  const Eigen::MatrixXd b = Eigen::MatrixXd::Random(n, 3);

  teamla::engine::CpuEngine cpu;
  RowMajor factor = a;    // overwritten by L
  Eigen::MatrixXd x = b;  // overwritten by the solution
  cpu.solve_spd(factor, x);

  const double residual = (a * x - b).cwiseAbs().maxCoeff();
  const double vs_eigen = (x - a.llt().solve(b)).cwiseAbs().maxCoeff();
  std::printf("Eigen %td x %td, row-major A, col-major B, on %zu threads (%s)\n", n, n, cpu.width(),
              cpu.isa().data());
  std::printf("max |A x - b| = %.3g, max |x - Eigen LLT x| = %.3g\n", residual, vs_eigen);
  return residual < 1e-10 && vs_eigen < 1e-10 ? 0 : 1;
}
