// SPDX-License-Identifier: Apache-2.0
// cpu_engine.hpp: CpuEngine, the one object an application talks to.
//
//   teamla::engine::CpuEngine engine;                  // held team, configured from the env
//   engine.gemm(Op::none, Op::none, 1.0, a, b, 0.0, c);  // views (or Eigen, see eigen.hpp)
//   engine.solve_spd(a, b);                            // a = L*L^T in place, b = inv(a)*b
//
// An engine owns its threads (a pool and a team, per its Mode) and its workspaces (packing
// buffers), reused across calls: in held and serial mode a call in steady state allocates
// nothing. The routines are those of teamla/linalg/blas3.hpp, with the same argument order
// minus the Exec; every argument is validated before anything is written.
//
// Threads: every method is thread-safe. The concurrency rule: at most one call at a time
// leads the engine's team (and uses the engine's workspace). A call that arrives while the
// team is busy does not wait for it: it runs serially on its own thread, with that thread's
// own workspace (see docs/engine.md). So concurrent callers never block each other for longer
// than a try-lock and never run more threads than the engine was configured with plus the
// callers themselves.
//
// Exceptions: bad input throws linalg::InvalidArgument naming the argument and its value,
// before anything is written. An exception from inside a kernel (or from a participant of the
// team) propagates to the caller; the output of that call is then unspecified, and the engine
// stays usable: the next call runs normally.
#pragma once

#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "teamla/engine/config.hpp"
#include "teamla/engine/view_of.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/exec.hpp"
#include "teamla/linalg/matrix_view.hpp"
#include "teamla/team/wait_policy.hpp"

namespace teamla::engine {

using linalg::Diag;
using linalg::GemmBatchSource;
using linalg::GemmGroup;
using linalg::GemmItem;
using linalg::index_t;
using linalg::Layout;
using linalg::MatrixView;
using linalg::Op;
using linalg::Side;
using linalg::Uplo;

// NotPositiveDefinite is thrown by solve_spd() when the Cholesky factorization fails: A is
// not (numerically) symmetric positive definite. column() is LAPACK's info (1-based).
class NotPositiveDefinite : public std::runtime_error {
 public:
  explicit NotPositiveDefinite(index_t column);
  [[nodiscard]] index_t column() const { return column_; }

 private:
  index_t column_;
};

// SingularMatrix is thrown by solve() when the LU factorization meets an exactly zero pivot:
// A is singular. column() is LAPACK's info (the 1-based index of the first zero U(i, i)).
class SingularMatrix : public std::runtime_error {
 public:
  explicit SingularMatrix(index_t column);
  [[nodiscard]] index_t column() const { return column_; }

