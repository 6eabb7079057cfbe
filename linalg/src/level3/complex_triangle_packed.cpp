// SPDX-License-Identifier: Apache-2.0
// complex_triangle_packed.cpp: the rank-k update of a triangle on the real kernel with operands
// packed once per depth block (complex_triangular.hpp, update_rows_packed()).
//
// The triangle recursion multiplies blocks of ever smaller order, each product packing its
// operands again: every level of the recursion packs all of X and Y once more. Here each term's
// Y is packed once per block of depth for all the columns the rows need, and X once per block of
// rows, by the 1m method (kernels/complex_pack.hpp); the real kernel then runs over the strips of
// the triangle alone. A strip crossing the diagonal is computed a micro-panel at a time into a
// tile on the stack, of which the triangle's part is added.
#include <algorithm>
#include <complex>

#include "isa_dispatch.hpp"
#include "level3/complex_triangular.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::detail {
namespace {

// kTileReals: the stack tile of a micro-panel crossing the diagonal (mr x nr reals at most).
constexpr index_t kTileReals = 64 * 16;

// Shape: the packed loops' sizes for one part, in complex elements but mr (reals).
struct Shape {
  index_t mr, half_mr, nr, mc, kc;
};

template <class R>
Shape shape_of(const KernelSet<R>& ks) {
  const index_t half_mr = ks.fns.mr / 2;
  return {ks.fns.mr, half_mr, ks.fns.nr, std::max(half_mr, ks.blocking.mc / 2 / half_mr * half_mr),
          std::max<index_t>(1, ks.blocking.kc / 2)};
}

// in_triangle(): element (i, j) belongs to the lower (or upper) triangle.
bool in_triangle(bool upper, index_t i, index_t j) { return upper ? i <= j : i >= j; }

// Strip: one strip of columns [j, j + w) over one packed block of rows [ic, ic + rows), at depth
// kb, its B panel at b and its A panels from a.
template <class R>
struct Strip {
  index_t ic, rows, j, w, kb;
  const R* a;
  const R* b;
};

// run_strip(): C += A B on the strip's part of the triangle: the micro-panels wholly inside it
// in one kernel call, each one crossing the diagonal through the stack tile.
template <class R>
void run_strip(const KernelFns<R>& f, const Shape& s, bool upper, const Strip<R>& st,
               ComplexTile<R> c) {
  R* cr = reinterpret_cast<R*>(c.data);  // [complex.numbers]: pairs (Re, Im), rs == 1
  const index_t ldc = 2 * c.cs;
  index_t whole_begin = -1;  // first micro-panel of the current run of whole ones
  const auto flush = [&](index_t end_row) {
    if (whole_begin < 0) return;
    const index_t p0 = (whole_begin - st.ic) / s.half_mr;
    f.packed_strip(2 * (end_row - whole_begin), st.w, 2 * st.kb, st.a + p0 * s.mr * 2 * st.kb, s.mr,
                   st.b, cr + 2 * whole_begin + st.j * ldc, ldc, R(1), R(1));
    whole_begin = -1;
  };
  for (index_t i0 = st.ic; i0 < st.ic + st.rows; i0 += s.half_mr) {
    const index_t hp = std::min(s.half_mr, st.ic + st.rows - i0);
    // Corners of the micro-panel against the strip: inside, outside or crossing the diagonal.
    const bool whole_in =
        in_triangle(upper, upper ? i0 + hp - 1 : i0, upper ? st.j : st.j + st.w - 1);
    const bool any_in =
        in_triangle(upper, upper ? i0 : i0 + hp - 1, upper ? st.j + st.w - 1 : st.j);
    if (whole_in) {
      if (whole_begin < 0) whole_begin = i0;
      continue;
    }
    flush(i0);
    if (!any_in) continue;
    R tile[kTileReals];
    std::fill(tile, tile + 2 * hp * st.w, R(0));
    const index_t p = (i0 - st.ic) / s.half_mr;
    f.packed_strip(2 * hp, st.w, 2 * st.kb, st.a + p * s.mr * 2 * st.kb, s.mr, st.b, tile, 2 * hp,
                   R(1), R(0));
    for (index_t jj = 0; jj < st.w; ++jj) {
      for (index_t ii = 0; ii < hp; ++ii) {
        if (!in_triangle(upper, i0 + ii, st.j + jj)) continue;
        c(i0 + ii, st.j + jj) += Cx<R>(tile[2 * ii + jj * 2 * hp], tile[2 * ii + 1 + jj * 2 * hp]);
      }
    }
  }
  flush(st.ic + st.rows);
}

}  // namespace

