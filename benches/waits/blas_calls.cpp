// SPDX-License-Identifier: Apache-2.0
// blas_calls.cpp: the per-call time distribution of dgemm_ (or dgetrf_, zgemm_) through one BLAS
// library. Not Google Benchmark: its output is a per-call distribution (p50/p99/max, slow share).
//
//   blas_calls --library PATH [--routine gemm|getrf|zgemm] [--n 128] [--calls 2000] [--gap-us 0]
//              [--out FILE]
//
// The library is dlopen'ed (RTLD_LOCAL) and called exactly as an application would; its own
// environment (TEAMLA_MODE, TEAMLA_NUM_THREADS, OPENBLAS_NUM_THREADS, ...) picks the arm. After
// 50 warm-up calls, each of `calls` calls is timed alone (steady_clock around the call), with an
// optional sleep of gap-us between calls. getrf factors the same matrix every call: it is
// copied back before each call, outside the timed region. Output: one JSON object with the summary
// (p50, p90, p99, max, in us) and every sample, for scripts/bench-calls to compare arms run in
// separate processes. A custom driver rather than Google Benchmark because the output is the
// per-call distribution (its tail is the finding), not a mean rate.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/args.hpp"
#include "common/stats.hpp"

namespace {

using teamla::bench::ArgCursor;
using teamla::bench::quantile_of_sorted;

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*);
using Dgetrf = void (*)(const int*, const int*, double*, const int*, int*, int*);

struct Options {
  std::string library;
  std::string routine = "gemm";
  int n = 128;
  int calls = 2000;
  int gap_us = 0;
  std::string out;
};

bool parse(int argc, char** argv, Options& o) {
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    if (!cursor.has_value()) return false;
    const char* value = cursor.value();
    if (arg == "--library") {
      o.library = value;
    } else if (arg == "--routine") {
      o.routine = value;
    } else if (arg == "--n") {
      o.n = std::atoi(value);
    } else if (arg == "--calls") {
      o.calls = std::atoi(value);
    } else if (arg == "--gap-us") {
      o.gap_us = std::atoi(value);
    } else if (arg == "--out") {
      o.out = value;
    } else {
      return false;
    }
  }
  return !o.library.empty() &&
         (o.routine == "gemm" || o.routine == "getrf" || o.routine == "zgemm") && o.n > 0 &&
         o.calls > 0 && o.gap_us >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: blas_calls --library PATH [--routine gemm|getrf|zgemm] [--n N] "
                 "[--calls C] "
                 "[--gap-us G] [--out F]\n");
    return 2;
  }
  void* library = dlopen(o.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "blas_calls: %s\n", dlerror());
    return 1;
  }
  const bool complex = o.routine == "zgemm";  // zgemm_: complex arrays as pairs of doubles
  const std::string symbol = complex ? "zgemm_" : "d" + o.routine + "_";
  void* routine = dlsym(library, symbol.c_str());
  if (routine == nullptr) {
    std::fprintf(stderr, "blas_calls: no %s in %s\n", symbol.c_str(), o.library.c_str());
    return 1;
  }
  const int n = o.n;
  const std::size_t values = static_cast<std::size_t>(n) * n * (complex ? 2 : 1);
  std::vector<double> a(values), b(a.size()), c(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(i % 7) * 0.25 - 0.5;
    b[i] = static_cast<double>(i % 5) * 0.5 - 1.0;
  }
  // getrf's matrix: b's entries plus n on the diagonal (nonsingular), restored into c.
  if (o.routine == "getrf") {
    for (int i = 0; i < n; ++i) b[static_cast<std::size_t>(i) * n + i] += n;
  }
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  const double one[2] = {1.0, 0.0};  // alpha and beta: the real part is all dgemm_ reads
  const double zero[2] = {0.0, 0.0};
  const auto dgemm = reinterpret_cast<Dgemm>(routine);
  const auto dgetrf = reinterpret_cast<Dgetrf>(routine);
  const bool getrf = o.routine == "getrf";
  const auto call = [&] {
    if (getrf) {
      int info = 0;
      dgetrf(&n, &n, c.data(), &n, ipiv.data(), &info);
    } else {
      dgemm("N", "N", &n, &n, &n, one, a.data(), &n, b.data(), &n, zero, c.data(), &n);
    }
  };
  const auto restore = [&] {
    if (getrf) std::copy(b.begin(), b.end(), c.begin());
  };
  for (int i = 0; i < 50; ++i) {
    restore();
    call();
  }
  std::vector<double> us(static_cast<std::size_t>(o.calls));
  for (auto& sample : us) {
    if (o.gap_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(o.gap_us));
    restore();
    const auto start = std::chrono::steady_clock::now();
    call();
    sample =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  }
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  FILE* out = o.out.empty() ? stdout : std::fopen(o.out.c_str(), "w");
  if (out == nullptr) {
    std::perror("blas_calls: --out");
    return 1;
  }
  std::fprintf(out, "{\"routine\": \"%s\", \"n\": %d, \"calls\": %d, ", o.routine.c_str(), n,
               o.calls);
  std::fprintf(out, "\"p50_us\": %.2f, \"p90_us\": %.2f, ", quantile_of_sorted(sorted, 0.5),
               quantile_of_sorted(sorted, 0.9));
  std::fprintf(out, "\"p99_us\": %.2f, \"max_us\": %.2f, \"samples_us\": [",
               quantile_of_sorted(sorted, 0.99), sorted.back());
  for (std::size_t i = 0; i < us.size(); ++i) {
    std::fprintf(out, "%s%.2f", i == 0 ? "" : ",", us[i]);
  }
  std::fprintf(out, "]}\n");
  if (out != stdout) std::fclose(out);
  return 0;
}
