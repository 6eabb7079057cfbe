// SPDX-License-Identifier: Apache-2.0
// lapack_settings.cpp: liblapack.so.3 forwards to the reference LAPACK, whose BLAS is the
// libblas.so.3 the process finds; where that is teamla's, teamla's own LAPACK routines (exported
// there as teamla_lapack_<name>) serve in place of the reference's. docs/blas.md, "liblapack.so.3".
#include "forward_settings.hpp"
#include "teamla/engine/config.hpp"

// This library's mark: a backend that defines it is this library again.
extern "C" __attribute__((visibility("default"))) void teamla_lapack_forwarder() {}

namespace teamla::blas_system {

ForwardSettings forward_settings() {
  const engine::BlasEnvironment environment = engine::blas_environment();
  ForwardSettings settings;
  settings.library = "liblapack.so.3";
  const char* backend = environment.lapack_backend;
  settings.backends = backend != nullptr && *backend != '\0' ? backend : TEAMLA_FORWARD_BACKENDS;
  settings.backend_variable = "TEAMLA_LAPACK_BACKEND";
  settings.self_marker = "teamla_lapack_forwarder";
  settings.teamla_prefix = "teamla_lapack_";
  settings.verbosity = environment.verbosity;
  return settings;
}

}  // namespace teamla::blas_system
