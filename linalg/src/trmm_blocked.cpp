// SPDX-License-Identifier: Apache-2.0
// trmm_blocked.cpp: B = alpha * A * B (left side, A triangular, B column-major) on gemm's loops.
//
// The product is a gemm whose A is the triangle, run one kc-deep panel of B at a time: B's rows
// [K0, K1) are packed once (the kernel's pack_b), and that one packed panel serves both the rows
// off the diagonal block (a rank-kc update through gemm's ic_loop, beta = 1) and the diagonal
// block's own rows (the triangle packed over each strip's k range, pack_triangle_rows, beta = 0:
// their first write). In place, the panels are visited so that every row of B is packed before
// it is written: bottom-up for a lower A (rows K1.. receive from panel K after their own diagonal
// block ran), top-down for an upper one. B is packed once in all, as in a gemm of the same
// shape, where the recursion of trmm.cpp packed it once per level and once more in its leaves
// (pack_b was 7 % of strmm_ 1024; docs/level3.md, "TRMM").
#include <algorithm>

#include "gemm_internal.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/shortfall.hpp"
#include "trmm_internal.hpp"

namespace teamla::linalg::chol_detail {

template <class T>
bool trmm_left_blocked(bool lower, bool unit, T alpha, MatrixView<const T> a, MatrixView<T> b) {
  const detail::KernelSet<T>& ks = detail::kernels<T>();
  const detail::KernelFns<T>& f = ks.fns;
  const index_t m = b.rows;
  const index_t n = b.cols;
  const index_t mr = f.mr;
  const index_t nr = f.nr;
  const index_t kc = std::max<index_t>(1, std::min(ks.blocking.kc, m));
  const index_t nc = std::max<index_t>(nr, std::min(ks.blocking.nc, n) / nr * nr);
  // The diagonal block's rows, a block of whole strips at a time (its packed trapezoid is at
  // most an mc x kc block, the size ic_loop's blocks of A have).
  const index_t diag_rows = std::max(mr, ks.blocking.mc / mr * mr);
  // ic_loop's blocks of A: at most mc x kc of the kernel's blocking (more rows for a shallower
  // panel), never more than all m rows of one panel.
  const auto round_to_mr = [mr](index_t v) { return (v + mr - 1) / mr * mr; };
  const index_t a_elems =
      std::min(round_to_mr(m) * kc, round_to_mr(ks.blocking.mc) * ks.blocking.kc);
  const index_t b_elems = kc * nc;  // nc is a multiple of NR
  Workspace& ws = thread_local_workspace();
  T* ap = ws.try_buffer_of<T>(0, Workspace::Slot::pack_a, static_cast<std::size_t>(a_elems));
  T* bp = ap == nullptr
              ? nullptr
              : ws.try_buffer_of<T>(0, Workspace::Slot::pack_b, static_cast<std::size_t>(b_elems));
  if (bp == nullptr) {
    team::note_shortfall(team::Shortfall::memory,
                         static_cast<std::size_t>(a_elems + b_elems) * sizeof(T));
    return false;
  }
  const detail::Strided<T> sa{a.data, a.row_stride(), a.col_stride()};
  const index_t ldb = b.col_stride();
  const index_t panels = (m + kc - 1) / kc;
  for (index_t j0 = 0; j0 < n; j0 += nc) {
    const index_t ncb = std::min(nc, n - j0);
    T* c = &b(0, j0);
    for (index_t step = 0; step < panels; ++step) {
      const index_t q = lower ? panels - 1 - step : step;
      const index_t k0 = q * kc;
      const index_t kb = std::min(kc, m - k0);
      f.pack_b(kb, ncb, c + k0, 1, ldb, bp);
      if (lower && k0 + kb < m) {
        detail::ic_loop(ks, k0 + kb, m, ncb, kb, sa, k0, ap, bp, c, ldb, alpha, T(1));
      } else if (!lower && k0 > 0) {
        detail::ic_loop(ks, 0, k0, ncb, kb, sa, k0, ap, bp, c, ldb, alpha, T(1));
      }
      const MatrixView<const T> diag = a.block(k0, k0, kb, kb);
      const MatrixView<T> rows = b.block(k0, j0, kb, ncb);
      for (index_t r0 = 0; r0 < kb; r0 += diag_rows) {
        const index_t r1 = std::min(kb, r0 + diag_rows);
        pack_triangle_rows(f, lower, unit, diag, r0, r1, ap);
        multiply_triangle_rows(f, lower, alpha, r0, r1, ap, bp, rows);
      }
    }
  }
  return true;
}

template bool trmm_left_blocked<double>(bool, bool, double, MatrixView<const double>,
                                        MatrixView<double>);
template bool trmm_left_blocked<float>(bool, bool, float, MatrixView<const float>,
                                       MatrixView<float>);

}  // namespace teamla::linalg::chol_detail
