// SPDX-License-Identifier: Apache-2.0
// run_on_engine.hpp: how an exported routine reaches the kernels: a linalg kernel run on the
// process engine, or on the caller when the engine is closed or could not be built
// (abi_routines.cpp, abi_lu.cpp, abi_level2.cpp).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "argument_checks.hpp"
#include "call_log.hpp"
#include "process_engine.hpp"
#include "teamla/engine/cpu_engine.hpp"
#include "teamla/linalg/blas3.hpp"

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

// guarded(): call(), or, if it throws, a stop naming `routine`. A C caller cannot receive an
// exception, and none is expected: the arguments were checked before, and a shortage of threads
// or memory makes the kernels run narrower or with small blocks, never throw
// (team/shortfall.hpp). An exception is a broken invariant inside teamla, after which returning
// would leave a wrong result behind.
template <class Call>
auto guarded(const char* routine, Call&& call) {
  try {
    return call();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "teamla_blas: internal error in %s (a teamla bug): %s\n", routine,
                 error.what());
  } catch (...) {
    std::fprintf(stderr, "teamla_blas: internal error in %s (a teamla bug): unknown exception\n",
                 routine);
  }
  std::abort();
}

// on_engine(): kernel(exec) on the process engine (CpuEngine::run: its team under its
// concurrency rule, the call recorded under `routine`), or on the caller with a serial Exec once
// the engine is closed (at exit) or when it could not be built; guarded(); returns what the
// kernel returns.
template <class Kernel>
auto on_engine(const char* routine, Kernel&& kernel) {
  using Result = std::invoke_result_t<Kernel&, linalg::Exec&>;
  return guarded(routine, [&]() -> Result {
    EngineLease lease;
    set_last_call_threads(lease.threads());
    engine::CpuEngine* engine = lease.engine();
    if (engine == nullptr) {
      linalg::Exec serial;
      return kernel(serial);
    }
    // The calling thread's count (openblas_set_num_threads) caps the team for this call.
    const engine::ThreadWidthLimit limit(lease.width_limit());
    if constexpr (std::is_void_v<Result>) {
      engine->run(routine, kernel);
    } else {
      std::optional<Result> result;
      engine->run(routine, [&](linalg::Exec& exec) { result.emplace(kernel(exec)); });
      return std::move(*result);
    }
  });
}

}  // namespace teamla::blas
