// SPDX-License-Identifier: Apache-2.0
// scalapack_grid.hpp: what the ScaLAPACK driver needs of BLACS, PBLAS and ScaLAPACK (their
// Fortran symbols, libscalapack-openmpi), a P x Q grid with one block-cyclic n x n matrix
// per process, and deterministic entries every rank computes alone.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

// The trailing size_t arguments are the hidden lengths gfortran passes with CHARACTER ones.
extern "C" {
void blacs_get_(const int* context, const int* what, int* value);
void blacs_gridinit_(int* context, const char* order, const int* nprow, const int* npcol,
                     std::size_t order_len);
void blacs_gridinfo_(const int* context, int* nprow, int* npcol, int* myrow, int* mycol);
void blacs_gridexit_(const int* context);
void blacs_exit_(const int* keep_mpi);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* context, const int* lld, int* info);
void pdpotrf_(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, int* info, std::size_t uplo_len);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
             const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
             double* c, const int* ic, const int* jc, const int* descc, std::size_t transa_len,
             std::size_t transb_len);
void pdgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
             const int* ia, const int* ja, const int* desca, const double* x, const int* ix,
             const int* jx, const int* descx, const int* incx, const double* beta, double* y,
             const int* iy, const int* jy, const int* descy, const int* incy,
             std::size_t trans_len);
double pdlange_(const char* norm, const int* m, const int* n, const double* a, const int* ia,
                const int* ja, const int* desca, double* work, std::size_t norm_len);
}

namespace scalapack {

// Grid: the process's position and its local block of an n x `columns` matrix (columns = n
// for the matrices, 1 for the vectors of the check), nb x nb blocks from process (0, 0).
struct Grid {
  int context = -1;
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  int rows = 0, cols = 0, lld = 1;
  int desc[9] = {};
};

inline Grid make_grid(int p, int q) {
  Grid g;
  const int zero = 0, minus_one = -1;
  blacs_get_(&minus_one, &zero, &g.context);
  blacs_gridinit_(&g.context, "R", &p, &q, 1);
  blacs_gridinfo_(&g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
  return g;
}

// with_matrix(): `g` describing its part of an n x columns matrix.
inline Grid with_matrix(Grid g, int n, int columns, int nb) {
  if (g.myrow < 0) return g;  // a rank outside the grid
  const int zero = 0;
  g.rows = numroc_(&n, &nb, &g.myrow, &zero, &g.nprow);
  g.cols = numroc_(&columns, &nb, &g.mycol, &zero, &g.npcol);
  g.lld = std::max(1, g.rows);
  int info = 0;
  descinit_(g.desc, &n, &columns, &nb, &nb, &zero, &zero, &g.context, &g.lld, &info);
  return g;
}

// The global index of local index l on process coordinate me of nprocs (source process 0).
inline int global_index(int l, int nb, int me, int nprocs) {
  return (l / nb * nprocs + me) * nb + l % nb;
}

// hashed_entry(): a deterministic entry in [-0.5, 0.5] of the pair (i, j), in that order.
inline double hashed_entry(int i, int j) {
  std::uint64_t x =
      (static_cast<std::uint64_t>(i) << 32 | static_cast<std::uint32_t>(j)) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<double>(x >> 11) * 0x1.0p-53 - 0.5;
}

// symmetric_entry(): hashed_entry of the ordered pair, so that (i, j) and (j, i) agree.
inline double symmetric_entry(int i, int j) { return hashed_entry(std::min(i, j), std::max(i, j)); }

// Calls f(local_row, local_col, global_row, global_col) for every local entry.
template <class F>
void for_each_local(const Grid& g, int nb, F f) {
  for (int lc = 0; lc < g.cols; ++lc) {
    const int gc = global_index(lc, nb, g.mycol, g.npcol);
    for (int lr = 0; lr < g.rows; ++lr) f(lr, lc, global_index(lr, nb, g.myrow, g.nprow), gc);
  }
}

}  // namespace scalapack
