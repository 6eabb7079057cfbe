// SPDX-License-Identifier: Apache-2.0
// run_on_engine.hpp: how an exported routine reaches the kernels: the process engine, or a
// serial runner when the engine is closed or could not be built (abi_routines.cpp, abi_lu.cpp).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>

#include "argument_checks.hpp"
#include "call_log.hpp"
#include "process_engine.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/lu.hpp"

namespace teamla::blas {

using linalg::Diag;
using linalg::index_t;
using linalg::MatrixView;
using linalg::Op;
using linalg::Side;
using linalg::Uplo;

// op_of(): the Op of a BLAS transpose letter (checked: 'N', 'T' or 'C'); 'C' is the conjugate
// transpose for a complex T and the transpose for a real one.
template <class T = double>
Op op_of(char trans) {
  if (linalg::is_complex_v<T> && same_letter(trans, 'C')) return Op::conj_transpose;
  return is_transposed(trans) ? Op::transpose : Op::none;
}

// SerialRunner has CpuEngine's routine signatures and runs them on the caller, for calls
// made once the process engine is closed (at exit) or could not be built.
struct SerialRunner {
  linalg::Exec exec;
  template <class T>
  void gemm(Op op_a, Op op_b, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
            MatrixView<T> c) {
    linalg::gemm(op_a, op_b, alpha, a, b, beta, c, exec);
  }
  template <class T>
  void gemm_batch(std::span<const linalg::GemmGroup<T>> groups) {
    linalg::gemm_batch(groups, exec);
  }
  template <class T>
  void gemm_batch_strided(Op op_a, Op op_b, T alpha, MatrixView<const T> a, index_t stride_a,
                          MatrixView<const T> b, index_t stride_b, T beta, MatrixView<T> c,
                          index_t stride_c, index_t count) {
    linalg::gemm_batch_strided(op_a, op_b, alpha, a, stride_a, b, stride_b, beta, c, stride_c,
                               count, exec);
  }
  template <class T>
  void trsm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
            MatrixView<T> b) {
    linalg::trsm(side, uplo, op_a, diag, alpha, a, b, exec);
  }
  template <class T>
  void herk(Uplo uplo, Op op_a, typename T::value_type alpha, MatrixView<const T> a,
            typename T::value_type beta, MatrixView<T> c) {
    linalg::herk(uplo, op_a, alpha, a, beta, c, exec);
  }
  template <class T>
  void syrk(Uplo uplo, Op op_a, T alpha, MatrixView<const T> a, T beta, MatrixView<T> c) {
    linalg::syrk(uplo, op_a, alpha, a, beta, c, exec);
  }
  template <class T>
  void symm(Side side, Uplo uplo, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
            MatrixView<T> c) {
    linalg::symm(side, uplo, alpha, a, b, beta, c, exec);
  }
  template <class T>
  void trmm(Side side, Uplo uplo, Op op_a, Diag diag, T alpha, MatrixView<const T> a,
            MatrixView<T> b) {
    linalg::trmm(side, uplo, op_a, diag, alpha, a, b, exec);
  }
  template <class T>
  void syr2k(Uplo uplo, Op op, T alpha, MatrixView<const T> a, MatrixView<const T> b, T beta,
             MatrixView<T> c) {
    linalg::syr2k(uplo, op, alpha, a, b, beta, c, exec);
  }
  template <class T>
  index_t potrf(Uplo uplo, MatrixView<T> a) {
    return linalg::potrf(uplo, a, exec);
  }
  template <class T>
  void potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b) {
    linalg::potrs(uplo, a, b, exec);
  }
  template <class T>
  index_t getrf(MatrixView<T> a, std::span<int> ipiv) {
    return linalg::getrf(a, ipiv.data(), exec);
  }
  template <class T>
  void getrs(Op op, MatrixView<const T> lu, std::span<const int> ipiv, MatrixView<T> b) {
    linalg::getrs(op, lu, ipiv.data(), b, exec);
  }
  template <class T>
  index_t getri(MatrixView<T> lu, std::span<const int> ipiv, std::span<T> work) {
    return linalg::getri(lu, ipiv.data(), exec, work);
  }
};

// on_engine(): runs `call` with the process engine, or serially. A C caller cannot receive
// an exception, and none is expected: the arguments were checked above, and a shortage of
// threads or memory makes the kernels run narrower or with small blocks, never throw
// (team/shortfall.hpp). An exception here is a broken invariant inside teamla, after which
// returning would leave a wrong result behind, so it stops the process, naming it.
template <class Call>
auto on_engine(const char* routine, Call&& call) {
  try {
    EngineLease lease;
    set_last_call_threads(lease.threads());
    if (engine::CpuEngine* engine = lease.engine()) {
      // The calling thread's count (openblas_set_num_threads) caps the team for this call.
      const engine::ThreadWidthLimit limit(lease.width_limit());
      return call(*engine);
    }
    SerialRunner serial;
    return call(serial);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: internal error in %s (a teamla bug): %s\n", routine,
                 error.what());
  } catch (...) {
    std::fprintf(stderr, "teamla_blas: internal error in %s (a teamla bug): unknown exception\n",
                 routine);
  }
  std::abort();
}

}  // namespace teamla::blas