 private:
  index_t column_;
};

// CallStats: what the most recent call on the engine did. A tiny gemm
// (linalg::gemm_is_tiny: at most 32^3 multiply-adds) runs on the caller before the engine's
// dispatch and is recorded neither here nor in EngineCounters: the record would cost more than
// the product (docs/engine.md, "Cost of a call").
struct CallStats {
  // "gemm", "gemm_batch", "gemm_batch_strided", "trsm", "syrk", "symm", "trmm", "syr2k",
  // "potrf", "potrs", "getrf", "getrs", "getri"
  std::string_view routine;
  bool on_team = false;    // ran with the engine's team (else serially on the caller)
  bool contended = false;  // the team was busy with another caller: ran serially
  // A workspace could not grow during the call (in this process: the count is process-wide,
  // so a concurrent call's shortfall can show here too): its kernel ran with small blocks.
  bool memory_fallback = false;
  linalg::ExecStats exec;     // widths and sections the kernel used
  std::uint64_t wall_ns = 0;  // wall time of the call, validation to return
};

// EngineCounters: cumulative figures of an engine since it was built.
struct EngineCounters {
  team::WaitCounters waits;           // the pool's (per_call: summed over every pool built)
  std::uint64_t calls = 0;            // calls that ran a kernel (tiny gemms not counted)
  std::uint64_t team_calls = 0;       // ... of which led the team
  std::uint64_t contended_calls = 0;  // ... of which found the team busy and ran serially
  // ... of which ran a region narrower than its cap, or inline, because the process CPU budget
  // had no CPU free for it: other calls held them (team/cpu_budget.hpp).
  std::uint64_t budget_limited_calls = 0;
  std::uint64_t pools_built = 0;   // held: 1; per_call: one per team call; serial: 0
  std::uint64_t pools_reused = 0;  // per_call: pools whose workers a previous call handed back
  // What the width model last measured on this machine (linalg/width.hpp): the team's section
  // cost and the widest section the CPUs allowed (affinity set, cgroup quota); 0 before the
  // first call that could open a section.
  double section_cost_ns = 0;
  std::size_t width_cap = 0;
  // Shortfalls (team/shortfall.hpp): the engine never fails a call for lack of threads or
  // memory; it runs narrower, serially, or with small blocks, and counts it here.
  std::uint64_t threads_unavailable = 0;  // workers the system refused (summed over pools)
  std::uint64_t serial_fallbacks = 0;     // team calls run serially: no memory for a pool
  std::uint64_t memory_fallbacks = 0;     // calls whose kernel ran with small stack blocks
};

// ThreadWidthLimit: while one is alive, the calls its thread makes on any CpuEngine use at
// most `width` threads, the caller included (0: no limit; 1: every call runs on the caller).
// The limit caps the team's width per call, so one engine serves callers that each want
// their own thread count (the BLAS ABI's openblas_set_num_threads) without a team per
// count. Limits nest: each restores the one it replaced. Only the thread's calls are
// affected; use it on the thread that makes them.
class ThreadWidthLimit {
 public:
  explicit ThreadWidthLimit(std::size_t width);
  ThreadWidthLimit(const ThreadWidthLimit&) = delete;
  ThreadWidthLimit& operator=(const ThreadWidthLimit&) = delete;
  ~ThreadWidthLimit();

  // current() is the calling thread's limit (0: none).
  [[nodiscard]] static std::size_t current();

 private:
  std::size_t previous_;
};

class CpuEngine {
 public:
  // CpuEngine() is configured by EngineConfig::from_env(): the defaults, overridden by the
  // TEAMLA_* environment variables. Throws ConfigError for an invalid variable.
  CpuEngine();
  // CpuEngine(config) uses `config` as given (no environment). Throws ConfigError for an
  // invalid config, and std::bad_alloc when there is no memory for the engine's own state.
  // Held mode starts the pool's threads here; threads the system refuses make the team
  // narrower (or the engine serial), counted in counters().threads_unavailable.
  //
  // Calls throw only for bad arguments (InvalidArgument, linalg/errors.hpp), solve_spd's
  // NotPositiveDefinite and solve's SingularMatrix; never for lack of threads or memory: they
  // run narrower, serially or with small blocks on the caller's stack instead
  // (team/shortfall.hpp), and the counters say so. The two exceptions are buffers the caller
  // can pass instead: solve's pivots and getri's scratch, whose allocation can throw
  // std::bad_alloc (getrf/getrs with the caller's ipiv, and getri with a `work` of n elements or
  // more, never throw for memory).
  explicit CpuEngine(const EngineConfig& config);
  CpuEngine(const CpuEngine&) = delete;
  CpuEngine& operator=(const CpuEngine&) = delete;
  // Joins the engine's threads. No call may be in flight.
  ~CpuEngine();

