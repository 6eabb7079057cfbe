// SPDX-License-Identifier: Apache-2.0
// blas_environment.cpp: the BLAS libraries' own variables (config.hpp). Apart from the rest of the
// configuration so that liblapack.so.3 can read them without the team's code (environment.hpp).
#include <algorithm>
#include <cstdlib>

#include "environment.hpp"
#include "teamla/engine/config.hpp"

namespace teamla::engine {

BlasEnvironment blas_environment() {
  BlasEnvironment environment;
  if (const char* verbose = variable("TEAMLA_BLAS_VERBOSE")) {
    environment.verbosity = std::max(0, std::atoi(verbose));
  }
  environment.backend = variable("TEAMLA_BLAS_BACKEND");
  environment.completion = variable("TEAMLA_BLAS_COMPLETION");
  environment.lapack_backend = variable("TEAMLA_LAPACK_BACKEND");
  return environment;
}

}  // namespace teamla::engine
