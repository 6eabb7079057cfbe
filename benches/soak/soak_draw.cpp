// SPDX-License-Identifier: Apache-2.0
// soak_draw.cpp: the soak's random calls (routine, precision, shape, flags, scalars, padding),
// and the bookkeeping every checked call goes through (Tracker, Verdict).
#include <time.h>

#include <cmath>
#include <cstdio>

#include "soak_check.hpp"

namespace soak {

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000ULL + std::uint64_t(ts.tv_nsec);
}

std::string row_name(int row) {
  static const char* const kNames[] = {"gemm", "trsm", "syrk", "potrf", "potrs"};
  const int routine = row / 4;
  return std::string((row / 2) % 2 ? "s" : "d") + kNames[routine] + (row % 2 ? " abi" : " engine");
}

void Tracker::progress() const { stats->last_progress_ns.store(now_ns()); }

void Tracker::begin(const std::string& what) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = what;
  }
  call_start_ns.store(now_ns());
}

void Tracker::end(int row, const std::string& what) {
  const double ms = double(now_ns() - call_start_ns.load()) / 1e6;
  call_start_ns.store(0);
  stats->calls[row].fetch_add(1);
  progress();
  std::lock_guard<std::mutex> lock(stats->mutex);
  if (ms > stats->worst_ms) {
    stats->worst_ms = ms;
    stats->worst_call = what;
  }
}

void Tracker::problem(int row, bool wrong_result, const std::string& what) {
  (wrong_result ? stats->wrong : stats->failures)[row].fetch_add(1);
  std::lock_guard<std::mutex> lock(stats->mutex);
  if (stats->first_problems.size() >= 10) return;
  const std::string line = (wrong_result ? "WRONG " : "FAILED ") + what;
  stats->first_problems.push_back(line);
  if (stats->echo) std::fprintf(stderr, "soak: %s\n", line.c_str());
}

void Verdict::value(double got, double want, double bound, int i, int j) {
  if (std::isinf(ratio)) return;  // the first broken entry is the one reported
  const double error = std::abs(got - want);
  double r = error == 0 ? 0 : error / bound;
  if (std::isnan(r)) r = INFINITY;
  if (r <= ratio) return;
  ratio = r;
  char text[160];
  std::snprintf(text, sizeof text, "at (%d,%d) got %.17g want %.17g bound %.3g", i, j, got, want,
                bound);
  where = text;
}

void Verdict::exact(double got, double want, int i, int j, const char* what) {
  if (std::isinf(ratio) || got == want || (std::isnan(got) && std::isnan(want))) return;
  ratio = INFINITY;
  char text[160];
  std::snprintf(text, sizeof text, "%s at (%d,%d) is %.17g, must be %.17g", what, i, j, got, want);
  where = text;
}

void report(Tracker& tracker, int row, const std::string& args, const Verdict& v) {
  if (v.wrong()) tracker.problem(row, true, args + ": " + v.where);
}

