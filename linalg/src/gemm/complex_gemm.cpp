// SPDX-License-Identifier: Apache-2.0
// complex_gemm.cpp: gemm() in std::complex<double> and std::complex<float>, by the 1m method
// (Van Zee and Smith, "Implementing high-performance complex matrix multiplication via the 1m
// method", SIAM J. Sci. Comput. 42(5), 2020; BLIS's default for complex products).
//
// The complex product runs on the real microkernel of the active ISA, over operands packed
// as complex_pack.hpp describes: 8 real flops per complex multiply-add, as a native complex
// kernel does, with no shuffle of real and imaginary parts in the kernel's loop. The choice
// against a native kernel: docs/complex.md.
//
// The loop nest is the real one's (gemm.cpp) in complex elements: kc and mc are half the real
// kernel's, so that the packed A block and B panel take the bytes the real blocking chose.
// alpha is applied while A is packed; a real beta is the kernel's own; any other beta scales
// C's rows before the first product reaches them. A wide region splits C's rows or columns
// (wide_split.hpp), each unit with its own packed panels, as the real packed row split does.
#include <algorithm>
#include <complex>
#include <cstdint>

#include "gemm/complex_gemm.hpp"
#include "gemm/planned_region.hpp"
#include "gemm/wide_split.hpp"
#include "isa_dispatch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/checks.hpp"
#include "teamla/linalg/width.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/shortfall.hpp"
#include "teamla/team/team.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg {
namespace detail {
namespace {

// ComplexBlocking: the real kernel's blocking counted in complex elements.
struct ComplexBlocking {
  index_t half_mr, nr, mc, kc, nc;
};

template <class R>
ComplexBlocking complex_blocking(const KernelSet<R>& ks) {
  const index_t half_mr = ks.fns.mr / 2;
  return {half_mr, ks.fns.nr, std::max(half_mr, ks.blocking.mc / 2 / half_mr * half_mr),
          std::max<index_t>(1, ks.blocking.kc / 2), ks.blocking.nc};
}

index_t round_up(index_t v, index_t unit) { return (v + unit - 1) / unit * unit; }

std::size_t pack_a_elems(const ComplexBlocking& bl, index_t m, index_t k) {
  return static_cast<std::size_t>(4 * round_up(std::min(m, bl.mc), bl.half_mr) *
                                  std::min(k, bl.kc));
}

std::size_t pack_b_elems(const ComplexBlocking& bl, index_t n, index_t k) {
  return static_cast<std::size_t>(2 * std::min(k, bl.kc) * round_up(std::min(n, bl.nc), bl.nr));
}

// scale_rows(): C = beta C on `rows` x `cols` of C (beta == 0 writes zeros, never reads C).
template <class R>
void scale_rows(index_t rows, index_t cols, Cx<R> beta, Cx<R>* c, index_t ldc) {
  if (beta == Cx<R>(1)) return;
  for (index_t j = 0; j < cols; ++j) {
    Cx<R>* cj = c + j * ldc;
    for (index_t i = 0; i < rows; ++i) cj[i] = beta == Cx<R>(0) ? Cx<R>(0) : times(beta, cj[i]);
  }
}

// packed_rows(): rows [m0, m1) of the product on the calling thread, packing into ap and bp
// (pack_a_elems / pack_b_elems of the whole product).
template <class R>
void packed_rows(const KernelSet<R>& ks, const ComplexProduct<R>& p, index_t m0, index_t m1, R* ap,
                 R* bp) {
  const ComplexBlocking bl = complex_blocking(ks);
  const bool real_beta = p.beta.imag() == R(0);
  if (!real_beta) scale_rows(m1 - m0, p.n, p.beta, p.c + m0, p.ldc);
  const R beta = real_beta ? p.beta.real() : R(1);
  R* cr = reinterpret_cast<R*>(p.c);  // [complex.numbers]: an array of pairs (Re, Im)
  const index_t ldcr = 2 * p.ldc;
  for (index_t jc = 0; jc < p.n; jc += bl.nc) {
    const index_t ncb = std::min(bl.nc, p.n - jc);
    for (index_t pc = 0; pc < p.k; pc += bl.kc) {
      const index_t kcb = std::min(bl.kc, p.k - pc);
      const ComplexOperand<R> b = p.b.at(pc, jc);
      ks.fns.pack_b_1m(bl.nr, kcb, ncb, b.data, b.rs, b.cs, b.conj, bp);
      const R beta_block = pc == 0 ? beta : R(1);
      for (index_t ic = m0; ic < m1; ic += bl.mc) {
        const index_t mcb = std::min(bl.mc, m1 - ic);
        const ComplexOperand<R> a = p.a.at(ic, pc);
        ks.fns.pack_a_1m(bl.half_mr, mcb, kcb, a.data, a.rs, a.cs, a.conj, p.alpha, ap);
        for (index_t jr = 0; jr < ncb; jr += bl.nr) {
          ks.fns.packed_strip(2 * mcb, std::min(bl.nr, ncb - jr), 2 * kcb, ap, ks.fns.mr,
                              bp + jr * 2 * kcb, cr + 2 * ic + (jc + jr) * ldcr, ldcr, R(1),
                              beta_block);
        }
      }
    }
  }
}

// reference_rows(): rows [m0, m1) of the product by the textbook loops, for when the packing
// buffers cannot be had (counted as a memory shortfall by the caller).
template <class R>
void reference_rows(const ComplexProduct<R>& p, index_t m0, index_t m1) {
  scale_rows(m1 - m0, p.n, p.beta, p.c + m0, p.ldc);
  for (index_t j = 0; j < p.n; ++j) {
    for (index_t q = 0; q < p.k; ++q) {
      const Cx<R> bj = times(p.alpha, element(p.b, q, j));
      for (index_t i = m0; i < m1; ++i) p.c[i + j * p.ldc] += times(element(p.a, i, q), bj);
    }
  }
}

// serial_product(): the whole product on the calling thread, with rank `rank`'s buffers of ws.
template <class R>
void serial_product(const KernelSet<R>& ks, const ComplexProduct<R>& p, Workspace& ws,
                    std::size_t rank) {
  const ComplexBlocking bl = complex_blocking(ks);
  const std::size_t a_elems = pack_a_elems(bl, p.m, p.k);
  const std::size_t b_elems = pack_b_elems(bl, p.n, p.k);
  R* ap = ws.try_buffer_of<R>(rank, Workspace::Slot::pack_a, a_elems);
  R* bp = ws.try_buffer_of<R>(rank, Workspace::Slot::pack_b, b_elems);
  if (ap == nullptr || bp == nullptr) {
    team::note_shortfall(team::Shortfall::memory, (a_elems + b_elems) * sizeof(R));
    reference_rows(p, 0, p.m);
    return;
  }
  packed_rows(ks, p, 0, p.m, ap, bp);
}

// run_wide(): one claimed section of up to `width` units, each a part of C's rows or columns
// with its rank's own packed panels. False, having written nothing, when the panels cannot be
// had.
template <class R>
bool run_wide(const KernelSet<R>& ks, std::size_t width, const ComplexProduct<R>& p, Workspace& ws,
              team::Team& on, team::Team::Linger linger) {
  const ComplexBlocking bl = complex_blocking(ks);
  const std::size_t a_elems = pack_a_elems(bl, p.m, p.k);
  const std::size_t b_elems = pack_b_elems(bl, p.n, p.k);
  for (std::size_t rank = 0; rank < width; ++rank) {
    if (ws.try_buffer_of<R>(rank, Workspace::Slot::pack_a, a_elems) == nullptr ||
        ws.try_buffer_of<R>(rank, Workspace::Slot::pack_b, b_elems) == nullptr) {
      return false;
    }
  }
  const auto buffers = [&](std::size_t rank) {
    return std::pair{ws.buffer_of<R>(rank, Workspace::Slot::pack_a, a_elems),
                     ws.buffer_of<R>(rank, Workspace::Slot::pack_b, b_elems)};
  };
  const index_t row_tiles = (p.m + bl.half_mr - 1) / bl.half_mr;
  const index_t col_tiles = (p.n + bl.nr - 1) / bl.nr;
  if (splits_rows(row_tiles, col_tiles, width, p.m, p.n)) {
    const std::size_t units = std::min(width, static_cast<std::size_t>(row_tiles));
    run_claimed_units(on, width, units, ws,
                      unit_parts(p.m, bl.half_mr, units,
                                 [&](std::size_t rank, index_t i0, index_t i1) {
                                   const auto [ap, bp] = buffers(rank);
                                   packed_rows(ks, p, i0, i1, ap, bp);
                                 }),
                      linger);
  } else {
    const std::size_t units = std::min(width, static_cast<std::size_t>(col_tiles));
    run_claimed_units(on, width, units, ws,
                      unit_parts(p.n, bl.nr, units,
                                 [&](std::size_t rank, index_t j0, index_t j1) {
                                   const auto [ap, bp] = buffers(rank);
                                   packed_rows(ks, p.columns(j0, j1), 0, p.m, ap, bp);
                                 }),
                      linger);
  }
  return true;
}

}  // namespace

template <class R>
void complex_product(const ComplexProduct<R>& p, Exec& exec) {
  exec.stats = ExecStats{};
  exec.stats.max_width_used = 1;
  if (p.m <= 0 || p.n <= 0) return;
  if (p.k <= 0 || p.alpha == Cx<R>(0)) {
    scale_rows(p.m, p.n, p.beta, p.c, p.ldc);
    return;
  }
  const RankBuffers buffers = exec_buffers(exec);
  Workspace& ws = *buffers.ws;
  const KernelSet<R>& ks = kernels<R>();
  RegionPlan plan;
  if (exec.team != nullptr) {
    // The real kernel's flops at depth 2k over 2m rows: the width model's rates apply as they are.
    const double flops =
        8.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
    plan = plan_region(RegionKind::gemm, sizeof(R), flops, exec);
    exec.stats.inline_regions = plan.width == 1 ? 1 : 0;
  }
  run_planned(
      plan, exec, plan.width * pack_b_elems(complex_blocking(ks), p.n, p.k) * sizeof(R),
      [&] {
        return ws.try_prepare(plan.width) &&
               run_wide(ks, plan.width, p, ws, *exec.team, linger_of(plan));
      },
      [&] { serial_product(ks, p, ws, buffers.rank); });
}

template void complex_product<double>(const ComplexProduct<double>&, Exec&);
template void complex_product<float>(const ComplexProduct<float>&, Exec&);

namespace {

template <class R>
void complex_gemm(Op op_a, Op op_b, Cx<R> alpha, const MatrixView<const Cx<R>>& a,
                  const MatrixView<const Cx<R>>& b, Cx<R> beta, const MatrixView<Cx<R>>& c,
                  Exec& exec) {
  check_gemm(op_a, op_b, a, b, c);
  const index_t k = op_a == Op::none ? a.cols : a.rows;
  const ComplexOperand<R> oa = complex_operand(a, op_a);
  const ComplexOperand<R> ob = complex_operand(b, op_b);
  // A row-major C is the column-major C^T = op(B)^T op(A)^T.
  if (c.layout == Layout::col_major) {
    complex_product<R>({c.rows, c.cols, k, alpha, oa, ob, beta, c.data, c.ld}, exec);
  } else {
    complex_product<R>(
        {c.cols, c.rows, k, alpha, ob.transposed(), oa.transposed(), beta, c.data, c.ld}, exec);
  }
}

}  // namespace
}  // namespace detail

template <>
void gemm<std::complex<double>>(Op op_a, Op op_b, std::complex<double> alpha,
                                const MatrixView<const std::complex<double>>& a,
                                const MatrixView<const std::complex<double>>& b,
                                std::complex<double> beta,
                                const MatrixView<std::complex<double>>& c, Exec& exec) {
  detail::complex_gemm<double>(op_a, op_b, alpha, a, b, beta, c, exec);
}

template <>
void gemm<std::complex<float>>(Op op_a, Op op_b, std::complex<float> alpha,
                               const MatrixView<const std::complex<float>>& a,
                               const MatrixView<const std::complex<float>>& b,
                               std::complex<float> beta, const MatrixView<std::complex<float>>& c,
                               Exec& exec) {
  detail::complex_gemm<float>(op_a, op_b, alpha, a, b, beta, c, exec);
}

}  // namespace teamla::linalg
