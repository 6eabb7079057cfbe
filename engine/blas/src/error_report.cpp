// SPDX-License-Identifier: Apache-2.0
// error_report.cpp: illegal arguments reported through the process's xerbla_ / cblas_xerbla.
//
// The handlers are weak, default-visibility undefined references: the dynamic linker binds
// them to the first definition in the process's global scope, or leaves them null. Hidden
// visibility (this library's default) would instead bind them to null at link time.
#include "error_report.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

extern "C" {
__attribute__((weak, visibility("default"))) void xerbla_(const char* name, const int* info,
                                                          std::size_t name_length);
__attribute__((weak, visibility("default"))) void cblas_xerbla(int info, const char* routine,
                                                               const char* form, ...);
}

namespace teamla::blas {
namespace {

// kFortranNameLength: the reference passes routine names as CHARACTER*6 ('DGEMM ').
constexpr std::size_t kFortranNameLength = 6;

// position_in_call(): undoes the reference CBLAS's numbering of a row-major call, which
// passes the Fortran routine (M, N) and, for gemm, (A, B) swapped (ger and her2: (X, Y)), so that
// teamla's own message names the argument the caller wrote. The test programs' cblas_xerbla does
// the same.
int position_in_call(int info, const char* routine) {
  if (std::strstr(routine, "gemm") != nullptr) {
    if (info == 4 || info == 5) return 9 - info;
    if (info == 9 || info == 11) return 20 - info;
  } else if (std::strstr(routine, "trsm") != nullptr || std::strstr(routine, "trmm") != nullptr) {
    if (info == 6 || info == 7) return 13 - info;
  } else if (std::strstr(routine, "symm") != nullptr) {
    if (info == 4 || info == 5) return 9 - info;
  } else if (std::strstr(routine, "gemv") != nullptr) {
    if (info == 3 || info == 4) return 7 - info;
  } else if (std::strstr(routine, "ger") != nullptr) {
    if (info == 2 || info == 3) return 5 - info;
    if (info == 6 || info == 8) return 14 - info;
  } else if (std::strstr(routine, "her2") != nullptr) {
    if (info == 6 || info == 8) return 14 - info;
  }
  return info;
}

}  // namespace

void report_fortran_error(const char* name, int info) {
  char padded[kFortranNameLength + 1];
  std::snprintf(padded, sizeof padded, "%-6s", name);
  if (xerbla_ != nullptr) {
    xerbla_(padded, &info, kFortranNameLength);
    return;
  }
  std::fprintf(stderr, " ** On entry to %s parameter number %2d had an illegal value\n", padded,
               info);
}

void report_cblas_error(int info, const char* cblas_name, bool row_major, const char* form,
                        int value) {
  if (cblas_xerbla != nullptr) {
    cblas_xerbla(info, cblas_name, form, value);
    return;
  }
  const int position = row_major ? position_in_call(info, cblas_name) : info;
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", position, cblas_name);
  if (form[0] != '\0') {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::fprintf(stderr, form, value);
#pragma GCC diagnostic pop
  }
}

}  // namespace teamla::blas
