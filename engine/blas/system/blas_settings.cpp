// SPDX-License-Identifier: Apache-2.0
// blas_settings.cpp: libblas.so.3 forwards to an optimised BLAS, completed by the reference BLAS.
// docs/blas.md, "libblas.so.3".
#include "forward_settings.hpp"
#include "teamla/engine/config.hpp"

extern "C" {
// The reference CBLAS keeps these two flags for its error handler (cblas_xerbla); the CBLAS
// test programs read them. teamla's CBLAS reports row-major calls itself and leaves them 0.
__attribute__((visibility("default"))) int RowMajorStrg = 0;
__attribute__((visibility("default"))) int CBLAS_CallFromC = 0;
}

namespace teamla::blas_system {

ForwardSettings forward_settings() {
  const engine::BlasEnvironment environment = engine::blas_environment();
  ForwardSettings settings;
  settings.library = "libblas.so.3";
  // The backends CMake knows, in order of preference (never the libblas.so.3 alternative link,
  // which may be this library); the reference BLAS has every forwarded name (Debian's OpenBLAS
  // lacks the reference CBLAS's *sub_ helpers). Each variable replaces its default when set
  // (TEAMLA_BLAS_COMPLETION empty: no completion).
  const char* backend = environment.backend;
  settings.backends = backend != nullptr && *backend != '\0' ? backend : TEAMLA_FORWARD_BACKENDS;
  settings.backend_variable = "TEAMLA_BLAS_BACKEND";
  settings.completion =
      environment.completion != nullptr ? environment.completion : TEAMLA_FORWARD_COMPLETION;
  settings.self_marker = "teamla_get_num_threads";
  settings.verbosity = environment.verbosity;
  return settings;
}

}  // namespace teamla::blas_system