namespace {

struct Range {
  int lo, hi;
};

// Mostly small and medium shapes, a few large ones; every dimension of one call from the
// same range, so the shapes are of one scale but rarely square.
Range draw_range(Rng& rng) {
  const double u = uniform(rng, 0, 1);
  if (u < 0.55) return {1, 64};
  if (u < 0.87) return {65, 256};
  if (u < 0.98) return {257, 600};
  return {601, 1000};
}

int draw_dim(Rng& rng, Range r) {
  if (uniform(rng, 0, 1) < 0.04) return int(rng() % 3);  // 0, 1, 2: the quick returns and edges
  return r.lo + int(rng() % unsigned(r.hi - r.lo + 1));
}

int draw_pad(Rng& rng) {
  const double u = uniform(rng, 0, 1);
  if (u < 0.5) return 0;
  return u < 0.85 ? 1 + int(rng() % 8) : 9 + int(rng() % 56);
}

char pick(Rng& rng, const char* two) { return two[rng() & 1]; }

// Scalars are rounded to T, so the reference uses exactly what the library gets; 0 and 1
// are drawn often for their special paths.
template <class T>
double draw_alpha(Rng& rng) {
  const double u = uniform(rng, 0, 1);
  if (u < 0.1) return 0;
  if (u < 0.4) return 1;
  return u < 0.5 ? -1 : double(T(uniform(rng, -2, 2)));
}

template <class T>
double draw_beta(Rng& rng) {
  const double u = uniform(rng, 0, 1);
  if (u < 0.25) return 0;
  return u < 0.5 ? 1 : double(T(uniform(rng, -2, 2)));
}

template <class T>
void run_typed(Routine routine, Backend& be, bool abi, Rng& rng, Tracker& tracker) {
  const Range r = draw_range(rng);
  if (routine == Routine::gemm) {
    const GemmArgs g{pick(rng, "NT"),    pick(rng, "NT"),  draw_dim(rng, r), draw_dim(rng, r),
                     draw_dim(rng, r),   draw_pad(rng),    draw_pad(rng),    draw_pad(rng),
                     draw_alpha<T>(rng), draw_beta<T>(rng)};
    check_gemm<T>(be, abi, g, rng, tracker);
  } else if (routine == Routine::trsm) {
    const TrsmArgs t{pick(rng, "LR"), pick(rng, "LU"),  pick(rng, "NT"),
                     pick(rng, "NU"), draw_dim(rng, r), draw_dim(rng, r),
                     draw_pad(rng),   draw_pad(rng),    draw_alpha<T>(rng)};
    check_trsm<T>(be, abi, t, rng, tracker);
  } else if (routine == Routine::syrk) {
    const SyrkArgs s{pick(rng, "LU"), pick(rng, "NT"), draw_dim(rng, r),   draw_dim(rng, r),
                     draw_pad(rng),   draw_pad(rng),   draw_alpha<T>(rng), draw_beta<T>(rng)};
    check_syrk<T>(be, abi, s, rng, tracker);
  } else {
    CholArgs c{pick(rng, "LU"), draw_dim(rng, r), draw_dim(rng, r),
               draw_pad(rng),   draw_pad(rng),    -1};
    if (routine == Routine::potrf) {
      // Now and then a matrix that is not positive definite: info must name its column.
      if (c.n > 0 && uniform(rng, 0, 1) < 0.05) c.bad_column = int(rng() % unsigned(c.n));
      check_potrf<T>(be, abi, c, rng, tracker);
    } else {
      check_potrs<T>(be, abi, c, rng, tracker);
    }
  }
}

}  // namespace

void run_random_call(Backend& backend, bool abi, Rng& rng, Tracker& tracker) {
  const double u = uniform(rng, 0, 1);
  const Routine routine = u < 0.4    ? Routine::gemm
                          : u < 0.55 ? Routine::trsm
                          : u < 0.7  ? Routine::syrk
                          : u < 0.85 ? Routine::potrf
                                     : Routine::potrs;
  if (rng() & 1) {
    run_typed<float>(routine, backend, abi, rng, tracker);
  } else {
    run_typed<double>(routine, backend, abi, rng, tracker);
  }
}

bool checked_small_calls(Backend& backend, bool abi, Rng& rng, std::string& problem) {
  Stats stats;
  stats.echo = false;  // a forked child: no stdio, whose locks a parent thread may hold
  Tracker tracker;
  tracker.stats = &stats;
  check_gemm<double>(backend, abi, GemmArgs{'N', 'T', 40, 33, 47, 1, 0, 2, 0.5, -1.0}, rng,
                     tracker);
  check_potrs<double>(backend, abi, CholArgs{'L', 48, 3, 1, 0, -1}, rng, tracker);
  if (stats.first_problems.empty()) return true;
  problem = stats.first_problems.front();
  return false;
}

}  // namespace soak
