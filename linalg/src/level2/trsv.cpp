// SPDX-License-Identifier: Apache-2.0
// trsv.cpp: x = inv(op(A)) x for a triangular A: the blocked substitution.
//
// Serial: each block of the solution depends on all the blocks before it, so the only work
// beside a block's solve is one rectangle per block, too little to pay a section each (as
// OpenBLAS, trsv runs on one thread). The diagonal blocks (kTriangleBlock) go to trsv_block;
// for op(M) = M the solved block is subtracted from the entries still to come down its columns
// (gemv_n), for M^T each block first takes the dot products of its columns with the entries
// already solved (gemv_t).
#include <complex>

#include "kernels/level2_kernels.hpp"
#include "level2/triangular.hpp"

namespace teamla::linalg {
namespace level2_detail {
namespace {

// solve(): x = inv(op(M)) x, x contiguous; `work` holds kTriangleBlock elements.
template <class T>
void solve(const Triangular<T>& tri, T* x, T* work) {
  const detail::Level2Kernels<T>& k = detail::level2_kernels<T>();
  const MatrixView<const T>& m = tri.a;
  const index_t n = m.rows;
  const index_t ld = m.ld;
  const index_t blocks = (n + kTriangleBlock - 1) / kTriangleBlock;
  // op(M) lower triangular (M lower, or M^T of an upper M): blocks top to bottom.
  const bool forward = tri.lower != tri.trans;
  for (index_t step = 0; step < blocks; ++step) {
    const index_t b = forward ? step : blocks - 1 - step;
    const index_t b0 = b * kTriangleBlock;
    const index_t b1 = n - b0 < kTriangleBlock ? n : b0 + kTriangleBlock;
    const index_t kb = b1 - b0;
    const T* column = m.data + b0 * ld;
    // The rows of the block's columns outside its diagonal block: below it (lower) or above.
    const index_t r0 = tri.lower ? b1 : 0;
    const index_t r1 = tri.lower ? n : b0;
    if (tri.trans) {
      for (index_t i = 0; i < kb; ++i) work[i] = T(0);
      k.gemv_t(r1 - r0, kb, column + r0, ld, x + r0, work, tri.conj);
      for (index_t i = 0; i < kb; ++i) x[b0 + i] -= work[i];
      k.trsv_block(tri.lower, true, tri.conj, tri.unit, kb, column + b0, ld, x + b0);
    } else {
      k.trsv_block(tri.lower, false, tri.conj, tri.unit, kb, column + b0, ld, x + b0);
      for (index_t i = 0; i < kb; ++i) work[i] = -x[b0 + i];
      k.gemv_n(r1 - r0, kb, column + r0, ld, work, x + r0, tri.conj);
    }
  }
}

}  // namespace
}  // namespace level2_detail

template <class T>
void trsv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec) {
  using namespace level2_detail;
  const Triangular<T> tri = to_triangular("trsv", uplo, op, diag, a, x);
  exec.stats = {};
  exec.stats.inline_regions = 1;
  exec.stats.max_width_used = 1;
  const index_t n = x.size;
  if (n == 0) return;
  const std::size_t need = padded<T>(kTriangleBlock) + (x.inc != 1 ? padded<T>(n) : 0);
  T* buffer = scratch<T>(need);
  if (refused(buffer, need)) {
    Fallback<T>::trsv(uplo, op, diag, a, x, exec, need * sizeof(T));
    return;
  }
  T* work = buffer;
  T* solution = x.data;
  if (x.inc != 1) {
    solution = buffer + padded<T>(kTriangleBlock);
    for (index_t i = 0; i < n; ++i) solution[i] = x[i];
  }
  solve(tri, solution, work);
  write_back(solution, x);
}

template void trsv<float>(Uplo, Op, Diag, MatrixView<const float>, VectorView<float>, Exec&);
template void trsv<double>(Uplo, Op, Diag, MatrixView<const double>, VectorView<double>, Exec&);
template void trsv<std::complex<float>>(Uplo, Op, Diag, MatrixView<const std::complex<float>>,
                                        VectorView<std::complex<float>>, Exec&);
template void trsv<std::complex<double>>(Uplo, Op, Diag, MatrixView<const std::complex<double>>,
                                         VectorView<std::complex<double>>, Exec&);

}  // namespace teamla::linalg
