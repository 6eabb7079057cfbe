// SPDX-License-Identifier: Apache-2.0
/* A program that finds teamla's BLAS through an installed package (find_package(teamla)'s
   teamla::blas, pkg-config's teamla-blas, or CMake's FindBLAS with BLA_PKGCONFIG_BLAS) and
   calls it. teamla_get_num_threads exists in teamla's library only, so linking proves
   which BLAS was found. */
#include <stdio.h>

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
int teamla_get_num_threads(void);

int main(void) {
  const int two = 2;
  const double one = 1.0, zero = 0.0;
  const double a[4] = {1, 2, 3, 4}; /* column-major [[1 3] [2 4]] */
  const double b[4] = {5, 6, 7, 8}; /* column-major [[5 7] [6 8]] */
  double c[4] = {0, 0, 0, 0};
  dgemm_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two);
  /* [[1 3] [2 4]] * [[5 7] [6 8]] = [[23 31] [34 46]] */
  const int right = c[0] == 23 && c[1] == 34 && c[2] == 31 && c[3] == 46;
  printf("blas consumer: dgemm_ %s, teamla runs %d threads\n", right ? "right" : "WRONG",
         teamla_get_num_threads());
  return right ? 0 : 1;
}
