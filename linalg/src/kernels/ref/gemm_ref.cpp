// SPDX-License-Identifier: Apache-2.0
// gemm_ref.cpp: the portable reference microkernels (4x4, double and float).
//
// Plain scalar loops with no ISA flags: they run on any x86-64 and are the oracle the tests
// compare the vector kernels with. The accumulation order over p is the natural one, so the
// result equals a naive triple loop's up to the blocking over kc.
#include <algorithm>

#include "isa_dispatch.hpp"
#include "kernels/complex_pack.hpp"
#include "kernels/pack.hpp"

namespace teamla::linalg::detail {
namespace {

struct RefIsa {};
constexpr int kMr = 4;
constexpr int kNr = 4;

// ref_store(): C = alpha * acc + beta * C on the tile's m x n (beta == 0: C is not read).
template <class T>
void ref_store(const T (&acc)[kNr][kMr], index_t m, index_t n, T* c, index_t ldc, T alpha, T beta) {
  for (index_t j = 0; j < n; ++j) {
    for (index_t i = 0; i < m; ++i) {
      T& cij = c[i + j * ldc];
      cij = beta == T(0) ? alpha * acc[j][i] : alpha * acc[j][i] + beta * cij;
    }
  }
}

template <class T>
void ref_kernel(index_t m, index_t n, index_t kc, const T* a, index_t a_step, const T* b, T* c,
                index_t ldc, T alpha, T beta) {
  T acc[kNr][kMr] = {};
  for (index_t p = 0; p < kc; ++p) {
    for (int j = 0; j < kNr; ++j) {
      for (int i = 0; i < kMr; ++i) {
        // Rows past m read as zero (a packed panel holds zeros there anyway).
        const T ai = i < m ? a[i] : T(0);
        acc[j][i] += ai * b[j];
      }
    }
    a += a_step;
    b += kNr;
  }
  ref_store(acc, m, n, c, ldc, alpha, beta);
}

// ref_tile_in_place(): one tile, m <= MR; B element (p, j) at b[p * b_rs + j * b_cs];
// columns past n unread.
template <class T, bool kRowsOfB>
void ref_tile_in_place(index_t m, index_t n, index_t kc, const T* a, index_t lda, const T* b,
                       index_t ldb, T* c, index_t ldc, T alpha, T beta) {
  const index_t b_rs = kRowsOfB ? ldb : 1;
  const index_t b_cs = kRowsOfB ? 1 : ldb;
  T acc[kNr][kMr] = {};
  for (index_t p = 0; p < kc; ++p) {
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = 0; i < m; ++i) {
        acc[j][i] += a[i + p * lda] * b[p * b_rs + j * b_cs];
      }
    }
  }
  ref_store(acc, m, n, c, ldc, alpha, beta);
}

// ref_kernel_in_place(): any m rows and n columns, MR x NR at a time.
template <class T, bool kRowsOfB>
void ref_kernel_in_place(index_t m, index_t n, index_t kc, const T* a, index_t lda, const T* b,
                         index_t ldb, T* c, index_t ldc, T alpha, T beta) {
  for (index_t jr = 0; jr < n; jr += kNr) {
    const T* b_strip = kRowsOfB ? b + jr : b + jr * ldb;
    for (index_t ir = 0; ir < m; ir += kMr) {
      ref_tile_in_place<T, kRowsOfB>(std::min<index_t>(kMr, m - ir), std::min<index_t>(kNr, n - jr),
                                     kc, a + ir, lda, b_strip, ldb, c + ir + jr * ldc, ldc, alpha,
                                     beta);
    }
  }
}

template <class T>
void ref_copy_transposed(index_t m, index_t k, const T* a, index_t lda, T* dst, index_t ldd) {
  for (index_t p = 0; p < k; ++p) {
    for (index_t i = 0; i < m; ++i) {
      dst[i + p * ldd] = a[p + i * lda];
    }
  }
}

// ref_strip(): a strip of any m rows of packed A, MR at a time.
template <class T>
void ref_strip(index_t m, index_t n, index_t kc, const T* a, index_t a_step, const T* b, T* c,
               index_t ldc, T alpha, T beta) {
  for (index_t ir = 0; ir < m; ir += kMr) {
    ref_kernel<T>(std::min<index_t>(kMr, m - ir), n, kc, a + ir * kc, a_step, b, c + ir, ldc, alpha,
                  beta);
  }
}

template <class T>
KernelFns<T> make_fns(const char* name) {
  KernelFns<T> fns;
  fns.name = name;
  fns.mr = kMr;
  fns.nr = kNr;
  fns.row_step = 1;
  fns.packed = &ref_kernel<T>;
  fns.packed_strip = &ref_strip<T>;
  fns.in_place_b_cols = &ref_kernel_in_place<T, false>;
  fns.in_place_b_rows = &ref_kernel_in_place<T, true>;
  fns.copy_transposed = &ref_copy_transposed<T>;
  fns.pack_a = &pack_a_panels<RefIsa, T, kMr>;
  fns.pack_b = &pack_b_panels<RefIsa, T, kNr>;
  fns.pack_a_1m = &pack_a_1m<RefIsa, T>;
  fns.pack_b_1m = &pack_b_1m<RefIsa, T>;
  return fns;
}

}  // namespace

KernelFns<double> ref_kernels_d4x4() { return make_fns<double>("ref_d4x4"); }
KernelFns<float> ref_kernels_s4x4() { return make_fns<float>("ref_s4x4"); }

}  // namespace teamla::linalg::detail
