// SPDX-License-Identifier: Apache-2.0
// complex_cholesky.cpp: potrf and potrs of a Hermitian positive definite matrix, in
// std::complex<double> and std::complex<float>, recursively on the complex product
// (gemm/complex_gemm.hpp).
//
// potrf (lower, A = L L^H) halves the matrix (Gustavson's recursive Cholesky, as LAPACK's
// zpotrf2): L11 from A11, then L21 = A21 L11^-H (a triangular solve), A22 -= L21 L21^H (a
// Hermitian rank-k update), then L22 from A22. The solve and the update halve again, so
// nearly every flop is in a product of half the order, each run at the width that pays;
// below kLeaf the leaves are LAPACK's unblocked loops. The upper form (A = U^H U) is the lower
// one on the transposed storage: A's upper triangle, read transposed, is the lower triangle of
// conj(A) = A^T, whose lower factor M gives U = M^T in place. The design: docs/complex.md.
#include <algorithm>
#include <cmath>
#include <complex>

#include "gemm/complex_gemm.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// kLeaf: orders up to this run the unblocked loops (the factor, the substitutions).
// 8: leaves of 16 ran zpotrf 7-18 % slower, leaves of 4 tied (docs/perf/complex.md).
constexpr index_t kLeaf = 8;
// kUpdateLeaf: the diagonal blocks of the Hermitian update are computed whole into a stack
// block of this order (both triangles; the upper one is dropped) and the lower triangle added.
constexpr index_t kUpdateLeaf = 32;

template <class R>
Cx<R> element(const ComplexOperand<R>& t, index_t i, index_t j) {
  const Cx<R> z = t.data[i * t.rs + j * t.cs];
  return t.conj ? std::conj(z) : z;
}

// Work: what the recursion carries: the Exec the products run on and their stats, summed.
struct Work {
  Exec& exec;
  ExecStats totals;

  template <class R>
  void update(ComplexTile<R> c, index_t m, index_t n, index_t k, ComplexOperand<R> a,
              ComplexOperand<R> b) {
    complex_update<R>(c, m, n, k, Cx<R>(-1), a, b, Cx<R>(1), exec);
    totals.add(exec.stats);
  }
};

// in_parts(): body(lo, hi, work) over the parts of [0, count) that `cut` makes for a region of
// `flops`, at the width that pays (width.hpp): one claimed section whose units each run their
// part serially (their products inline), or the whole of it inline. A section per solve and
// per update, not one per product of their recursions: the products of a recursion's lower
// levels are too small to pay for a section each, and the team waited through them.
// cut(u, units) is the first index of part u of `units`.
template <class Cut, class Body>
void in_parts(Work& work, std::size_t scalar_bytes, double flops, index_t count, Cut cut,
              Body body) {
  Exec& exec = work.exec;
  RegionPlan plan;
  if (exec.team != nullptr) plan = plan_region(RegionKind::gemm, scalar_bytes, flops, exec);
  const std::size_t width = std::min<std::size_t>(plan.width, static_cast<std::size_t>(count));
  const std::uint64_t start_ns = plan.timed || width > 1 ? team::monotonic_ns() : 0;
  if (width <= 1) {
    Work serial{exec, {}};
    body(index_t{0}, count, serial);
    work.totals.add(serial.totals);
    work.totals.inline_regions += exec.team != nullptr ? 1 : 0;
  } else {
    const RankBuffers buffers = exec_buffers(exec);
    const auto units = static_cast<index_t>(width);
    run_claimed_units(
        *exec.team, width, width, *buffers.ws,
        [&](team::Section& /*section*/, std::size_t unit) {
          Exec inline_exec;  // no team: the unit's products run on its thread
          Work part{inline_exec, {}};
          const auto u = static_cast<index_t>(unit);
          body(cut(u, units), cut(u + 1, units), part);
        },
        plan.park_members_after ? team::Team::Linger::park : team::Team::Linger::spin);
    work.totals.max_width_used = std::max(work.totals.max_width_used, width);
    work.totals.sections += 1;
  }
  if (start_ns != 0) record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
}

