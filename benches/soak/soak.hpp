// SPDX-License-Identifier: Apache-2.0
// soak.hpp: the pieces of the soak driver (benches/soak/soak.cpp), a long mixed run of checked
// calls through one shared CpuEngine and through libteamla_blas.so (docs/perf/soak.md).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "teamla/engine/cpu_engine.hpp"

namespace soak {

using Rng = std::mt19937_64;

// Backend: the five routines in the reference BLAS/LAPACK calling convention (column-major,
// char flags), for double and float. Two implementations: the ABI (dlopen'ed library) and a
// CpuEngine adapter, so that one checked workload drives both.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  virtual void gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
                    const double* b, int ldb, double beta, double* c, int ldc) = 0;
  virtual void trsm(char side, char uplo, char ta, char diag, int m, int n, double alpha,
                    const double* a, int lda, double* b, int ldb) = 0;
  virtual void syrk(char uplo, char trans, int n, int k, double alpha, const double* a, int lda,
                    double beta, double* c, int ldc) = 0;
  virtual int potrf(char uplo, int n, double* a, int lda) = 0;
  virtual int potrs(char uplo, int n, int nrhs, const double* a, int lda, double* b, int ldb) = 0;
  virtual void gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
                    const float* b, int ldb, float beta, float* c, int ldc) = 0;
  virtual void trsm(char side, char uplo, char ta, char diag, int m, int n, float alpha,
                    const float* a, int lda, float* b, int ldb) = 0;
  virtual void syrk(char uplo, char trans, int n, int k, float alpha, const float* a, int lda,
                    float beta, float* c, int ldc) = 0;
  virtual int potrf(char uplo, int n, float* a, int lda) = 0;
  virtual int potrs(char uplo, int n, int nrhs, const float* a, int lda, float* b, int ldb) = 0;
};

// open_abi(): the library's routines, resolved by dlopen (RTLD_LOCAL) as an application
// would. Returns null and fills `error` when the library or a symbol is missing.
std::unique_ptr<Backend> open_abi(const std::string& path, std::string& error);
// engine_backend(): the adapter over `engine`, which must outlive it.
std::unique_ptr<Backend> engine_backend(teamla::engine::CpuEngine& engine);

// The routines, per precision: the index of a counter row.
enum Routine : int { gemm, trsm, syrk, potrf, potrs, kRoutines };
constexpr int kRows = kRoutines * 2 * 2;  // routine x {d, s} x {engine, abi}
inline int row_of(Routine r, bool single, bool abi) { return (r * 2 + single) * 2 + abi; }
std::string row_name(int row);  // "dgemm engine"

// Shared figures of the run; every counter is touched from several threads.
struct Stats {
  std::array<std::atomic<std::uint64_t>, kRows> calls{}, failures{}, wrong{};
  std::atomic<std::uint64_t> forks{0}, child_failures{0}, child_hangs{0}, affinity_changes{0};
  std::atomic<std::uint64_t> last_progress_ns{0};  // a call or a check completed
  bool echo = true;          // print each of the first problems when found (not in a forked child)
  mutable std::mutex mutex;  // guards what follows
  std::vector<std::string> first_problems;  // the first few, with their arguments
  double worst_ms = 0;
  std::string worst_call;
};

// Tracker: what one application thread is doing, for the report and the watchdog.
struct Tracker {
  Stats* stats = nullptr;
  std::atomic<std::uint64_t> call_start_ns{0};  // 0: not inside a library call
  std::mutex mutex;
  std::string current;  // the call in flight, or the last one

  void begin(const std::string& what);
  void end(int row, const std::string& what);  // counts the call, records a new worst
  void problem(int row, bool wrong_result, const std::string& what);
  void progress() const;
};

std::uint64_t now_ns();

// run_random_call(): draws one routine, precision, shape and arguments, runs it on
// `backend`, checks the result; all counting goes through `tracker`.
void run_random_call(Backend& backend, bool abi, Rng& rng, Tracker& tracker);
// checked_small_calls(): a few fixed small calls on `backend`, checked; true when all are
// right. For the forked child, which must not print through stdio.
bool checked_small_calls(Backend& backend, bool abi, Rng& rng, std::string& problem);

// The process-level duties (soak_process.cpp), each run on a thread of its own until `stop`.
// fork_loop(): every `period_ms`, fork a child that runs checked_small_calls through the ABI
// and through a CpuEngine of its own built from `config`; a child that has not exited after
// 10 s is killed and counted as a hang.
void fork_loop(const std::atomic<bool>& stop, Stats& stats, Backend& abi,
               const teamla::engine::EngineConfig& config, int period_ms);
// affinity_loop(): every `period_ms`, move every thread of the process (each TID in
// /proc/self/task, as `taskset -a -p` does) to CPU 0 alone, then back to the CPUs it started
// with, alternately; all of them again at the end.
void affinity_loop(const std::atomic<bool>& stop, Stats& stats, int period_ms);
// rss_bytes(): the resident set, from /proc/self/statm.
std::uint64_t rss_bytes();
// Machine: what the record says about where it ran.
struct Machine {
  std::string cpu, kernel;
  long cpus_online = 0, cpus_allowed = 0;
};
Machine machine();

// Result: everything the report says (soak_report.cpp).
struct Result {
  double seconds = 0;
  int threads = 0;
  std::string engine_mode, abi_mode, library, watchdog;  // watchdog: empty, or what stalled
  std::uint64_t seed = 0;
  std::uint64_t rss_start = 0, rss_end = 0, rss_max = 0, rss_bound = 0;
  std::uint64_t heap_start = 0, heap_end = 0;  // bytes allocated and not freed
  teamla::engine::EngineCounters counters;
  Machine host;
  [[nodiscard]] bool rss_ok() const { return rss_end <= rss_start + rss_bound; }
};
// passed(): no failure, wrong result, child failure or hang, no stall, RSS within its bound.
bool passed(const Stats& stats, const Result& result);
void print_table(const Stats& stats, const Result& result);
bool write_json(const std::string& path, const Stats& stats, const Result& result);

}  // namespace soak
