// SPDX-License-Identifier: Apache-2.0
// libraries.hpp: the --library [NAME[@THREADS]=]PATH option of the benches that call BLAS
// libraries through dlopen, as an application does (small_gemm, level3_calls).
//
// Each library is dlopen'ed RTLD_LOCAL, so several (or two copies of one, under different
// paths) live in one process. NAME labels its benchmarks; @THREADS sets its thread count through
// its own thread-control call (teamla_set_num_threads, else openblas_set_num_threads) before
// each benchmark runs, and without it the library's environment decides.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace teamla::bench {

struct Library {
  std::string name;  // "" when the option gave only a path
  void* handle = nullptr;
  int threads = 0;  // 0: the library's environment decides
  void (*set_threads)(int) = nullptr;

  // apply_threads(): before each benchmark, as another library's run may have run in between.
  void apply_threads() const {
    if (threads > 0) set_threads(threads);
  }
};

// open_library(): one --library value; nullopt after a message on stderr naming `program`.
inline std::optional<Library> open_library(const char* program, const std::string& value) {
  const std::size_t equals = value.find('=');
  const std::string spec = equals == std::string::npos ? "" : value.substr(0, equals);
  const std::string path = equals == std::string::npos ? value : value.substr(equals + 1);
  const std::size_t at = spec.find('@');
  Library library;
  library.name = spec.substr(0, at);
  library.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library.handle == nullptr) {
    std::fprintf(stderr, "%s: %s\n", program, dlerror());
    return std::nullopt;
  }
  if (at != std::string::npos) {
    library.threads = std::atoi(spec.c_str() + at + 1);
    void* set = dlsym(library.handle, "teamla_set_num_threads");
    if (set == nullptr) set = dlsym(library.handle, "openblas_set_num_threads");
    library.set_threads = reinterpret_cast<void (*)(int)>(set);
    if (library.threads < 1 || library.set_threads == nullptr) {
      std::fprintf(stderr,
                   "%s: %s: @THREADS takes a count of at least 1, and a library with "
                   "teamla_set_num_threads or openblas_set_num_threads\n",
                   program, spec.c_str());
      return std::nullopt;
    }
  }
  return library;
}

}  // namespace teamla::bench
