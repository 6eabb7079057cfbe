// SPDX-License-Identifier: Apache-2.0
// exports.hpp: marks the routines libteamla_blas.so exports. Everything else is compiled
// hidden (-fvisibility=hidden) and the version script (exports.map) lists exactly these.
#pragma once

#define TEAMLA_BLAS_EXPORT __attribute__((visibility("default")))
