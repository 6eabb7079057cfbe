// SPDX-License-Identifier: Apache-2.0
// abi_ab.cpp: dgemm_ through two BLAS libraries in one process, arms alternated, for the cost of
// the call path (per-call overhead at tiny sizes) and the small/medium-size speed.
//
//   g++ -O2 -std=c++20 engine/blas/tools/abi_ab.cpp -o /tmp/abi_ab -ldl
//   flock /tmp/teamla-bench.lock env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
//     /tmp/abi_ab build/release/engine/blas/libteamla_blas.so \
//                 /usr/lib/x86_64-linux-gnu/libblas.so.3
//
// Both libraries are dlopen'ed RTLD_LOCAL, so each call goes to the library named. For each
// size, 9 rounds alternate the arms; a round times a batch of calls; the report is the median
// ns per call and teamla's ratio (first library / second).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*);

double batch_ns_per_call(Dgemm dgemm, int n, int calls) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0.5), c(a.size(), 0.0);
  const double one = 1.0, zero = 0.0;
  const auto start = std::chrono::steady_clock::now();
  for (int call = 0; call < calls; ++call) {
    dgemm("N", "N", &n, &n, &n, &one, a.data(), &n, a.data(), &n, &zero, c.data(), &n);
  }
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() / calls;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LIBRARY_A LIBRARY_B\n", argv[0]);
    return 2;
  }
  Dgemm arms[2];
  for (int arm = 0; arm < 2; ++arm) {
    void* library = dlopen(argv[1 + arm], RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "%s\n", dlerror());
      return 1;
    }
    arms[arm] = reinterpret_cast<Dgemm>(dlsym(library, "dgemm_"));
  }
  std::printf("%6s %14s %14s %7s\n", "n", "A ns/call", "B ns/call", "A/B");
  for (int n : {1, 4, 16, 32, 64, 128, 256}) {
    const int calls = std::max(3, static_cast<int>(2e8 / (2.0 * n * n * n + 2e3)));
    std::vector<double> samples[2];
    for (int arm = 0; arm < 2; ++arm) batch_ns_per_call(arms[arm], n, calls);  // warm-up
    for (int round = 0; round < 9; ++round) {
      for (int arm = 0; arm < 2; ++arm)
        samples[arm].push_back(batch_ns_per_call(arms[arm], n, calls));
    }
    const double a = median(samples[0]);
    const double b = median(samples[1]);
    std::printf("%6d %14.0f %14.0f %7.2f\n", n, a, b, a / b);
  }
  return 0;
}
