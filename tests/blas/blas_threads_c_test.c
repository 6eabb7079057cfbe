// SPDX-License-Identifier: Apache-2.0
/* Contract covered: the thread-control calls of libteamla_blas.so from C, as declared by
   OpenBLAS's cblas.h, in a program linked with libteamla_blas.so ahead of OpenBLAS (the
   lookup order LD_PRELOAD gives). The counts round-trip; the local count returns the one
   the thread ran with before; and the openblas_* setters reach OpenBLAS's own definitions
   too (its pool obeys), while teamla_set_num_threads leaves OpenBLAS alone. OpenBLAS's own
   count is read through a handle on libopenblas.so.0, which finds its definitions, not the
   ones teamla interposes. */
#include <dlfcn.h>
#include <stdio.h>

void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
int openblas_set_num_threads_local(int num_threads);
void teamla_set_num_threads(int num_threads);
int teamla_get_num_threads(void);

static int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

static void check_counts(void) {
  openblas_set_num_threads(2);
  CHECK(openblas_get_num_threads() == 2);
  CHECK(teamla_get_num_threads() == 2);
  CHECK(openblas_set_num_threads_local(1) == 2);
  CHECK(openblas_get_num_threads() == 1);
  CHECK(openblas_set_num_threads_local(0) == 1);
  CHECK(openblas_get_num_threads() == 2);
}

typedef int (*GetThreads)(void);

static void check_forwarding(void) {
  void* openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  if (openblas == NULL) {
    printf("OpenBLAS is not loaded: forwarding not checked\n");
    return;
  }
  GetThreads theirs = (GetThreads)dlsym(openblas, "openblas_get_num_threads");
  CHECK(theirs != NULL && theirs != openblas_get_num_threads);
  if (theirs == NULL || theirs == openblas_get_num_threads) return;
  openblas_set_num_threads(1);
  CHECK(theirs() == 1);
  openblas_set_num_threads(2);
  CHECK(theirs() == 2);
  teamla_set_num_threads(1); /* teamla's own: not forwarded */
  CHECK(theirs() == 2);
  CHECK(openblas_get_num_threads() == 1);
  /* Forwarded to OpenBLAS's local variant, or (before 0.3.27) its process-wide setter. */
  openblas_set_num_threads(2);
  CHECK(openblas_set_num_threads_local(1) == 2);
  CHECK(theirs() == 1);
  CHECK(openblas_set_num_threads_local(0) == 1);
  CHECK(theirs() == 2); /* the count the thread runs with once its own is cleared */
  printf("the openblas_* setters reached OpenBLAS's own (its count now %d)\n", theirs());
}

int main(void) {
  check_counts();
  check_forwarding();
  if (failures == 0) printf("thread control from C: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
