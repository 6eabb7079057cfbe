// SPDX-License-Identifier: Apache-2.0
// scalapack_driver: ScaLAPACK's distributed Cholesky (pdpotrf) or product (pdgemm) on a P x Q
// BLACS grid, timed and checked.
//
//   mpirun -np R scalapack_driver [--routine pdpotrf|pdgemm] [--n N] [--nb NB] [--p P] [--q Q]
//                                 [--reps K] [--tol T]
//
// pdpotrf: every rank builds its block-cyclic part of an SPD matrix A (a symmetric hash in
// [-0.5, 0.5] plus n on the diagonal), factors a fresh copy K times (lower), and checks the last
// factor through PBLAS: ||A - L L^T||_F / ||A||_F with pdgemm_ and pdlange_.
// pdgemm: C = A B, n x n, A and B hashes in [-0.5, 0.5], K times; the last C is checked
// against A (B x) with x all ones, by pdgemv_ (level 2, which the system BLAS serves, so the
// check does not lean on the routines under test): ||C x - A (B x)|| / (||A|| ||B|| ||x||).
// Rank 0 prints one JSON line: best and median seconds (MPI_Wtime between barriers), the
// residual, and the library that serves dgemm_ in the process (so a run that is not on the
// intended BLAS shows). The exit status is 0 when every info is 0 and the residual is below
// the tolerance.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "scalapack_grid.hpp"

namespace {

using scalapack::Grid;

struct Options {
  std::string routine = "pdpotrf";
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
    bool known = key == "--tol" || key == "--routine";
    if (key == "--tol") o.tol = std::atof(argv[i + 1]);
    if (key == "--routine") o.routine = argv[i + 1];
    for (const auto& [name, field] : ints) {
      if (key != name) continue;
      *field = std::atoi(argv[i + 1]);
      known = true;
    }
    if (!known) o.n = 0;  // rejected by main's check, with the usage line
  }
  return o;
}

std::vector<double> local_matrix(const Grid& g, int nb, double (*entry)(int, int), double diag) {
  std::vector<double> a(static_cast<std::size_t>(g.lld) * std::max(1, g.cols));
  scalapack::for_each_local(g, nb, [&](int lr, int lc, int gr, int gc) {
    a[static_cast<std::size_t>(lc) * g.lld + lr] = entry(gr, gc) + (gr == gc ? diag : 0);
  });
  return a;
}

