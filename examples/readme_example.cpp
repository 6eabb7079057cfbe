// SPDX-License-Identifier: Apache-2.0
// readme_example.cpp: the README's example, verbatim between the markers, kept compiling by ctest
// (example_readme_example runs it; example_readme_in_sync compares it with README.md).
// README-BEGIN
#include <teamla/engine/cpu_engine.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  using namespace teamla;
  engine::CpuEngine cpu;                 // a held team of every CPU; TEAMLA_* variables override
  std::vector<double> a = {4, 2, 2, 3};  // A = [4 2; 2 3], column-major, SPD
  std::vector<double> b = {2, 1};        // B = [2; 1]
  cpu.solve_spd(linalg::col_major(a.data(), 2, 2), linalg::col_major(b.data(), 2, 1));
  std::printf("x = [%g, %g] on %zu threads (%s)\n", b[0], b[1], cpu.width(), cpu.isa().data());
  return std::abs(b[0] - 0.5) < 1e-12 && std::abs(b[1]) < 1e-12 ? 0 : 1;  // A x = B
}
// README-END