// substitute(): T X = B for X in place of B (n x nrhs), T (n x n, non-unit diagonal) lower or
// upper: the textbook loops, a row of X at a time across B's columns (contiguous in potrf's
// transposed solves).
template <class R>
void substitute(bool lower, ComplexOperand<R> t, ComplexTile<R> b, index_t n, index_t nrhs) {
  // row(i)[j * step] is b(i, j); with step 1 (B's rows contiguous) the loops vectorize.
  const auto solve = [&](index_t step) {
    const auto row = [&](index_t i) { return reinterpret_cast<R*>(&b(i, 0)); };
    for (index_t s = 0; s < n; ++s) {
      const index_t i = lower ? s : n - 1 - s;
      const index_t k0 = lower ? 0 : i + 1;
      const index_t k1 = lower ? i : n;
      R* bi = row(i);
      for (index_t k = k0; k < k1; ++k) {
        const Cx<R> tik = element(t, i, k);
        const R* bk = row(k);
        for (index_t j = 0; j < 2 * nrhs * step; j += 2 * step) {
          bi[j] -= tik.real() * bk[j] - tik.imag() * bk[j + 1];
          bi[j + 1] -= tik.real() * bk[j + 1] + tik.imag() * bk[j];
        }
      }
      const Cx<R> inverse = Cx<R>(1) / element(t, i, i);
      for (index_t j = 0; j < 2 * nrhs * step; j += 2 * step) {
        const R re = bi[j];
        bi[j] = re * inverse.real() - bi[j + 1] * inverse.imag();
        bi[j + 1] = re * inverse.imag() + bi[j + 1] * inverse.real();
      }
    }
  };
  if (b.cs == 1) {
    solve(1);
  } else {
    solve(b.cs);
  }
}