// timed(): one call of `body` between barriers, so that rank 0's interval covers every rank's
// work; `info` becomes the largest info of any rank.
template <class Body>
double timed(Body&& body, int& info) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  int local_info = body();
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  MPI_Allreduce(&local_info, &info, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

// Result: the times of the K calls, the check's residual and the largest info.
struct Result {
  std::vector<double> times;
  double residual = std::nan("");
  int info = 0;
};

// ||A - L L^T||_F / ||A||_F, through PBLAS (pdgemm_ runs dgemm_ locally on every rank).
double cholesky_residual(std::vector<double> a, std::vector<double> l, const Grid& g, int n,
                         int nb) {
  scalapack::for_each_local(g, nb, [&](int lr, int lc, int gr, int gc) {
    if (gr < gc) l[static_cast<std::size_t>(lc) * g.lld + lr] = 0.0;  // pdpotrf_ leaves it
  });
  const int one = 1;
  const double minus_one = -1.0, plus_one = 1.0;
  double work = 0.0;  // the Frobenius norm needs no workspace
  const double norm_a = pdlange_("F", &n, &n, a.data(), &one, &one, g.desc, &work, 1);
  pdgemm_("N", "T", &n, &n, &n, &minus_one, l.data(), &one, &one, g.desc, l.data(), &one, &one,
          g.desc, &plus_one, a.data(), &one, &one, g.desc, 1, 1);
  return pdlange_("F", &n, &n, a.data(), &one, &one, g.desc, &work, 1) / norm_a;
}

Result run_pdpotrf(const Options& o, const Grid& g) {
  const std::vector<double> a = local_matrix(g, o.nb, scalapack::symmetric_entry, o.n);
  std::vector<double> l;
  Result r;
  const int one = 1;
  for (int rep = 0; rep < o.reps && r.info == 0; ++rep) {
    l = a;
    r.times.push_back(timed(
        [&] {
          int info = 0;
          pdpotrf_("L", &o.n, l.data(), &one, &one, g.desc, &info, 1);
          return info;
        },
        r.info));
  }
  if (r.info == 0) r.residual = cholesky_residual(a, l, g, o.n, o.nb);
  return r;
}

// ||C x - A (B x)|| / (||A|| ||B|| ||x||), x all ones, by pdgemv_.
double product_residual(const std::vector<double>& a, const std::vector<double>& b,
                        const std::vector<double>& c, const Grid& g, const Grid& v, int n) {
  const int one = 1;
  const double plus_one = 1.0, minus_one = -1.0, zero = 0.0;
  const std::vector<double> x(static_cast<std::size_t>(v.lld) * std::max(1, v.cols), 1.0);
  std::vector<double> bx(x.size()), cx(x.size());
  pdgemv_("N", &n, &n, &plus_one, b.data(), &one, &one, g.desc, x.data(), &one, &one, v.desc, &one,
          &zero, bx.data(), &one, &one, v.desc, &one, 1);
  pdgemv_("N", &n, &n, &plus_one, c.data(), &one, &one, g.desc, x.data(), &one, &one, v.desc, &one,
          &zero, cx.data(), &one, &one, v.desc, &one, 1);
  pdgemv_("N", &n, &n, &minus_one, a.data(), &one, &one, g.desc, bx.data(), &one, &one, v.desc,
          &one, &plus_one, cx.data(), &one, &one, v.desc, &one, 1);
  double work = 0.0;
  const double norm_a = pdlange_("F", &n, &n, a.data(), &one, &one, g.desc, &work, 1);
  const double norm_b = pdlange_("F", &n, &n, b.data(), &one, &one, g.desc, &work, 1);
  const double diff = pdlange_("F", &n, &one, cx.data(), &one, &one, v.desc, &work, 1);
  return diff / (norm_a * norm_b * std::sqrt(static_cast<double>(n)));
}

double second_operand(int i, int j) { return scalapack::hashed_entry(j + 7, i + 3); }

Result run_pdgemm(const Options& o, const Grid& g, const Grid& v) {
  const std::vector<double> a = local_matrix(g, o.nb, scalapack::hashed_entry, 0);
  const std::vector<double> b = local_matrix(g, o.nb, second_operand, 0);
  std::vector<double> c(a.size());
  Result r;
  const int one = 1;
  const double plus_one = 1.0, zero = 0.0;
  for (int rep = 0; rep < o.reps; ++rep) {
    r.times.push_back(timed(
        [&] {
          pdgemm_("N", "N", &o.n, &o.n, &o.n, &plus_one, a.data(), &one, &one, g.desc, b.data(),
                  &one, &one, g.desc, &zero, c.data(), &one, &one, g.desc, 1, 1);
          return 0;
        },
        r.info));
  }
  r.residual = product_residual(a, b, c, g, v, o.n);
  return r;
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

void print_json(const Options& o, int ranks, Result r) {
  std::sort(r.times.begin(), r.times.end());
  const std::size_t k = r.times.size();
  const double median = k % 2 ? r.times[k / 2] : 0.5 * (r.times[k / 2 - 1] + r.times[k / 2]);
  const double flops = std::pow(o.n, 3) * (o.routine == "pdgemm" ? 2.0 : 1.0 / 3.0);
  std::printf(
      "{\"routine\":\"%s\",\"n\":%d,\"nb\":%d,\"grid\":[%d,%d],\"ranks\":%d,"
      "\"teamla_num_threads\":\"%s\",\"openblas_num_threads\":\"%s\",\"reps\":%zu,"
      "\"best_s\":%.6f,\"median_s\":%.6f,\"worst_s\":%.6f,\"gflops_best\":%.3f,"
      "\"residual\":%.3e,\"info\":%d,\"dgemm_from\":\"%s\"}\n",
      o.routine.c_str(), o.n, o.nb, o.p, o.q, ranks, env_or("TEAMLA_NUM_THREADS", ""),
      env_or("OPENBLAS_NUM_THREADS", ""), k, r.times.front(), median, r.times.back(),
      flops / r.times.front() * 1e-9, r.residual, r.info, dgemm_provider().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o = parse(argc, argv);
  if (o.q == 0 && o.p > 0) o.q = ranks / o.p;
  if (o.p * o.q != ranks || o.n < 1 || o.nb < 1 || o.reps < 1 ||
      (o.routine != "pdpotrf" && o.routine != "pdgemm")) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: scalapack_driver [--routine pdpotrf|pdgemm] [--n N] [--nb NB] [--p P] "
                   "[--q Q] [--reps K] [--tol T], P * Q = ranks (%d)\n",
                   ranks);
    MPI_Finalize();
    return 2;
  }
  const Grid grid = scalapack::make_grid(o.p, o.q);
  const Grid matrix = scalapack::with_matrix(grid, o.n, o.n, o.nb);
  const Result r = o.routine == "pdgemm"
                       ? run_pdgemm(o, matrix, scalapack::with_matrix(grid, o.n, 1, o.nb))
                       : run_pdpotrf(o, matrix);
  if (rank == 0) print_json(o, ranks, r);
  blacs_gridexit_(&grid.context);
  const int keep_mpi = 1;  // MPI_Init was ours, so MPI_Finalize is too
  blacs_exit_(&keep_mpi);
  MPI_Finalize();
  return r.info == 0 && r.residual < o.tol ? 0 : 1;
}
