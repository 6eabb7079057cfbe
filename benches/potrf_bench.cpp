// SPDX-License-Identifier: Apache-2.0
// potrf_bench.cpp: one arm of the Cholesky benchmark per process.
//
//   potrf_bench --arm teamla|openblas|eigen --threads T --type d|s --sizes 64,128,...
//               [--reps R] [--uplo L|U] [--block NB] [--lookahead 0|1]
//
// Each arm runs in its own process, so that one library's spinning threads never steal the
// CPU from the next arm; scripts/bench-potrf alternates the processes and takes medians.
// Every timed call factors a fresh copy of the same SPD matrix (the copy is not timed, and
// leaves the matrix hot in cache). Prints one JSON object per size on stdout:
// {"arm","threads","type","n","median_ns","min_ns","gflops","reps","info"}, with
// flops = n^3/3.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../linalg/src/chol_internal.hpp"
#include "common/args.hpp"
#include "common/matrices.hpp"
#include "potrf_bench_arms.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t);
void openblas_set_num_threads(int threads);
char* openblas_get_corename();
}

namespace {

struct Options {
  std::string arm = "teamla";
  int threads = 1;
  char type = 'd';
  char uplo = 'L';
  std::vector<long> sizes{64, 128, 256, 512, 1024, 2048, 4096};
  int reps = 0;  // 0: by size
  long block = 0;
  int lookahead = -1;
};

Options parse(int argc, char** argv) {
  Options o;
  for (teamla::bench::ArgCursor cursor(argc, argv); cursor.next() && cursor.has_value();) {
    const std::string key = cursor.name();
    const std::string value = cursor.value();
    if (key == "--arm") {
      o.arm = value;
    } else if (key == "--threads") {
      o.threads = std::atoi(value.c_str());
    } else if (key == "--type") {
      o.type = value[0];
    } else if (key == "--uplo") {
      o.uplo = value[0];
    } else if (key == "--reps") {
      o.reps = std::atoi(value.c_str());
    } else if (key == "--block") {
      o.block = std::atol(value.c_str());
    } else if (key == "--lookahead") {
      o.lookahead = std::atoi(value.c_str());
    } else if (key == "--sizes") {
      o.sizes.clear();
      for (const char* p = value.c_str(); *p != 0;) {
        char* end = nullptr;
        o.sizes.push_back(std::strtol(p, &end, 10));
        p = *end == ',' ? end + 1 : end;
      }
    } else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      std::exit(2);
    }
  }
  return o;
}

template <class T>
int run_once(const Options& o, long n, T* a, teamla::linalg::Exec& exec) {
  const int nn = static_cast<int>(n);
  if (o.arm == "teamla") {
    const auto uplo = o.uplo == 'L' ? teamla::linalg::Uplo::lower : teamla::linalg::Uplo::upper;
    return static_cast<int>(
        teamla::linalg::potrf<T>(uplo, teamla::linalg::col_major(a, n, n), exec));
  }
  if (o.arm == "openblas") {
    int info = 0;
    if constexpr (sizeof(T) == 8) {
      dpotrf_(&o.uplo, &nn, a, &nn, &info, 1);
    } else {
      spotrf_(&o.uplo, &nn, a, &nn, &info, 1);
    }
    return info;
  }
  return teamla::bench::eigen_llt(a, n, o.uplo == 'L');
}

template <class T>
void bench(const Options& o) {
  std::unique_ptr<teamla::team::Pool> pool;
  std::unique_ptr<teamla::team::Team> team;
  teamla::linalg::Exec exec;
  if (o.arm == "teamla" && o.threads > 1) {
    pool = teamla::team::Pool::builder().threads(static_cast<std::size_t>(o.threads)).build();
    team = std::make_unique<teamla::team::Team>(pool->acquire(static_cast<std::size_t>(o.threads)));
    exec.team = team.get();
  }
  if (o.arm == "openblas") openblas_set_num_threads(o.threads);
  if (o.arm == "eigen") teamla::bench::eigen_set_threads(o.threads);
  for (long n : o.sizes) {
    const std::vector<T> original = teamla::bench::spd_matrix<T>(n, static_cast<std::uint64_t>(n));
    std::vector<T> work(original.size());
    const double flops = static_cast<double>(n) * n * n / 3.0;
    const int reps = o.reps > 0 ? o.reps : static_cast<int>(std::clamp(3e9 / flops, 5.0, 400.0));
    std::vector<double> times;
    std::size_t inline_steps = 0;  // over the timed calls: steps the cost model kept inline
    int info = 0;
    const teamla::team::WaitCounters waits_before =
        pool ? pool->counters() : teamla::team::WaitCounters{};
    for (int r = -1; r < reps; ++r) {  // r == -1: warm-up
      std::memcpy(work.data(), original.data(), original.size() * sizeof(T));
      const auto t0 = std::chrono::steady_clock::now();
      info = run_once<T>(o, n, work.data(), exec);
      const auto t1 = std::chrono::steady_clock::now();
      if (r >= 0) {
        times.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
        inline_steps += exec.stats.inline_regions;
      }
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    // The waits of every call of this size (warm-up included): stacked waits say the two
    // threads shared a CPU, sleeps that a wait outlasted its spin.
    const teamla::team::WaitCounters waits =
        (pool ? pool->counters() : teamla::team::WaitCounters{}) - waits_before;
    std::printf(
        "{\"arm\":\"%s\",\"threads\":%d,\"type\":\"%c\",\"uplo\":\"%c\",\"n\":%ld,\"block\":%ld,"
        "\"lookahead\":%d,\"median_ns\":%.0f,\"min_ns\":%.0f,\"gflops\":%.2f,\"reps\":%d,"
        "\"info\":%d,\"sections\":%zu,\"max_width\":%zu,\"stacked_waits\":%llu,"
        "\"sleeps\":%llu,\"inline_steps\":%zu}\n",
        o.arm.c_str(), o.threads, o.type, o.uplo, n, o.block, o.lookahead, median, times[0],
        flops / median, reps, info, exec.stats.sections, exec.stats.max_width_used,
        static_cast<unsigned long long>(waits.stacked_waits),
        static_cast<unsigned long long>(waits.join_sleeps + waits.barrier_sleeps +
                                        waits.member_parks),
        inline_steps);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.arm == "openblas") std::fprintf(stderr, "openblas core: %s\n", openblas_get_corename());
  if (o.block > 0) teamla::linalg::chol_detail::set_potrf_block_override(o.block);
  if (o.lookahead >= 0) teamla::linalg::chol_detail::set_potrf_lookahead_override(o.lookahead);
  if (o.type == 'd') {
    bench<double>(o);
  } else {
    bench<float>(o);
  }
  return 0;
}
