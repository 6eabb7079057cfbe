// SPDX-License-Identifier: Apache-2.0
// complex_triangular.cpp: the complex triangular solve and product and the rank-k update of a
// triangle (complex_triangular.hpp), and the public complex trsm and trmm built on them.
#include "level3/complex_triangular.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <utility>

#include "gemm/planned_region.hpp"
#include "kernels/leaf_kernels.hpp"
#include "level3/level3_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// kUpdateLeaf: the diagonal blocks of the Hermitian update are computed whole into a stack
// block of this order (both triangles; the upper one is dropped) and the lower triangle added.
constexpr index_t kUpdateLeaf = 32;

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
        linger_of(plan));
    work.totals.max_width_used = std::max(work.totals.max_width_used, width);
    work.totals.sections += 1;
  }
  // Only a region run at its planned width teaches the planner (a single part runs inline).
  if (start_ns != 0 && width == plan.width) {
    record_region(plan, static_cast<double>(team::monotonic_ns() - start_ns));
  }
}

// substitute_columns(): substitute() a column of B at a time, for a B whose columns are
// contiguous: a leaf's rows of a column share a cache line or two, where a row of B a leading
// dimension apart would take a line (and a page) per element.
template <class R>
void substitute_columns(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                        index_t nrhs) {
  Cx<R> inverse[kLeaf];
  for (index_t i = 0; i < n; ++i) inverse[i] = unit ? Cx<R>(1) : Cx<R>(1) / element(t, i, i);
  for (index_t j = 0; j < nrhs; ++j) {
    Cx<R>* x = &b(0, j);
    for (index_t s = 0; s < n; ++s) {
      const index_t i = lower ? s : n - 1 - s;
      const index_t k0 = lower ? 0 : i + 1;
      const index_t k1 = lower ? i : n;
      Cx<R> sum = x[i];
      for (index_t k = k0; k < k1; ++k) sum -= times(element(t, i, k), x[k]);
      x[i] = unit ? sum : times(sum, inverse[i]);
    }
  }
}

// substitute(): T X = B for X in place of B (n x nrhs, n <= kLeaf), T (n x n) lower or upper,
// unit or not: by columns of B where they are contiguous; a row of X at a time across B's
// contiguous rows (potrf's transposed solves) in the ISA's leaf; else the textbook loops.
template <class R>
void substitute(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                index_t nrhs) {
  if (b.rs == 1) {
    substitute_columns(lower, unit, t, b, n, nrhs);
    return;
  }
  if (b.cs == 1) {  // B's rows contiguous: the ISA's leaf
    level3_detail::leaf_kernels<R>().complex_solve_rows(lower, unit, t.data, t.rs, t.cs, t.conj, n,
                                                        b.data, b.rs, nrhs);
    return;
  }
  for (index_t s = 0; s < n; ++s) {
    const index_t i = lower ? s : n - 1 - s;
    const index_t k0 = lower ? 0 : i + 1;
    const index_t k1 = lower ? i : n;
    for (index_t j = 0; j < nrhs; ++j) {
      Cx<R> sum = b(i, j);
      for (index_t k = k0; k < k1; ++k) sum -= times(element(t, i, k), b(k, j));
      b(i, j) = unit ? sum : sum / element(t, i, i);
    }
  }
}

