// SPDX-License-Identifier: Apache-2.0
// spd_solve_arrays.cpp: solve A X = B for a symmetric positive definite A held in plain arrays,
// column-major, with CpuEngine. Checks the residual and exits 1 if it is not small.
#include <cmath>
#include <cstdio>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"

int main() {
  using namespace teamla;
  const linalg::index_t n = 500, nrhs = 4;

  // A = the 1-D Laplacian plus 1 on the diagonal: tridiagonal [-1 3 -1], SPD.
  std::vector<double> a(n * n, 0.0);
  for (linalg::index_t i = 0; i < n; ++i) {
    a[i + i * n] = 3.0;
    if (i + 1 < n) a[(i + 1) + i * n] = a[i + (i + 1) * n] = -1.0;
  }
  std::vector<double> b(n * nrhs);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.01 * double(i));

  engine::CpuEngine cpu;
  std::vector<double> factor = a, x = b;  // solve_spd overwrites both
  cpu.solve_spd(linalg::col_major(factor.data(), n, n), linalg::col_major(x.data(), n, nrhs));

  double worst = 0;  // max |A x - b|
  for (linalg::index_t j = 0; j < nrhs; ++j)
    for (linalg::index_t i = 0; i < n; ++i) {
      double sum = 0;
      for (linalg::index_t p = 0; p < n; ++p) sum += a[i + p * n] * x[p + j * n];
      worst = std::fmax(worst, std::fabs(sum - b[i + j * n]));
    }
  std::printf("solved a %td x %td SPD system with %td right-hand sides on %zu threads (%s)\n", n, n,
              nrhs, cpu.width(), cpu.isa().data());
  std::printf("max |A x - b| = %.3g\n", worst);
  return worst < 1e-10 ? 0 : 1;
}
