// SPDX-License-Identifier: Apache-2.0
// complex_pack.hpp (internal): the packing of the 1m method (complex_gemm.cpp), which lets the
// real microkernel compute a complex product.
//
// A column-major complex C (m x n, ldc) is, in memory, the real 2m x n matrix Cr (ld 2 ldc)
// whose rows 2i and 2i + 1 hold Re and Im of row i. Then Cr = Ar Br exactly, where
//   Ar (2m x 2k) holds each a(i, p) as the 2 x 2 block  [ Re a  -Im a ]  at rows 2i, 2i + 1
//                                                      [ Im a   Re a ]  and columns 2p, 2p + 1,
//   Br (2k x n) holds Re b(p, j) in row 2p and Im b(p, j) in row 2p + 1.
// The packers write Ar and Br straight into the real kernel's micro-panel formats
// (isa_dispatch.hpp: PackA, PackB), with alpha, the transposes and the conjugations applied on
// the way, so the kernel runs unchanged at depth 2k. Each kernel file registers its own copies
// (KernelFns::pack_a_1m, pack_b_1m), compiled with its ISA's flags.
#pragma once

#include <algorithm>
#include <complex>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// pack_a_1m_rows(): one micro-panel's `rows` complex rows at one step p: alpha * op(a) into
// the panel's real columns 2p (`even`: Re, Im) and 2p + 1 (`odd`: -Im, Re). Written with the row
// stride known (kStride 1: the column-major A) or not (0), and with a real alpha apart
// (kRealAlpha: gemm's 1, the factorizations' -1), so that the common cases vectorize.
template <index_t kStride, bool kRealAlpha, class R>
inline void pack_a_1m_rows(index_t rows, const std::complex<R>* col, index_t rs, R sign,
                           std::complex<R> alpha, R* even, R* odd) {
  const index_t stride = kStride != 0 ? kStride : rs;
  const R* z = reinterpret_cast<const R*>(col);  // [complex.numbers]: pairs (Re, Im)
  const R ar = alpha.real();
  const R ai = alpha.imag();
  for (index_t i = 0; i < rows; ++i) {
    const R zr = z[2 * i * stride];
    const R zi = sign * z[2 * i * stride + 1];
    const R re = kRealAlpha ? ar * zr : ar * zr - ai * zi;
    const R im = kRealAlpha ? ar * zi : ar * zi + ai * zr;
    even[2 * i] = re;
    even[2 * i + 1] = im;
    odd[2 * i] = -im;
    odd[2 * i + 1] = re;
  }
}

// pack_a_1m(): rows [0, rows) x columns [0, kc) of alpha * op(A), op(A)'s element (i, p) at
// a[i*rs + p*cs], conjugated where `conj`, as Ar: micro-panels of 2 half_mr real rows by 2 kc
// steps, zero padded (PackA's format). `Isa` is the kernel file's tag (pack.hpp).
template <class Isa, class R>
void pack_a_1m(index_t half_mr, index_t rows, index_t kc, const std::complex<R>* a, index_t rs,
               index_t cs, bool conj, std::complex<R> alpha, R* dst) {
  const index_t mr = 2 * half_mr;
  const R sign = conj ? R(-1) : R(1);
  const bool real_alpha = alpha.imag() == R(0);
  for (index_t r0 = 0; r0 < rows; r0 += half_mr) {
    const index_t panel_rows = std::min(half_mr, rows - r0);
    R* panel = dst + r0 * 4 * kc;  // r0 / half_mr panels of mr x 2 kc before it
    for (index_t p = 0; p < kc; ++p) {
      R* even = panel + 2 * p * mr;
      R* odd = even + mr;
      const std::complex<R>* col = a + r0 * rs + p * cs;
      if (rs == 1 && real_alpha) {
        pack_a_1m_rows<1, true>(panel_rows, col, 1, sign, alpha, even, odd);
      } else if (rs == 1) {
        pack_a_1m_rows<1, false>(panel_rows, col, 1, sign, alpha, even, odd);
      } else {
        pack_a_1m_rows<0, false>(panel_rows, col, rs, sign, alpha, even, odd);
      }
      std::fill(even + 2 * panel_rows, even + mr, R(0));
      std::fill(odd + 2 * panel_rows, odd + mr, R(0));
    }
  }
}

// pack_b_1m(): rows [0, kc) x columns [0, cols) of op(B), element (p, j) at b[p*rs + j*cs],
// conjugated where `conj`, as Br: micro-panels of 2 kc steps by nr real columns, zero padded
// (PackB's format). Read along whichever of B's strides is 1.
template <class Isa, class R>
void pack_b_1m(index_t nr, index_t kc, index_t cols, const std::complex<R>* b, index_t rs,
               index_t cs, bool conj, R* dst) {
  const R sign = conj ? R(-1) : R(1);
  for (index_t j0 = 0; j0 < cols; j0 += nr) {
    const index_t width = std::min(nr, cols - j0);
    R* panel = dst + j0 * 2 * kc;
    if (rs == 1) {
      for (index_t j = 0; j < width; ++j) {
        const std::complex<R>* col = b + (j0 + j) * cs;
        for (index_t p = 0; p < kc; ++p) {
          panel[2 * p * nr + j] = col[p].real();
          panel[(2 * p + 1) * nr + j] = sign * col[p].imag();
        }
      }
    } else {
      for (index_t p = 0; p < kc; ++p) {
        const std::complex<R>* row = b + p * rs + j0 * cs;
        for (index_t j = 0; j < width; ++j) {
          panel[2 * p * nr + j] = row[j * cs].real();
          panel[(2 * p + 1) * nr + j] = sign * row[j * cs].imag();
        }
      }
    }
    if (width < nr) {
      for (index_t p = 0; p < 2 * kc; ++p) {
        std::fill(panel + p * nr + width, panel + (p + 1) * nr, R(0));
      }
    }
  }
}

}  // namespace teamla::linalg::detail
