// SPDX-License-Identifier: Apache-2.0
// abi_level2.cpp: the level-2 routines of the ABI, from checked arguments to linalg (blas2.hpp),
// inline or on the process engine.
#include "abi_level2.hpp"

#include <complex>

#include "call_log.hpp"
#include "process_engine.hpp"
#include "run_on_engine.hpp"
#include "teamla/linalg/blas2.hpp"

namespace teamla::blas {
namespace {

Uplo uplo_of(char uplo) { return same_letter(uplo, 'U') ? Uplo::upper : Uplo::lower; }

// matrix(): the call's A, rows x cols as written, in its layout.
template <class T>
MatrixView<T> matrix(const Level2Call& call, T* a, int rows, int cols) {
  return {a, rows, cols, call.args.lda, call.layout};
}

template <class T>
linalg::VectorView<T> vector(T* x, int n, int inc) {
  return linalg::strided(x, index_t{n}, index_t{inc});
}

// run_level2(): kernel(exec) inline on a serial Exec when the call cannot use a second thread
// (the caller's count is 1) or is below the planner's floor (linalg::level2_runs_inline: no
// section could pay for it), else on_engine() (run_on_engine.hpp).
template <class T, class Kernel>
void run_level2(const char* routine, index_t elements, Kernel&& kernel) {
  if (caller_runs_one_thread() || linalg::level2_runs_inline<T>(elements)) {
    if (verbosity() > 0) set_last_call_threads(1);
    guarded(routine, [&] {
      linalg::Exec serial;
      kernel(serial);
    });
    return;
  }
  on_engine(routine, kernel);
}

}  // namespace

template <class T>
void gemv(const Level2Call& call, T alpha, const T* a, const T* x, T beta, T* y) {
  const Level2Args& g = call.args;
  if (g.m == 0 || g.n == 0 || (alpha == T(0) && beta == T(1))) return;
  const Op op = op_of<T>(g.trans);
  const int x_size = op == Op::none ? g.n : g.m;
  const int y_size = op == Op::none ? g.m : g.n;
  const auto av = matrix(call, a, g.m, g.n);
  const auto xv = vector(x, x_size, g.incx);
  const auto yv = vector(y, y_size, g.incy);
  run_level2<T>("gemv", index_t{g.m} * g.n,
                [&](linalg::Exec& exec) { linalg::gemv(op, alpha, av, xv, beta, yv, exec); });
}

template <class T>
void symv(const Level2Call& call, T alpha, const T* a, const T* x, T beta, T* y) {
  const Level2Args& g = call.args;
  if (g.n == 0 || (alpha == T(0) && beta == T(1))) return;
  const auto av = matrix(call, a, g.n, g.n);
  const auto xv = vector(x, g.n, g.incx);
  const auto yv = vector(y, g.n, g.incy);
  const Uplo uplo = uplo_of(g.uplo);
  run_level2<T>("symv", index_t{g.n} * g.n / 2, [&](linalg::Exec& exec) {
    if constexpr (linalg::is_complex_v<T>) {
      linalg::hemv(uplo, alpha, av, xv, beta, yv, exec);
    } else {
      linalg::symv(uplo, alpha, av, xv, beta, yv, exec);
    }
  });
}

template <class T>
void ger(const Level2Call& call, T alpha, const T* x, const T* y, T* a, bool conj_y) {
  const Level2Args& g = call.args;
  if (g.m == 0 || g.n == 0 || alpha == T(0)) return;
  const auto av = matrix(call, a, g.m, g.n);
  const auto xv = vector(x, g.m, g.incx);
  const auto yv = vector(y, g.n, g.incy);
  run_level2<T>("ger", index_t{g.m} * g.n, [&](linalg::Exec& exec) {
    if constexpr (linalg::is_complex_v<T>) {
      if (conj_y) {
        linalg::gerc(alpha, xv, yv, av, exec);
        return;
      }
    }
    linalg::ger(alpha, xv, yv, av, exec);
  });
}

template <class T>
void syr(const Level2Call& call, linalg::real_t<T> alpha, const T* x, T* a) {
  const Level2Args& g = call.args;
  if (g.n == 0 || alpha == 0) return;
  const auto av = matrix(call, a, g.n, g.n);
  const auto xv = vector(x, g.n, g.incx);
  const Uplo uplo = uplo_of(g.uplo);
  run_level2<T>("syr", index_t{g.n} * g.n / 2, [&](linalg::Exec& exec) {
    if constexpr (linalg::is_complex_v<T>) {
      linalg::her(uplo, alpha, xv, av, exec);
    } else {
      linalg::syr(uplo, alpha, xv, av, exec);
    }
  });
}

template <class T>
void syr2(const Level2Call& call, T alpha, const T* x, const T* y, T* a) {
  const Level2Args& g = call.args;
  if (g.n == 0 || alpha == T(0)) return;
  const auto av = matrix(call, a, g.n, g.n);
  const auto xv = vector(x, g.n, g.incx);
  const auto yv = vector(y, g.n, g.incy);
  const Uplo uplo = uplo_of(g.uplo);
  run_level2<T>("syr2", index_t{g.n} * g.n / 2, [&](linalg::Exec& exec) {
    if constexpr (linalg::is_complex_v<T>) {
      linalg::her2(uplo, alpha, xv, yv, av, exec);
    } else {
      linalg::syr2(uplo, alpha, xv, yv, av, exec);
    }
  });
}

// trmv()/trsv(): both take the same arguments; `solve` picks the routine.
template <class T>
void triangular(const Level2Call& call, const T* a, T* x, bool solve) {
  const Level2Args& g = call.args;
  if (g.n == 0) return;
  const auto av = matrix(call, a, g.n, g.n);
  const auto xv = vector(x, g.n, g.incx);
  const Uplo uplo = uplo_of(g.uplo);
  const Op op = op_of<T>(g.trans);
  const linalg::Diag diag = same_letter(g.diag, 'U') ? linalg::Diag::unit : linalg::Diag::non_unit;
  run_level2<T>(solve ? "trsv" : "trmv", index_t{g.n} * g.n / 2, [&](linalg::Exec& exec) {
    if (solve) {
      linalg::trsv(uplo, op, diag, av, xv, exec);
    } else {
      linalg::trmv(uplo, op, diag, av, xv, exec);
    }
  });
}

template <class T>
void trmv(const Level2Call& call, const T* a, T* x) {
  triangular(call, a, x, false);
}
template <class T>
void trsv(const Level2Call& call, const T* a, T* x) {
  triangular(call, a, x, true);
}

#define TEAMLA_LEVEL2_INSTANTIATE(T)                                        \
  template void gemv<T>(const Level2Call&, T, const T*, const T*, T, T*);   \
  template void symv<T>(const Level2Call&, T, const T*, const T*, T, T*);   \
  template void ger<T>(const Level2Call&, T, const T*, const T*, T*, bool); \
  template void syr<T>(const Level2Call&, linalg::real_t<T>, const T*, T*); \
  template void syr2<T>(const Level2Call&, T, const T*, const T*, T*);      \
  template void trmv<T>(const Level2Call&, const T*, T*);                   \
  template void trsv<T>(const Level2Call&, const T*, T*);
TEAMLA_LEVEL2_INSTANTIATE(float)
TEAMLA_LEVEL2_INSTANTIATE(double)
TEAMLA_LEVEL2_INSTANTIATE(std::complex<float>)
TEAMLA_LEVEL2_INSTANTIATE(std::complex<double>)
#undef TEAMLA_LEVEL2_INSTANTIATE

}  // namespace teamla::blas
