// SPDX-License-Identifier: Apache-2.0
// blas_lifecycle_probe.cpp: drives libteamla_blas.so through the ends of its life, for ctest.
//
//   blas_lifecycle_probe LIBRARY unload      dlopen, run a call wide enough to start the
//                                            pool, dlclose, wait, dlopen again and call again
//   blas_lifecycle_probe LIBRARY exit-busy   return from main (exit) while other threads are
//                                            inside calls
//   blas_lifecycle_probe LIBRARY call        one call (with TEAMLA_BLAS_VERBOSE=1, the log
//                                            line shows the engine's width)
//   blas_lifecycle_probe LIBRARY illegal     illegal arguments with no xerbla_ or
//                                            cblas_xerbla in the process: teamla's own
//                                            handlers print the reference messages
//
// Each mode exits 0 on success; a crash or a hang (ctest's timeout) is the failure.
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*);

Dgemm load_dgemm(void* library) { return reinterpret_cast<Dgemm>(dlsym(library, "dgemm_")); }

// square_product_ok(): C = A * B for A = B = all ones (n x n): every entry is n.
bool square_product_ok(Dgemm dgemm, int n) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 1.0);
  std::vector<double> c(a.size(), -1.0);
  const double one = 1.0, zero = 0.0;
  dgemm("N", "N", &n, &n, &n, &one, a.data(), &n, a.data(), &n, &zero, c.data(), &n);
  for (double value : c) {
    if (value != n) return false;
  }
  return true;
}

int unload(const char* path) {
  for (int round = 0; round < 2; ++round) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "dlopen: %s\n", dlerror());
      return 1;
    }
    if (!square_product_ok(load_dgemm(library), 300)) return 1;
    dlclose(library);
    // Any pool thread still running code from an unmapped library would crash here.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  return 0;
}

using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                            int, double, double*, int);

int illegal(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return 1;
  Dgemm dgemm = load_dgemm(library);
  auto cblas_dgemm = reinterpret_cast<CblasDgemm>(dlsym(library, "cblas_dgemm"));
  std::vector<double> a(4, 1.0), c(4, 7.0);
  const int two = 2;
  const double one = 1.0;
  dgemm("X", "N", &two, &two, &two, &one, a.data(), &two, a.data(), &two, &one, c.data(), &two);
  // Row-major with M = -1: reported as 5 (the reference numbering), printed as 4.
  constexpr int kRowMajor = 101, kNoTrans = 111;
  cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, -1, 2, 2, 1.0, a.data(), 2, a.data(), 2, 1.0, c.data(),
              2);
  for (double value : c) {
    if (value != 7.0) return 1;
  }
  std::fprintf(stderr, "outputs untouched\n");
  return 0;
}

int exit_busy(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return 1;
  Dgemm dgemm = load_dgemm(library);
  std::atomic<int> started{0};
  for (int t = 0; t < 3; ++t) {
    std::thread([dgemm, &started] {
      started.fetch_add(1);
      for (;;) square_product_ok(dgemm, 160);
    }).detach();
  }
  while (started.load() < 3) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return 0;  // exit() runs the library's exit handler while the threads are inside calls
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LIBRARY unload|exit-busy|call|illegal\n", argv[0]);
    return 2;
  }
  if (std::strcmp(argv[2], "unload") == 0) return unload(argv[1]);
  if (std::strcmp(argv[2], "exit-busy") == 0) return exit_busy(argv[1]);
  if (std::strcmp(argv[2], "illegal") == 0) return illegal(argv[1]);
  if (std::strcmp(argv[2], "call") == 0) {
    void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    return library != nullptr && square_product_ok(load_dgemm(library), 200) ? 0 : 1;
  }
  return 2;
}