  // gemm(): C = alpha * op(A) * op(B) + beta * C. A, B, C are MatrixViews or any type with a
  // ViewOf adapter (Eigen: include teamla/engine/eigen.hpp). The scalar type is C's.
  template <class A, class B, class C>
  void gemm(Op op_a, Op op_b, scalar_of<C> alpha, A&& a, B&& b, scalar_of<C> beta, C&& c) {
    run_gemm(op_a, op_b, alpha, const_view_of(a), const_view_of(b), beta, mutable_view_of(c));
  }
  // gemm_batch(): every item's C = alpha * op(A) * op(B) + beta * C (linalg/batch.hpp), the
  // batch split across the team when its total flops pay for a section. Every item is
  // validated first; the items' Cs must not overlap. A source describes a batch without an
  // array of items; groups give items of one shape by arrays of pointers (the CBLAS group
  // form), each item then costing three pointer loads besides its kernel.
  void gemm_batch(std::span<const GemmItem<double>> items);
  void gemm_batch(std::span<const GemmItem<float>> items);
  void gemm_batch(const GemmBatchSource<double>& source);
  void gemm_batch(const GemmBatchSource<float>& source);
  void gemm_batch(std::span<const GemmGroup<double>> groups);
  void gemm_batch(std::span<const GemmGroup<float>> groups);
  // The complex batches (Op::conj_transpose allowed): each item the complex product.
  void gemm_batch(std::span<const GemmItem<std::complex<double>>> items);
  void gemm_batch(std::span<const GemmItem<std::complex<float>>> items);
  void gemm_batch(const GemmBatchSource<std::complex<double>>& source);
  void gemm_batch(const GemmBatchSource<std::complex<float>>& source);
  void gemm_batch(std::span<const GemmGroup<std::complex<double>>> groups);
  void gemm_batch(std::span<const GemmGroup<std::complex<float>>> groups);
  // gemm_batch_strided(): `count` products of one shape, item i's A, B, C at the views' data
  // + i * stride_a, stride_b, stride_c elements (strides >= 0; stride_c keeps the Cs apart).
  template <class A, class B, class C>
  void gemm_batch_strided(Op op_a, Op op_b, scalar_of<C> alpha, A&& a, index_t stride_a, B&& b,
                          index_t stride_b, scalar_of<C> beta, C&& c, index_t stride_c,
                          index_t count) {
    run_gemm_batch_strided(op_a, op_b, alpha, const_view_of(a), stride_a, const_view_of(b),
                           stride_b, beta, mutable_view_of(c), stride_c, count);
  }
  // trsm(): B = alpha * inv(op(A)) * B (left) or alpha * B * inv(op(A)) (right).
  template <class A, class B>
  void trsm(Side side, Uplo uplo, Op op_a, Diag diag, scalar_of<B> alpha, A&& a, B&& b) {
    run_trsm(side, uplo, op_a, diag, alpha, const_view_of(a), mutable_view_of(b));
  }
  // syrk(): C = alpha * op(A) * op(A)^T + beta * C on the `uplo` triangle of C.
  template <class A, class C>
  void syrk(Uplo uplo, Op op_a, scalar_of<C> alpha, A&& a, scalar_of<C> beta, C&& c) {
    run_syrk(uplo, op_a, alpha, const_view_of(a), beta, mutable_view_of(c));
  }
  // herk(): C = alpha * op(A) * op(A)^H + beta * C on the `uplo` triangle of a complex C (alpha
  // and beta real; op none or conj_transpose).
  template <class A, class C>
  void herk(Uplo uplo, Op op_a, typename scalar_of<C>::value_type alpha, A&& a,
            typename scalar_of<C>::value_type beta, C&& c) {
    run_herk(uplo, op_a, alpha, const_view_of(a), beta, mutable_view_of(c));
  }
  // symm(): C = alpha * A * B + beta * C (left) or alpha * B * A + beta * C (right), A
  // symmetric (its `uplo` triangle is read).
  template <class A, class B, class C>
  void symm(Side side, Uplo uplo, scalar_of<C> alpha, A&& a, B&& b, scalar_of<C> beta, C&& c) {
    run_symm(side, uplo, alpha, const_view_of(a), const_view_of(b), beta, mutable_view_of(c));
  }
  // hemm(): symm() with a complex Hermitian A (its diagonal's imaginary parts are not read).
  template <class A, class B, class C>
  void hemm(Side side, Uplo uplo, scalar_of<C> alpha, A&& a, B&& b, scalar_of<C> beta, C&& c) {
    run_hemm(side, uplo, alpha, const_view_of(a), const_view_of(b), beta, mutable_view_of(c));
  }
  // trmm(): B = alpha * op(A) * B (left) or alpha * B * op(A) (right), A triangular.
  template <class A, class B>
  void trmm(Side side, Uplo uplo, Op op_a, Diag diag, scalar_of<B> alpha, A&& a, B&& b) {
    run_trmm(side, uplo, op_a, diag, alpha, const_view_of(a), mutable_view_of(b));
  }
  // syr2k(): C = alpha * (op(A) * op(B)^T + op(B) * op(A)^T) + beta * C on the `uplo` triangle.
  template <class A, class B, class C>
  void syr2k(Uplo uplo, Op op, scalar_of<C> alpha, A&& a, B&& b, scalar_of<C> beta, C&& c) {
    run_syr2k(uplo, op, alpha, const_view_of(a), const_view_of(b), beta, mutable_view_of(c));
  }
  // her2k(): C = alpha * op(A) * op(B)^H + conj(alpha) * op(B) * op(A)^H + beta * C on the
  // `uplo` triangle of a complex C (beta real; op none or conj_transpose).
  template <class A, class B, class C>
  void her2k(Uplo uplo, Op op, scalar_of<C> alpha, A&& a, B&& b,
             typename scalar_of<C>::value_type beta, C&& c) {
    run_her2k(uplo, op, alpha, const_view_of(a), const_view_of(b), beta, mutable_view_of(c));
  }
  // potrf(): Cholesky factorization of A's `uplo` triangle in place. Returns LAPACK's info:
  // 0, or the 1-based column of the first non-positive pivot.
  template <class A>
  index_t potrf(Uplo uplo, A&& a) {
    return run_potrf(uplo, mutable_view_of(a));
  }
  // potrs(): B = inv(A) * B with A's factor from potrf (same uplo).
  template <class A, class B>
  void potrs(Uplo uplo, A&& a, B&& b) {
    run_potrs(uplo, const_view_of(a), mutable_view_of(b));
  }
  // solve_spd(): solves A*X = B for symmetric positive definite A (its lower triangle is
  // read). A's lower triangle is overwritten by L (A = L*L^T) and B by X. Throws
  // NotPositiveDefinite (B untouched) when A is not positive definite.
  template <class A, class B>
  void solve_spd(A&& a, B&& b) {
    run_solve_spd(mutable_view_of(a), mutable_view_of(b));
  }