// solve_part(): solve_left() on the calling thread's share: halves of T, the off-diagonal block
// applied by the product.
template <class R>
void solve_part(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                index_t nrhs, Work& work) {
  if (n <= kLeaf) {
    substitute(lower, unit, t, b, n, nrhs);
    return;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (lower) {
    solve_part(true, unit, t, b, n1, nrhs, work);
    work.update(b.at(n1, 0), n2, nrhs, n1, t.at(n1, 0), b.operand());
    solve_part(true, unit, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
  } else {
    solve_part(false, unit, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
    work.update(b, n1, nrhs, n2, t.at(0, n1), b.at(n1, 0).operand());
    solve_part(false, unit, t, b, n1, nrhs, work);
  }
}

// multiply_leaf(): B = T B in place (n x nrhs, n <= kLeaf): a lower T's row i reads rows 0..i
// of B, so the rows are computed from the last up (an upper T's from the first down).
template <class R>
void multiply_leaf(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                   index_t nrhs) {
  for (index_t j = 0; j < nrhs; ++j) {
    for (index_t s = 0; s < n; ++s) {
      const index_t i = lower ? n - 1 - s : s;
      const index_t k0 = lower ? 0 : i + 1;
      const index_t k1 = lower ? i : n;
      Cx<R> sum = unit ? b(i, j) : times(element(t, i, i), b(i, j));
      for (index_t k = k0; k < k1; ++k) sum += times(element(t, i, k), b(k, j));
      b(i, j) = sum;
    }
  }
}

// multiply_part(): B = T B on the calling thread's share: halves of T, each half of B taking
// the other's contribution (the product) before that half is overwritten.
template <class R>
void multiply_part(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                   index_t nrhs, Work& work) {
  if (n <= kLeaf) {
    multiply_leaf(lower, unit, t, b, n, nrhs);
    return;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  if (lower) {
    multiply_part(true, unit, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
    work.update(b.at(n1, 0), n2, nrhs, n1, t.at(n1, 0), b.operand(), Cx<R>(1));
    multiply_part(true, unit, t, b, n1, nrhs, work);
  } else {
    multiply_part(false, unit, t, b, n1, nrhs, work);
    work.update(b, n1, nrhs, n2, t.at(0, n1), b.at(n1, 0).operand(), Cx<R>(1));
    multiply_part(false, unit, t.at(n1, n1), b.at(n1, 0), n2, nrhs, work);
  }
}

// update_triangle(): update_lower() on the calling thread's share.
template <class R>
void update_triangle(ComplexTile<R> c, index_t n, index_t k, const RankTerms<R>& terms,
                     Work& work) {
  if (n <= kUpdateLeaf) {
    Cx<R> block[kUpdateLeaf * kUpdateLeaf];
    for (int t = 0; t < terms.count; ++t) {
      complex_update<R>({block, 1, n}, n, n, k, terms.alpha[t], terms.x[t], terms.y[t],
                        Cx<R>(t == 0 ? 0 : 1), work.exec);
      work.totals.add(work.exec.stats);
    }
    for (index_t j = 0; j < n; ++j) {
      c(j, j) = terms.hermitian ? Cx<R>(c(j, j).real() + block[j + j * n].real(), R(0))
                                : c(j, j) + block[j + j * n];
      for (index_t i = j + 1; i < n; ++i) c(i, j) += block[i + j * n];
    }
    return;
  }
  const index_t n1 = n / 2;
  const index_t n2 = n - n1;
  update_triangle(c, n1, k, terms, work);
  for (int t = 0; t < terms.count; ++t) {
    work.update(c.at(n1, 0), n2, n1, k, terms.x[t].at(n1, 0), terms.y[t], terms.alpha[t]);
  }
  update_triangle(c.at(n1, n1), n2, k, terms.from(n1), work);
}

// by_columns(): part(j0, j1, work) over parts of B's nrhs columns, for a triangular solve or
// product of order n, each part whole on its columns.
template <class R, class Part>
void by_columns(index_t n, index_t nrhs, Work& work, Part part) {
  const double flops =
      4.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(nrhs);
  in_column_parts<R>(work, flops, nrhs, part);
}

}  // namespace

template <class R>
void in_column_parts(Work& work, double flops, index_t count, ColumnPart body) {
  in_parts(
      work, sizeof(R), flops, count,
      [count](index_t u, index_t units) { return count * u / units; }, body);
}

template <class R>
void solve_left(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                index_t nrhs, Work& work) {
  by_columns<R>(n, nrhs, work, [&](index_t j0, index_t j1, Work& part) {
    solve_part(lower, unit, t, b.at(0, j0), n, j1 - j0, part);
  });
}

template <class R>
void multiply_left(bool lower, bool unit, ComplexOperand<R> t, ComplexTile<R> b, index_t n,
                   index_t nrhs, Work& work) {
  by_columns<R>(n, nrhs, work, [&](index_t j0, index_t j1, Work& part) {
    multiply_part(lower, unit, t, b.at(0, j0), n, j1 - j0, part);
  });
}

// update_columns(): the recursion's share of update_lower(): columns [j0, j1) of the lower
// triangle, their diagonal block and the rows below it.
template <class R>
void update_columns(ComplexTile<R> c, index_t n, index_t k, const RankTerms<R>& terms, index_t j0,
                    index_t j1, Work& part) {
  if (j1 <= j0) return;
  const RankTerms<R> mine = terms.from(j0);
  update_triangle(c.at(j0, j0), j1 - j0, k, mine, part);
  if (j1 < n) {
    for (int t = 0; t < terms.count; ++t) {
      part.update(c.at(j1, j0), n - j1, j1 - j0, k, terms.x[t].at(j1, 0), mine.y[t],
                  terms.alpha[t]);
    }
  }
}

// transposed_terms(): the terms of C^T: alpha Y^T X^T for each alpha X Y.
template <class R>
RankTerms<R> transposed_terms(RankTerms<R> terms) {
  for (int t = 0; t < terms.count; ++t) {
    const ComplexOperand<R> x = terms.x[t];
    terms.x[t] = terms.y[t].transposed();
    terms.y[t] = x.transposed();
  }
  return terms;
}

// update_lower(): in parts of equal area (in_parts()). With a unit stride in either direction the
// parts are rows of a triangle on the packed loops (update_rows_packed(): the lower triangle of
// C, or the upper one of C^T); otherwise, or without their buffers, columns of the recursion.
template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, const RankTerms<R>& terms, Work& work) {
  const double flops = 4.0 * terms.count * static_cast<double>(n) * static_cast<double>(n + 1) *
                       static_cast<double>(k);
  const double whole = static_cast<double>(n);
  // The rows [0, i) of a lower triangle hold (i / n)^2 of its area; the columns [0, j) hold
  // 1 - (1 - j / n)^2 of it, as do the rows [0, j) of an upper one.
  const auto first_rows = [whole, n](index_t u, index_t units) {
    const double f = static_cast<double>(u) / static_cast<double>(units);
    return std::clamp<index_t>(static_cast<index_t>(std::llround(whole * std::sqrt(f))), 0, n);
  };
  const auto first_columns = [whole, n](index_t u, index_t units) {
    const double f = static_cast<double>(u) / static_cast<double>(units);
    return std::clamp<index_t>(n - static_cast<index_t>(std::llround(whole * std::sqrt(1.0 - f))),
                               0, n);
  };
  if (c.rs == 1) {
    in_parts(work, sizeof(R), flops, n, first_rows, [&](index_t r0, index_t r1, Work& part) {
      if (r1 <= r0 || update_rows_packed(c, n, r0, r1, k, false, terms, part.exec)) return;
      update_triangle(c.at(r0, r0), r1 - r0, k, terms.from(r0), part);
      for (int t = 0; t < terms.count; ++t) {
        if (r0 > 0) {
          part.update(c.at(r0, 0), r1 - r0, r0, k, terms.x[t].at(r0, 0), terms.y[t],
                      terms.alpha[t]);
        }
      }
    });
    return;
  }
  const RankTerms<R> of_transpose = transposed_terms(terms);
  in_parts(work, sizeof(R), flops, n, first_columns, [&](index_t j0, index_t j1, Work& part) {
    if (j1 <= j0) return;
    if (c.cs == 1 &&
        update_rows_packed(c.transposed(), n, j0, j1, k, true, of_transpose, part.exec)) {
      return;
    }
    update_columns(c, n, k, terms, j0, j1, part);
  });
}

template <class R>
void update_lower(ComplexTile<R> c, index_t n, index_t k, ComplexOperand<R> a, R alpha,
                  Work& work) {
  update_lower(c, n, k, RankTerms<R>{1, {Cx<R>(alpha)}, {a}, {adjoint(a)}, true}, work);
}

template void solve_left<double>(bool, bool, ComplexOperand<double>, ComplexTile<double>, index_t,
                                 index_t, Work&);
template void solve_left<float>(bool, bool, ComplexOperand<float>, ComplexTile<float>, index_t,
                                index_t, Work&);
template void in_column_parts<double>(Work&, double, index_t, ColumnPart);
template void in_column_parts<float>(Work&, double, index_t, ColumnPart);
template void multiply_left<double>(bool, bool, ComplexOperand<double>, ComplexTile<double>,
                                    index_t, index_t, Work&);
template void multiply_left<float>(bool, bool, ComplexOperand<float>, ComplexTile<float>, index_t,
                                   index_t, Work&);
template void update_lower<double>(ComplexTile<double>, index_t, index_t, ComplexOperand<double>,
                                   double, Work&);
template void update_lower<float>(ComplexTile<float>, index_t, index_t, ComplexOperand<float>,
                                  float, Work&);
template void update_lower<double>(ComplexTile<double>, index_t, index_t, const RankTerms<double>&,
                                   Work&);
template void update_lower<float>(ComplexTile<float>, index_t, index_t, const RankTerms<float>&,
                                  Work&);

// complex_triangular(): trsm's B = alpha inv(op(A)) B (left) or alpha B inv(op(A)) (right), or
// trmm's B = alpha op(A) B or alpha B op(A), as a left solve or product: the right one is the
// left one of the transposes (op(A)^T X^T = alpha B^T), on the transposed storage.
template <class R>
void complex_triangular(bool solve, Side side, Uplo uplo, Op op_a, Diag diag, Cx<R> alpha,
                        const MatrixView<const Cx<R>>& a, const MatrixView<Cx<R>>& b, Exec& exec) {
  using namespace level3_detail;
  const char* routine = solve ? "trsm" : "trmm";
  check_side(routine, side);
  check_uplo(routine, uplo);
  check_op(routine, "op_a", op_a, true);
  check_diag(routine, diag);
  check_views(routine, "A", a, "B", b);
  check_side_order(routine, side, a.rows, a.cols, "B", b.rows, b.cols);
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (b.rows == 0 || b.cols == 0) return;
  ComplexTile<R> x{b.data, b.row_stride(), b.col_stride()};
  if (alpha != Cx<R>(1)) {
    for (index_t j = 0; j < b.cols; ++j) {
      for (index_t i = 0; i < b.rows; ++i) {
        x(i, j) = alpha == Cx<R>(0) ? Cx<R>(0) : times(alpha, x(i, j));
      }
    }
  }
  if (alpha == Cx<R>(0)) return;  // A is not read
  ComplexOperand<R> t = complex_operand(a, op_a);
  bool lower = (uplo == Uplo::lower) == (op_a == Op::none);
  index_t n = b.rows;
  index_t nrhs = b.cols;
  if (side == Side::right) {
    t = t.transposed();
    x = x.transposed();
    lower = !lower;
    std::swap(n, nrhs);
  }
  Work work{exec, {}};
  (solve ? solve_left<R> : multiply_left<R>)(lower, diag == Diag::unit, t, x, n, nrhs, work);
  exec.stats = work.totals;
  exec.stats.max_width_used = std::max<std::size_t>(exec.stats.max_width_used, 1);
}

// solve_serial(): solve_part() of a whole canonical solve on the calling thread.
template <class R>
void solve_serial(bool lower, bool unit, const MatrixView<const Cx<R>>& a,
                  const MatrixView<Cx<R>>& b) {
  Exec serial;
  Work work{serial, {}};
  solve_part(lower, unit, complex_operand(a, Op::none),
             ComplexTile<R>{b.data, b.row_stride(), b.col_stride()}, a.rows, b.cols, work);
}

}  // namespace detail

template <>
void level3_detail::trsm_left_serial<std::complex<double>>(bool lower, bool unit,
                                                           MatrixView<const std::complex<double>> a,
                                                           MatrixView<std::complex<double>> b) {
  detail::solve_serial<double>(lower, unit, a, b);
}
template <>
void level3_detail::trsm_left_serial<std::complex<float>>(bool lower, bool unit,
                                                          MatrixView<const std::complex<float>> a,
                                                          MatrixView<std::complex<float>> b) {
  detail::solve_serial<float>(lower, unit, a, b);
}

template <>
void trsm<std::complex<double>>(Side side, Uplo uplo, Op op_a, Diag diag,
                                std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a,
                                MatrixView<std::complex<double>> b, Exec& exec) {
  detail::complex_triangular<double>(true, side, uplo, op_a, diag, alpha, a, b, exec);
}
template <>
void trsm<std::complex<float>>(Side side, Uplo uplo, Op op_a, Diag diag, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a,
                               MatrixView<std::complex<float>> b, Exec& exec) {
  detail::complex_triangular<float>(true, side, uplo, op_a, diag, alpha, a, b, exec);
}
template <>
void trmm<std::complex<double>>(Side side, Uplo uplo, Op op_a, Diag diag,
                                std::complex<double> alpha,
                                MatrixView<const std::complex<double>> a,
                                MatrixView<std::complex<double>> b, Exec& exec) {
  detail::complex_triangular<double>(false, side, uplo, op_a, diag, alpha, a, b, exec);
}
template <>
void trmm<std::complex<float>>(Side side, Uplo uplo, Op op_a, Diag diag, std::complex<float> alpha,
                               MatrixView<const std::complex<float>> a,
                               MatrixView<std::complex<float>> b, Exec& exec) {
  detail::complex_triangular<float>(false, side, uplo, op_a, diag, alpha, a, b, exec);
}

}  // namespace teamla::linalg
