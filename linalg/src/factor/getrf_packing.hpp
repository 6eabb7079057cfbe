// SPDX-License-Identifier: Apache-2.0
// getrf_packing.hpp (internal): how a getrf step on a team packs L21 once for all its strips
// and runs the real microkernel over it (getrf_step.cpp), for real and complex T.
//
// A real T packs L21 as its kernel's A panels and U12 as its B panels. A complex T runs the
// real kernel of its parts on operands packed by the 1m method (kernels/complex_pack.hpp,
// docs/complex.md): L21 expanded (its rows doubled, -1 applied while packing) and U12 split,
// C the strip's rows below the diagonal seen as real rows. Either way the buffers hold the
// real type's elements.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>

#include "isa_dispatch.hpp"
#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::level3_detail {

template <class T>
struct StepPacking {
  using Packed = T;
  const detail::KernelSet<T>& ks = detail::kernels<T>();

  [[nodiscard]] std::size_t a_elems(index_t rows, index_t kb) const {
    return static_cast<std::size_t>((rows + ks.fns.mr - 1) / ks.fns.mr * ks.fns.mr * kb);
  }
  [[nodiscard]] std::size_t b_elems(index_t cols, index_t kb) const {
    return static_cast<std::size_t>((cols + ks.fns.nr - 1) / ks.fns.nr * ks.fns.nr * kb);
  }
  // pack_rows(): rows [r0, r0 + rows.rows) of L21 (column-major, kb columns).
  void pack_rows(MatrixView<const T> rows, index_t r0, T* a_packed) const {
    ks.fns.pack_a(rows.rows, rows.cols, rows.data, 1, rows.ld, a_packed + r0 * rows.cols);
  }
  // subtract(): A22 -= L21 U12 on a column-major strip whose U12 (its first kb rows) is solved.
  void subtract(index_t kb, MatrixView<T> cols, const T* a_packed, T* b_packed) const {
    const detail::KernelFns<T>& f = ks.fns;
    const index_t below = cols.rows - kb;
    const index_t w = cols.cols;
    f.pack_b(kb, w, cols.data, 1, cols.ld, b_packed);
    T* c = cols.data + kb;
    for (index_t r0 = 0; r0 < below; r0 += ks.blocking.mc) {
      const index_t rows = std::min(ks.blocking.mc, below - r0);
      for (index_t j = 0; j < w; j += f.nr) {
        f.packed_strip(rows, std::min<index_t>(f.nr, w - j), kb, a_packed + r0 * kb, f.mr,
                       b_packed + j * kb, c + r0 + j * cols.ld, cols.ld, T(-1), T(1));
      }
    }
  }
};

template <class R>
struct StepPacking<std::complex<R>> {
  using Packed = R;
  using Cx = std::complex<R>;
  const detail::KernelSet<R>& ks = detail::kernels<R>();

  [[nodiscard]] index_t half_mr() const { return ks.fns.mr / 2; }
  [[nodiscard]] std::size_t a_elems(index_t rows, index_t kb) const {
    return static_cast<std::size_t>(4 * ((rows + half_mr() - 1) / half_mr() * half_mr()) * kb);
  }
  [[nodiscard]] std::size_t b_elems(index_t cols, index_t kb) const {
    return static_cast<std::size_t>(2 * kb * ((cols + ks.fns.nr - 1) / ks.fns.nr * ks.fns.nr));
  }
  void pack_rows(MatrixView<const Cx> rows, index_t r0, R* a_packed) const {
    ks.fns.pack_a_1m(half_mr(), rows.rows, rows.cols, rows.data, 1, rows.ld, false, Cx(-1),
                     a_packed + 4 * r0 * rows.cols);
  }
  void subtract(index_t kb, MatrixView<Cx> cols, const R* a_packed, R* b_packed) const {
    const detail::KernelFns<R>& f = ks.fns;
    const index_t below = cols.rows - kb;
    const index_t w = cols.cols;
    f.pack_b_1m(f.nr, kb, w, cols.data, 1, cols.ld, false, b_packed);
    // [complex.numbers]: the strip is an array of pairs (Re, Im), 2 ld reals a column.
    R* c = reinterpret_cast<R*>(cols.data + kb);
    const index_t ldc = 2 * cols.ld;
    const index_t mc = std::max(half_mr(), ks.blocking.mc / 2 / half_mr() * half_mr());
    for (index_t r0 = 0; r0 < below; r0 += mc) {
      const index_t rows = std::min(mc, below - r0);
      for (index_t j = 0; j < w; j += f.nr) {
        f.packed_strip(2 * rows, std::min<index_t>(f.nr, w - j), 2 * kb, a_packed + 4 * r0 * kb,
                       f.mr, b_packed + 2 * j * kb, c + 2 * r0 + j * ldc, ldc, R(1), R(1));
      }
    }
  }
};

}  // namespace teamla::linalg::level3_detail
