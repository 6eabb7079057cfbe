// SPDX-License-Identifier: Apache-2.0
// pdpotrf_driver: ScaLAPACK's distributed Cholesky on a P x Q BLACS grid, timed and checked.
//
//   mpirun -np R pdpotrf_driver [--n N] [--nb NB] [--p P] [--q Q] [--reps K] [--tol T]
//
// Every rank builds its block-cyclic part of an SPD matrix A (a symmetric hash in [-0.5, 0.5]
// plus n on the diagonal), factors a fresh copy K times with pdpotrf_ (lower), and checks the
// last factor through PBLAS: ||A - L L^T||_F / ||A||_F with pdgemm_ and pdlange_. Rank 0 prints
// one JSON line: best and median seconds (MPI_Wtime between barriers), the residual, and the
// library that serves dgemm_ in the process (so a run that is not on the intended BLAS shows).
// The exit status is 0 when info is 0 everywhere and the residual is below the tolerance.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

// ScaLAPACK, BLACS and PBLAS through their Fortran symbols (libscalapack-openmpi). The
// trailing size_t arguments are the hidden lengths gfortran passes with CHARACTER arguments.
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
double pdlange_(const char* norm, const int* m, const int* n, const double* a, const int* ia,
                const int* ja, const int* desca, double* work, std::size_t norm_len);
}

namespace {

struct Options {
  int n = 600;
  int nb = 64;
  int p = 1;
  int q = 0;  // 0: all ranks in one row (1 x R)
  int reps = 3;
  double tol = 1e-12;
};

Options parse(int argc, char** argv) {
  Options o;
  const std::pair<const char*, int*> ints[] = {
      {"--n", &o.n}, {"--nb", &o.nb}, {"--p", &o.p}, {"--q", &o.q}, {"--reps", &o.reps}};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    bool known = key == "--tol";
    if (known) o.tol = std::atof(argv[i + 1]);
    for (const auto& [name, field] : ints) {
      if (key != name) continue;
      *field = std::atoi(argv[i + 1]);
      known = true;
    }
    if (!known) o.n = 0;  // rejected by main's check, with the usage line
  }
  return o;
}

// The process's grid position and its local block of an n x n matrix.
struct Grid {
  int context = -1;
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  int rows = 0, cols = 0, lld = 1;
  int desc[9] = {};
};

