// SPDX-License-Identifier: Apache-2.0
// error_report.hpp: how an illegal argument is reported: xerbla_ and cblas_xerbla.
//
// Both handlers are looked up through the dynamic symbol table at each report, never bound
// inside libteamla_blas.so, so the first definition in the process wins: the program's own
// (the reference test programs define both, and check what they receive), then a library's
// (the system BLAS's xerbla_, R's), and only when there is none, teamla's own, which prints the
// reference message to stderr and returns. The reporter changes nothing else; the caller
// returns without touching its outputs. Thread-safe (the handlers' own safety aside).
#pragma once

namespace teamla::blas {

// report_fortran_error(): xerbla_(name, info) with the routine's upper-case name ("DGEMM",
// "DPOTRF"), blank-padded to the 6 characters the reference passes.
void report_fortran_error(const char* name, int info);

// report_cblas_error(): cblas_xerbla(info, "cblas_dgemm", form, value). `info` follows the
// reference CBLAS, which reports a row-major call's errors found by the Fortran routine at
// their positions in the transposed Fortran call (plus one for the layout argument);
// `form` is a printf format taking `value`, or "". `row_major` is the call's layout, for
// the message of teamla's own handler, which names the argument as the caller wrote it.
void report_cblas_error(int info, const char* cblas_name, bool row_major, const char* form = "",
                        int value = 0);

}  // namespace teamla::blas