  // getrf(): LU factorization with partial pivoting of A (m x n) in place, P*A = L*U
  // (teamla/linalg/lu.hpp); ipiv (at least min(m, n) entries) receives LAPACK's 1-based pivots.
  // Returns LAPACK's info: 0, or the index of the first exactly zero U(i, i) (the factorization
  // is still completed).
  template <class A>
  index_t getrf(A&& a, std::span<int> ipiv) {
    return run_getrf(mutable_view_of(a), ipiv);
  }
  // getrs(): B = inv(op(A)) * B with A's factors and pivots from getrf.
  template <class A, class B>
  void getrs(Op op, A&& lu, std::span<const int> ipiv, B&& b) {
    run_getrs(op, const_view_of(lu), ipiv, mutable_view_of(b));
  }
  // getri(): A^-1 in place from A's factors and pivots from getrf. Returns 0, or the index of
  // the first zero U(i, i) with A untouched (no inverse exists). Its scratch (n *
  // linalg::kGetriBlock elements) is `work` when that is large enough, else allocated for the
  // call (linalg/lu.hpp).
  template <class A>
  index_t getri(A&& lu, std::span<const int> ipiv, std::span<scalar_of<A>> work = {}) {
    return run_getri(mutable_view_of(lu), ipiv, work);
  }
  // solve(): solves A*X = B for a square A by LU with partial pivoting: A is overwritten by its
  // factors and B by X. Throws SingularMatrix (B untouched) when a pivot is exactly zero. The
  // pivots are allocated for the call (n ints); getrf and getrs with the caller's ipiv
  // allocate nothing.
  template <class A, class B>
  void solve(A&& a, B&& b) {
    run_solve(mutable_view_of(a), mutable_view_of(b));
  }