template <class R>
bool update_rows_packed(ComplexTile<R> c, index_t n, index_t r0, index_t r1, index_t k, bool upper,
                        const RankTerms<R>& terms, Exec& exec) {
  if (c.rs != 1) return false;
  if (r1 <= r0) return true;
  const KernelSet<R>& ks = kernels<R>();
  const Shape s = shape_of(ks);
  if (s.mr * s.nr > kTileReals) return false;
  // The columns the rows reach: [0, r1) of a lower triangle, [r0, n) of an upper one.
  const index_t j_begin = upper ? r0 : 0;
  const index_t j_end = upper ? n : r1;
  const index_t kc = std::min(k, s.kc);
  const auto a_elems = static_cast<std::size_t>(
      4 * ((std::min(s.mc, r1 - r0) + s.half_mr - 1) / s.half_mr * s.half_mr) * kc);
  const auto b_elems =
      static_cast<std::size_t>(2 * kc * ((j_end - j_begin + s.nr - 1) / s.nr * s.nr));
  const RankBuffers buffers = exec_buffers(exec);
  R* bp = buffers.ws->try_buffer_of<R>(buffers.rank, Workspace::Slot::pack_b, b_elems);
  R* ap = buffers.ws->try_buffer_of<R>(buffers.rank, Workspace::Slot::pack_a, a_elems);
  if (ap == nullptr || bp == nullptr) return false;
  for (index_t pc = 0; pc < k; pc += kc) {
    const index_t kb = std::min(kc, k - pc);
    for (int t = 0; t < terms.count; ++t) {
      const ComplexOperand<R> y = terms.y[t].at(pc, j_begin);
      ks.fns.pack_b_1m(s.nr, kb, j_end - j_begin, y.data, y.rs, y.cs, y.conj, bp);
      for (index_t ic = r0; ic < r1; ic += s.mc) {
        const index_t rows = std::min(s.mc, r1 - ic);
        const ComplexOperand<R> x = terms.x[t].at(ic, pc);
        ks.fns.pack_a_1m(s.half_mr, rows, kb, x.data, x.rs, x.cs, x.conj, terms.alpha[t], ap);
        // The strips the rows reach: lower, up to the block's last row; upper, from its first.
        const index_t first = upper ? j_begin + (ic - j_begin) / s.nr * s.nr : j_begin;
        const index_t last = upper ? j_end : std::min(j_end, ic + rows);
        for (index_t j = first; j < last; j += s.nr) {
          const Strip<R> st{
              ic, rows, j, std::min(s.nr, j_end - j), kb, ap, bp + (j - j_begin) * 2 * kb};
          run_strip(ks.fns, s, upper, st, c);
        }
      }
    }
  }
  if (terms.hermitian) {
    for (index_t i = r0; i < r1; ++i) c(i, i) = Cx<R>(c(i, i).real(), R(0));
  }
  return true;
}

template bool update_rows_packed<double>(ComplexTile<double>, index_t, index_t, index_t, index_t,
                                         bool, const RankTerms<double>&, Exec&);
template bool update_rows_packed<float>(ComplexTile<float>, index_t, index_t, index_t, index_t,
                                        bool, const RankTerms<float>&, Exec&);

}  // namespace teamla::linalg::detail
