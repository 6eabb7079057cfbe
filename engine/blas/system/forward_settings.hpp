// SPDX-License-Identifier: Apache-2.0
// forward_settings.hpp: what tells libblas.so.3's forwarding from liblapack.so.3's. Both compile
// forward.cpp (the lazy resolution of their forwarded routines) with one of blas_settings.cpp and
// lapack_settings.cpp. docs/blas.md, "libblas.so.3" and "liblapack.so.3".
#pragma once

#include <string>

namespace teamla::blas_system {

struct ForwardSettings {
  // How messages name this library ("libblas.so.3").
  const char* library = "";
  // The backend candidates, ':'-separated: the first that loads serves the forwarded routines.
  std::string backends;
  // The variable that chooses them, for messages.
  const char* backend_variable = "";
  // A library for the routines the backend lacks ("": none).
  std::string completion;
  // A symbol only this library defines: a backend that has it is this library (reached through
  // the alternative link, say), and forwarding to it would loop.
  const char* self_marker = "";
  // Null, or the prefix under which a teamla libblas.so.3 beneath the backend exports routines
  // that teamla serves in place of the backend's ("teamla_lapack_": liblapack.so.3's
  // factorizations are teamla's when the BLAS beneath the reference LAPACK is teamla's).
  const char* teamla_prefix = nullptr;
  int verbosity = 0;
};

// forward_settings(): this library's settings, with the environment's choices applied.
ForwardSettings forward_settings();

}  // namespace teamla::blas_system