  // run(): kernel(exec) on this engine, under its concurrency rule (the team when the caller
  // leads it, else serially), with exec set up as for the routines above and the call recorded
  // under `routine` (a literal: last_call() keeps the view). The way to run a linalg routine
  // that has no method here (the BLAS ABI's level 1 and 2); kernel is called once, on the
  // calling thread.
  template <class Kernel>
  void run(std::string_view routine, Kernel&& kernel) {
    using K = std::remove_reference_t<Kernel>;
    run_erased(
        routine, [](void* k, linalg::Exec& exec) { (*static_cast<K*>(k))(exec); }, &kernel);
  }

  // Introspection. All thread-safe.
  [[nodiscard]] Mode mode() const;
  // width() is the most threads a call uses: the team's width (1 in serial mode).
  [[nodiscard]] std::size_t width() const;
  // isa() names the kernels the routines run: "avx512", "avx2" or "ref".
  [[nodiscard]] std::string_view isa() const;
  [[nodiscard]] const EngineConfig& config() const;
  [[nodiscard]] EngineCounters counters() const;
  // last_call() describes the most recent call to complete, from any thread.
  [[nodiscard]] CallStats last_call() const;

  // impl() is the engine's internal state (engine/src/cpu_engine_impl.hpp), for tests.
  struct Impl;
  [[nodiscard]] Impl& impl() const { return *impl_; }

 private:
  // The routines of each scalar type (cpu_engine_routines.cpp, cpu_engine_lu.cpp): every one in
  // double, float and their complex types, but herk, hemm, her2k (complex only). gemm takes its
  // views by reference: a copy of three views per layer weighs on the smallest calls
  // (docs/engine.md, "Cost of a call").
  template <class T>
  void run_gemm(Op op_a, Op op_b, T alpha, const MatrixView<const T>& a,
                const MatrixView<const T>& b, T beta, const MatrixView<T>& c);
  template <class T>
  void run_gemm_batch_strided(Op op_a, Op op_b, T alpha, MatrixView<const T> a, index_t stride_a,
                              MatrixView<const T> b, index_t stride_b, T beta, MatrixView<T> c,
                              index_t stride_c, index_t count);
  template <class T>
  void run_trsm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
                MatrixView<T> b);
  template <class T>
  void run_syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta, MatrixView<T> c);
  template <class T>
  void run_herk(Uplo uplo, Op op_a, typename T::value_type alpha, MatrixView<const T> a,
                typename T::value_type beta, MatrixView<T> c);
  template <class T>
  void run_symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                MatrixView<T> c);
  template <class T>
  void run_trmm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
                MatrixView<T> b);
  template <class T>
  void run_syr2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                 MatrixView<T> c);
  template <class T>
  void run_hemm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
                MatrixView<T> c);
  template <class T>
  void run_her2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b,
                 typename T::value_type beta, MatrixView<T> c);
  template <class T>
  index_t run_potrf(Uplo uplo, MatrixView<T> a);
  template <class T>
  void run_potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b);
  template <class T>
  void run_solve_spd(MatrixView<T> a, MatrixView<T> b);
  template <class T>
  index_t run_getrf(MatrixView<T> a, std::span<int> ipiv);
  template <class T>
  void run_getrs(Op op, MatrixView<const T> lu, std::span<const int> ipiv, MatrixView<T> b);
  template <class T>
  index_t run_getri(MatrixView<T> lu, std::span<const int> ipiv, std::span<T> work);
  template <class T>
  void run_solve(MatrixView<T> a, MatrixView<T> b);

  void run_erased(std::string_view routine, void (*kernel)(void*, linalg::Exec&), void* context);

  std::unique_ptr<Impl> impl_;
};

}  // namespace teamla::engine