// solve_part(): T X = B in place of B (n x nrhs), T lower or upper with a non-unit diagonal:
// halves of T, the off-diagonal block applied by the product.
template <class R>
void solve_part(bool lower, ComplexOperand<R> t, ComplexTile<R> b, index_t n, index_t nrhs,
                Work& work) {
  if (n <= kLeaf) {
    substitute(lower, t, b, n, nrhs);
    return;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (lower) {
    solve_part(true, t, b, n1, nrhs, work);
    work.update(b.at(n1, 0), n2, nrhs, n1, t.at(n1, 0), b.operand());
    solve_part(true, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
  } else {
    solve_part(false, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
    work.update(b, n1, nrhs, n2, t.at(0, n1), b.at(n1, 0).operand());
    solve_part(false, t, b, n1, nrhs, work);
  }
}

// solve_left(): solve_part() with B's columns in parts (in_parts()), each solved whole.
template <class R>
void solve_left(bool lower, ComplexOperand<R> t, ComplexTile<R> b, index_t n, index_t nrhs,
                Work& work) {
  const double flops = 4.0 * static_cast<double>(n) * static_cast<double>(n) *
                       static_cast<double>(nrhs);
  in_parts(
      work, sizeof(R), flops, nrhs, [nrhs](index_t u, index_t units) { return nrhs * u / units; },
      [&](index_t j0, index_t j1, Work& part) {
        solve_part(lower, t, b.at(0, j0), n, j1 - j0, part);
      });
}

// adjoint(): op(X)^H of an operand.
template <class R>
ComplexOperand<R> adjoint(ComplexOperand<R> x) {
  return {x.data, x.cs, x.rs, !x.conj};
}

// update_triangle(): C -= A A^H on the lower triangle of C (n x n), A n x k; the upper
// triangle is not written, and the diagonal's imaginary parts are set to zero (as zherk does).
template <class R>
void update_triangle(ComplexTile<R> c, index_t n, index_t k, ComplexOperand<R> a, Work& work) {
  if (n <= kUpdateLeaf) {
    Cx<R> block[kUpdateLeaf * kUpdateLeaf];
    complex_update<R>({block, 1, n}, n, n, k, Cx<R>(-1), a, adjoint(a), Cx<R>(0), work.exec);
    work.totals.add(work.exec.stats);
    for (index_t j = 0; j < n; ++j) {
      c(j, j) = {c(j, j).real() + block[j + j * n].real(), R(0)};
      for (index_t i = j + 1; i < n; ++i) c(i, j) += block[i + j * n];
    }
    return;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  update_triangle(c, n1, k, a, work);
  work.update(c.at(n1, 0), n2, n1, k, a.at(n1, 0), adjoint(a));
  update_triangle(c.at(n1, n1), n2, k, a.at(n1, 0), work);
}

// update_lower(): update_triangle() in parts of C's columns of equal area (in_parts()): part
// [j0, j1) updates its diagonal block and the rows below it.
template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, ComplexOperand<R> a, Work& work) {
  const double flops = 4.0 * static_cast<double>(n) * static_cast<double>(n + 1) *
                       static_cast<double>(k);
  // The columns [0, j) of the triangle hold n^2 - (n - j)^2 of its n^2 (twice the area): part u
  // of `units` starts where that is u / units of it.
  const auto cut = [n](index_t u, index_t units) {
    const double rest = static_cast<double>(n) *
                        std::sqrt(1.0 - static_cast<double>(u) / static_cast<double>(units));
    return std::clamp<index_t>(n - static_cast<index_t>(std::llround(rest)), 0, n);
  };
  in_parts(work, sizeof(R), flops, n, cut, [&](index_t j0, index_t j1, Work& part) {
    if (j1 <= j0) return;
    update_triangle(c.at(j0, j0), j1 - j0, k, a.at(j0, 0), part);
    if (j1 < n) part.update(c.at(j1, j0), n - j1, j1 - j0, k, a.at(j1, 0), adjoint(a.at(j0, 0)));
  });
}

// factor_leaf(): LAPACK's unblocked lower Cholesky (zpotf2) on n <= kLeaf: the first column
// whose pivot real(a_jj) - |l_j|^2 is not positive (or is NaN), 1-based, or 0.
template <class R>
index_t factor_leaf(ComplexTile<R> a, index_t n) {
  for (index_t j = 0; j < n; ++j) {
    R d = a(j, j).real();
    for (index_t k = 0; k < j; ++k) d -= std::norm(a(j, k));
    if (!(d > R(0))) return j + 1;
    const R root = std::sqrt(d);
    a(j, j) = root;
    for (index_t i = j + 1; i < n; ++i) {
      Cx<R> s = a(i, j);
      for (index_t k = 0; k < j; ++k) s -= times(a(i, k), std::conj(a(j, k)));
      a(i, j) = s / root;
    }
  }
  return 0;
}

// factor_lower(): the recursive lower Cholesky of a (n x n); LAPACK's info.
template <class R>
index_t factor_lower(ComplexTile<R> a, index_t n, Work& work) {
  if (n <= kLeaf) return factor_leaf(a, n);
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (const index_t info = factor_lower(a, n1, work)) return info;
  // L21 = A21 L11^-H, as conj(L11) L21^T = A21^T: a left solve on the transposed block.
  solve_left(true, a.operand(true), a.at(n1, 0).transposed(), n1, n2, work);
  update_lower(a.at(n1, n1), n2, n1, a.at(n1, 0).operand(), work);
  const index_t info = factor_lower(a.at(n1, n1), n2, work);
  return info != 0 ? info + n1 : 0;
}

template <class R>
index_t complex_potrf(Uplo uplo, const MatrixView<Cx<R>>& a, Exec& exec) {
  check_potrf(uplo, a);
  Work work{exec, {}};
  const ComplexTile<R> tile{a.data, a.row_stride(), a.col_stride()};
  const index_t info = factor_lower(uplo == Uplo::lower ? tile : tile.transposed(), a.rows, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
  return info;
}

// complex_potrs(): A X = B with A = L L^H (L X' = B, then L^H X = X') or A = U^H U.
template <class R>
void complex_potrs(Uplo uplo, const MatrixView<const Cx<R>>& a, const MatrixView<Cx<R>>& b,
                   Exec& exec) {
  check_potrs(uplo, a, b);
  Work work{exec, {}};
  const ComplexOperand<R> factor{a.data, a.row_stride(), a.col_stride(), false};
  const ComplexTile<R> x{b.data, b.row_stride(), b.col_stride()};
  const bool lower = uplo == Uplo::lower;
  solve_left(true, lower ? factor : adjoint(factor), x, a.rows, b.cols, work);
  solve_left(false, lower ? adjoint(factor) : factor, x, a.rows, b.cols, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
}

}  // namespace
}  // namespace detail

template <>
index_t potrf<std::complex<double>>(Uplo uplo, MatrixView<std::complex<double>> a, Exec& exec) {
  return detail::complex_potrf<double>(uplo, a, exec);
}
template <>
index_t potrf<std::complex<float>>(Uplo uplo, MatrixView<std::complex<float>> a, Exec& exec) {
  return detail::complex_potrf<float>(uplo, a, exec);
}
template <>
void potrs<std::complex<double>>(Uplo uplo, MatrixView<const std::complex<double>> a,
                                 MatrixView<std::complex<double>> b, Exec& exec) {
  detail::complex_potrs<double>(uplo, a, b, exec);
}
template <>
void potrs<std::complex<float>>(Uplo uplo, MatrixView<const std::complex<float>> a,
                                MatrixView<std::complex<float>> b, Exec& exec) {
  detail::complex_potrs<float>(uplo, a, b, exec);
}

}  // namespace teamla::linalg