Grid make_grid(const Options& o) {
  Grid g;
  const int zero = 0, minus_one = -1;
  blacs_get_(&minus_one, &zero, &g.context);
  blacs_gridinit_(&g.context, "R", &o.p, &o.q, 1);
  blacs_gridinfo_(&g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
  if (g.myrow < 0) return g;  // a rank outside the grid
  g.rows = numroc_(&o.n, &o.nb, &g.myrow, &zero, &g.nprow);
  g.cols = numroc_(&o.n, &o.nb, &g.mycol, &zero, &g.npcol);
  g.lld = std::max(1, g.rows);
  int info = 0;
  descinit_(g.desc, &o.n, &o.n, &o.nb, &o.nb, &zero, &zero, &g.context, &g.lld, &info);
  return g;
}

// The global index of local index l on process coordinate me of nprocs (source process 0).
int global_index(int l, int nb, int me, int nprocs) { return (l / nb * nprocs + me) * nb + l % nb; }

// A deterministic symmetric entry in [-0.5, 0.5]: every rank computes its part alone.
double symmetric_entry(int i, int j) {
  const auto lo = static_cast<std::uint64_t>(std::min(i, j));
  const auto hi = static_cast<std::uint64_t>(std::max(i, j));
  std::uint64_t x = (lo << 32 | hi) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<double>(x >> 11) * 0x1.0p-53 - 0.5;
}

// Calls f(local_row, local_col, global_row, global_col) for every local entry.
template <class F>
void for_each_local(const Grid& g, int nb, F f) {
  for (int lc = 0; lc < g.cols; ++lc) {
    const int gc = global_index(lc, nb, g.mycol, g.npcol);
    for (int lr = 0; lr < g.rows; ++lr) f(lr, lc, global_index(lr, nb, g.myrow, g.nprow), gc);
  }
}

std::vector<double> spd_matrix(const Grid& g, const Options& o) {
  std::vector<double> a(static_cast<std::size_t>(g.lld) * std::max(1, g.cols));
  for_each_local(g, o.nb, [&](int lr, int lc, int gr, int gc) {
    a[static_cast<std::size_t>(lc) * g.lld + lr] = symmetric_entry(gr, gc) + (gr == gc ? o.n : 0);
  });
  return a;
}

// pdpotrf_ leaves the strict upper triangle as it was: zero it so the array is L.
void keep_lower(std::vector<double>& a, const Grid& g, int nb) {
  for_each_local(g, nb, [&](int lr, int lc, int gr, int gc) {
    if (gr < gc) a[static_cast<std::size_t>(lc) * g.lld + lr] = 0.0;
  });
}

// One factorization of a fresh copy, timed between barriers so that rank 0's interval covers
// every rank's work. Returns the seconds; info is the largest info of any rank.
double timed_factorization(const std::vector<double>& a, std::vector<double>& work, const Grid& g,
                           const Options& o, int& info) {
  work = a;
  const int one = 1;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  int local_info = 0;
  pdpotrf_("L", &o.n, work.data(), &one, &one, g.desc, &local_info, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  MPI_Allreduce(&local_info, &info, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

// ||A - L L^T||_F / ||A||_F, through PBLAS (pdgemm_ runs dgemm_ locally on every rank).
double residual(std::vector<double> a, std::vector<double> l, const Grid& g, const Options& o) {
  keep_lower(l, g, o.nb);
  const int one = 1;
  const double minus_one = -1.0, plus_one = 1.0;
  double work = 0.0;  // the Frobenius norm needs no workspace
  const double norm_a = pdlange_("F", &o.n, &o.n, a.data(), &one, &one, g.desc, &work, 1);
  pdgemm_("N", "T", &o.n, &o.n, &o.n, &minus_one, l.data(), &one, &one, g.desc, l.data(), &one,
          &one, g.desc, &plus_one, a.data(), &one, &one, g.desc, 1, 1);
  return pdlange_("F", &o.n, &o.n, a.data(), &one, &one, g.desc, &work, 1) / norm_a;
}

// The file of the library whose dgemm_ the process's calls bind to (the global scope's first),
// with links resolved: libblas.so.3 is a Debian alternative, and its target is the answer.
std::string dgemm_provider() {
  Dl_info info{};
  void* symbol = dlsym(RTLD_DEFAULT, "dgemm_");
  if (symbol == nullptr || dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return "?";
  char* real = realpath(info.dli_fname, nullptr);
  const std::string path = real != nullptr ? real : info.dli_fname;
  std::free(real);
  return path;
}

const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}

void print_json(const Options& o, int ranks, std::vector<double> times, double res, int info) {
  std::sort(times.begin(), times.end());
  const std::size_t k = times.size();
  const double median = k % 2 ? times[k / 2] : 0.5 * (times[k / 2 - 1] + times[k / 2]);
  std::printf(
      "{\"routine\":\"pdpotrf\",\"n\":%d,\"nb\":%d,\"grid\":[%d,%d],\"ranks\":%d,"
      "\"teamla_num_threads\":\"%s\",\"openblas_num_threads\":\"%s\",\"reps\":%zu,"
      "\"best_s\":%.6f,\"median_s\":%.6f,\"worst_s\":%.6f,\"gflops_best\":%.3f,"
      "\"residual\":%.3e,\"info\":%d,\"dgemm_from\":\"%s\"}\n",
      o.n, o.nb, o.p, o.q, ranks, env_or("TEAMLA_NUM_THREADS", ""),
      env_or("OPENBLAS_NUM_THREADS", ""), k, times.front(), median, times.back(),
      std::pow(o.n, 3) / 3.0 / times.front() * 1e-9, res, info, dgemm_provider().c_str());
  std::fflush(stdout);
}

// Factors K times and checks the last factor. Returns the exit status.
int run(const Options& o, const Grid& g, int rank, int ranks) {
  const std::vector<double> a = spd_matrix(g, o);
  std::vector<double> l;
  std::vector<double> times;
  int info = 0;
  for (int r = 0; r < o.reps && info == 0; ++r)
    times.push_back(timed_factorization(a, l, g, o, info));
  const double res = info == 0 ? residual(a, l, g, o) : std::nan("");
  if (rank == 0) print_json(o, ranks, times, res, info);
  return info == 0 && res < o.tol ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o = parse(argc, argv);
  if (o.q == 0 && o.p > 0) o.q = ranks / o.p;
  if (o.p * o.q != ranks || o.n < 1 || o.nb < 1 || o.reps < 1) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: pdpotrf_driver [--n N] [--nb NB] [--p P] [--q Q] [--reps K] [--tol T], "
                   "P * Q = ranks (%d)\n",
                   ranks);
    MPI_Finalize();
    return 2;
  }
  const Grid g = make_grid(o);
  const int status = run(o, g, rank, ranks);
  blacs_gridexit_(&g.context);
  const int keep_mpi = 1;  // MPI_Init was ours, so MPI_Finalize is too
  blacs_exit_(&keep_mpi);
  MPI_Finalize();
  return status;
}
