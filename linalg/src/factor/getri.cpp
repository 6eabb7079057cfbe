// SPDX-License-Identifier: Apache-2.0
// getri.cpp: the inverse from getrf's factors, LAPACK's dgetri: inv(A) = inv(U) inv(L) P.
//
// 1. inv(U) in place, recursively (LAPACK's dtrtri): inv(U11), then U12 <- inv(U11) U12 (trmm)
//    and U12 <- -U12 inv(U22) (trsm, with U22 still the factor), then inv(U22).
// 2. X L = inv(U) solved for X = inv(A) P^T, block column by block column from the right: a
//    block column of L is copied to scratch and zeroed in A, then
//    X(:, j) -= X(:, right) L(right, j) (gemm) and X(:, j) <- X(:, j) inv(L(j, j)) (trsm).
// 3. The columns interchanged in reverse order of the pivots.
// The flops are in trmm, trsm and gemm, each on sections of the team where that pays.
#include <algorithm>
#include <memory>
#include <new>

#include "factor/lu_internal.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::linalg {
namespace {

// kInvertLeaf: triangles this small are inverted column by column (LAPACK's dtrti2).
constexpr index_t kInvertLeaf = 32;

// invert_upper_leaf(): dtrti2 for an upper, non-unit triangle: column j of inv(U) above the
// diagonal is -inv(U)(0:j, 0:j) U(0:j, j) / U(j, j), from the columns already inverted.
template <class T>
void invert_upper_leaf(MatrixView<T> u) {
  for (index_t j = 0; j < u.rows; ++j) {
    u(j, j) = T(1) / u(j, j);
    const T ajj = -u(j, j);
    for (index_t c = 0; c < j; ++c) {
      const T t = u(c, j);
      if (t == T(0)) continue;  // as dtrmv: a zero skips its column (NaN there stays out)
      for (index_t i = 0; i < c; ++i) u(i, j) += t * u(i, c);
      u(c, j) = t * u(c, c);
    }
    for (index_t i = 0; i < j; ++i) u(i, j) *= ajj;
  }
}

template <class T>
void invert_upper(MatrixView<T> u, Exec& exec, ExecStats& totals) {
  const index_t n = u.rows;
  if (n <= kInvertLeaf) {
    invert_upper_leaf(u);
    return;
  }
  const index_t n1 = level3_detail::split_rows(n);
  const index_t n2 = n - n1;
  invert_upper(u.block(0, 0, n1, n1), exec, totals);
  MatrixView<T> u12 = u.block(0, n1, n1, n2);
  trmm<T>(Side::left, Uplo::upper, Op::none, Diag::non_unit, T(1), u.block(0, 0, n1, n1), u12,
          exec);
  totals.add(exec.stats);
  trsm<T>(Side::right, Uplo::upper, Op::none, Diag::non_unit, T(-1), u.block(n1, n1, n2, n2), u12,
          exec);
  totals.add(exec.stats);
  invert_upper(u.block(n1, n1, n2, n2), exec, totals);
}

// Scratch: getri's buffer for block columns of L: the caller's work when it holds n * nb,
// else an allocation of that size, else the caller's work in narrower blocks.
template <class T>
struct Scratch {
  std::unique_ptr<T[]> owned;
  T* data = nullptr;
  index_t nb = 0;
};

template <class T>
Scratch<T> scratch_for(index_t n, std::span<T> work) {
  Scratch<T> s;
  const auto fits = [&](index_t nb) { return static_cast<index_t>(work.size()) >= n * nb; };
  if (fits(kGetriBlock)) return {nullptr, work.data(), kGetriBlock};
  const auto elems = static_cast<std::size_t>(n * kGetriBlock);
  s.owned.reset(new (std::nothrow) T[elems]);
  if (s.owned) {
    s.data = s.owned.get();
    s.nb = kGetriBlock;
    return s;
  }
  team::note_shortfall(team::Shortfall::memory, elems * sizeof(T));
  if (fits(1)) {
    s.data = work.data();
    s.nb = static_cast<index_t>(work.size()) / n;
  } else {
    throw std::bad_alloc();
  }
  return s;
}

// solve_with_l(): step 2, X L = inv(U), on A holding inv(U) above the diagonal and L below it.
template <class T>
void solve_with_l(MatrixView<T> a, const Scratch<T>& scratch, Exec& exec, ExecStats& totals) {
  const index_t n = a.rows;
  const index_t nb = scratch.nb;
  const MatrixView<T> w = col_major(scratch.data, n, nb, n);
  for (index_t j = (n - 1) / nb * nb; j >= 0; j -= nb) {
    const index_t jb = std::min(nb, n - j);
    for (index_t c = 0; c < jb; ++c) {
      for (index_t i = j + c + 1; i < n; ++i) {
        w(i, c) = a(i, j + c);
        a(i, j + c) = T(0);
      }
    }
    MatrixView<T> x = a.block(0, j, n, jb);
    if (j + jb < n) {
      gemm<T>(Op::none, Op::none, T(-1), a.block(0, j + jb, n, n - j - jb),
              w.block(j + jb, 0, n - j - jb, jb), T(1), x, exec);
      totals.add(exec.stats);
    }
    trsm<T>(Side::right, Uplo::lower, Op::none, Diag::unit, T(1), w.block(j, 0, jb, jb), x, exec);
    totals.add(exec.stats);
  }
}

}  // namespace

template <class T>
index_t getri(MatrixView<T> a, const int* ipiv, Exec& exec, std::span<T> work) {
  check_getri(a, ipiv);
  exec.stats = {};
  const index_t n = a.rows;
  // As dtrtri: a zero on U's diagonal means no inverse, and A is left as it was.
  for (index_t i = 0; i < n; ++i) {
    if (a(i, i) == T(0)) return i + 1;
  }
  if (n == 0) return 0;
  const Scratch<T> scratch = scratch_for(n, work);
  ExecStats totals;
  invert_upper(a, exec, totals);
  solve_with_l(a, scratch, exec, totals);
  // Column j was interchanged with column ipiv[j]: the rows of the transposed view.
  level3_detail::apply_swaps(a.transposed(), 0, n - 1, ipiv, 0, level3_detail::SwapOrder::backward);
  exec.stats = totals;
  return 0;
}

template index_t getri<double>(MatrixView<double>, const int*, Exec&, std::span<double>);
template index_t getri<float>(MatrixView<float>, const int*, Exec&, std::span<float>);
template index_t getri<std::complex<double>>(MatrixView<std::complex<double>>, const int*, Exec&,
                                             std::span<std::complex<double>>);
template index_t getri<std::complex<float>>(MatrixView<std::complex<float>>, const int*, Exec&,
                                            std::span<std::complex<float>>);

}  // namespace teamla::linalg
