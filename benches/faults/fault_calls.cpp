// SPDX-License-Identifier: Apache-2.0
// fault_calls.cpp: one dgemm_ or dpotrf_ through a BLAS library (dlopen) while the system
// refuses threads or large allocations, and whether it came back right: the figures of
// docs/perf/faults.md (scripts/fault-table). The refusals are the fault-injection interposers
// of tests/faults, linked into this program and exported to the library it loads.
// Not Google Benchmark: it checks calls made while threads or memory are refused; it times nothing.
//
//   fault_calls <library.so> <none|threads|alloc> <gemm|potrf> <n>
// prints "correct" or "wrong" and exits 0 or 1; a library that aborts or crashes ends the
// process, which the script reports.
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "common/matrices.hpp"
#include "faults/fault_injection.hpp"

namespace {

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*);
using Dpotrf = void (*)(const char*, const int*, double*, const int*, int*);

// multiply(): y = M x (column-major n x n), or with M's lower triangle only.
void multiply(const double* m, int n, const double* x, double* y, bool lower_only) {
  for (int i = 0; i < n; ++i) y[i] = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = lower_only ? j : 0; i < n; ++i) y[i] += m[i + std::size_t(j) * n] * x[j];
  }
}

void arm(const char* fault) {
  if (std::strcmp(fault, "threads") == 0) teamla::faults::refuse_threads();
  if (std::strcmp(fault, "alloc") == 0) teamla::faults::refuse_allocations_from(1 << 20);
}

// gemm_right(): C = A B - C0 checked on random x (Freivalds): C x = A (B x) - C0 x.
bool gemm_right(void* lib, const char* fault, int n) {
  const auto dgemm = reinterpret_cast<Dgemm>(dlsym(lib, "dgemm_"));
  // Operands are made before the fault is armed, so only the library's allocations meet it.
  const auto a = teamla::bench::random_matrix(n, n, 1);
  const auto b = teamla::bench::random_matrix(n, n, 2);
  const auto c0 = teamla::bench::random_matrix(n, n, 3);
  auto c = c0;
  const double one = 1.0, minus_one = -1.0;
  arm(fault);
  dgemm("N", "N", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &minus_one, c.data(), &n);
  teamla::faults::disarm();
  double worst = 0;
  for (int trial = 0; trial < n; trial += 512) {
    std::mt19937 gen(trial);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> xv(n), t(n), u(n), v(n), w(n);
    for (double& e : xv) e = d(gen);
    multiply(b.data(), n, xv.data(), t.data(), false);
    multiply(a.data(), n, t.data(), u.data(), false);
    multiply(c0.data(), n, xv.data(), v.data(), false);
    multiply(c.data(), n, xv.data(), w.data(), false);
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(w[i] - (u[i] - v[i])));
  }
  return worst < 1e-10 * n;
}

// potrf_right(): L L^T = A checked on random x: L (L^T x) = A x.
bool potrf_right(void* lib, const char* fault, int n) {
  const auto dpotrf = reinterpret_cast<Dpotrf>(dlsym(lib, "dpotrf_"));
  const auto a = teamla::bench::spd_matrix(n, 5);  // symmetric, SPD by diagonal dominance
  auto l = a;
  int info = -1;
  arm(fault);
  dpotrf("L", &n, l.data(), &n, &info);
  teamla::faults::disarm();
  if (info != 0) return false;
  std::vector<double> x(n), lt_x(n, 0.0), llt_x(n), ax(n);
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (double& e : x) e = d(gen);
  for (int j = 0; j < n; ++j) {  // (L^T x)_j = sum_{i >= j} L(i, j) x_i
    for (int i = j; i < n; ++i) lt_x[j] += l[i + std::size_t(j) * n] * x[i];
  }
  multiply(l.data(), n, lt_x.data(), llt_x.data(), true);
  multiply(a.data(), n, x.data(), ax.data(), false);
  double worst = 0;
  for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(llt_x[i] - ax[i]) / n);
  return worst < 1e-12 * n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: fault_calls <library.so> <none|threads|alloc> <gemm|potrf> <n>\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "fault_calls: %s\n", dlerror());
    return 2;
  }
  const int n = std::atoi(argv[4]);
  const bool right = std::strcmp(argv[3], "potrf") == 0 ? potrf_right(lib, argv[2], n)
                                                        : gemm_right(lib, argv[2], n);
  std::printf("%s\n", right ? "correct" : "wrong");
  return right ? 0 : 1;
}
