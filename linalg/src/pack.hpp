// pack.hpp (internal): packing of A and B blocks into the micro-panel formats of the
// microkernels (isa_dispatch.hpp describes the formats).
//
// The templates take a tag type `Isa` declared in an anonymous namespace of each kernel
// file, so every kernel file gets its own copies compiled with its own ISA flags (the
// linker can never substitute an AVX-512 copy into the portable path).
#pragma once

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// pack_a_panels(): element (i, p) at a[i*rs + p*cs]; dst gets ceil(mc/MR) panels, each kc
// columns of MR values, rows past mc zero.
//
// Column-contiguous A (rs == 1) is read one column at a time across every panel: each
// column's mc values are one sequential run, which the hardware prefetcher follows. Reading
// panel by panel instead touches MR values per column, lda apart, and missed on every column
// once lda passed a page: packing a 3840 x 128 block took 28 % of the kernel's time that way
// (perf, double, AVX-512), against a few percent read by columns (docs/gemm.md, "Packing").
template <class Isa, class T, int MR>
void pack_a_panels(index_t mc, index_t kc, const T* a, index_t rs, index_t cs, T* dst) {
  if (rs == 1) {
    const index_t full = mc / MR * MR;
    const index_t rest = mc - full;
    for (index_t p = 0; p < kc; ++p) {
      const T* col = a + p * cs;
      T* out = dst + p * MR;
      for (index_t i0 = 0; i0 < full; i0 += MR) {
#pragma GCC unroll 64
        for (int i = 0; i < MR; ++i) {
          out[i] = col[i0 + i];
        }
        out += MR * kc;
      }
      if (rest > 0) {
        for (index_t i = 0; i < MR; ++i) {
          out[i] = i < rest ? col[full + i] : T(0);
        }
      }
    }
    return;
  }
  for (index_t i0 = 0; i0 < mc; i0 += MR) {
    const index_t rows = mc - i0 < MR ? mc - i0 : MR;
    const T* src = a + i0 * rs;
    if (rows == MR) {
      // Rows are contiguous in p (transposed A): read each row once, write strided.
      for (int i = 0; i < MR; ++i) {
        const T* row = src + i * rs;
        for (index_t p = 0; p < kc; ++p) {
          dst[p * MR + i] = row[p * cs];
        }
      }
      dst += MR * kc;
    } else {
      for (index_t p = 0; p < kc; ++p) {
        for (index_t i = 0; i < MR; ++i) {
          dst[i] = i < rows ? src[i * rs + p * cs] : T(0);
        }
        dst += MR;
      }
    }
  }
}

// pack_b_panels(): element (p, j) at b[p*rs + j*cs]; dst gets ceil(nc/NR) panels, each kc
// rows of NR values, columns past nc zero. Row-contiguous B (cs == 1) is read one row at a
// time across every panel, for the reason given at pack_a_panels.
template <class Isa, class T, int NR>
void pack_b_panels(index_t kc, index_t nc, const T* b, index_t rs, index_t cs, T* dst) {
  if (cs == 1) {
    const index_t full = nc / NR * NR;
    const index_t rest = nc - full;
    for (index_t p = 0; p < kc; ++p) {
      const T* row = b + p * rs;
      T* out = dst + p * NR;
      for (index_t j0 = 0; j0 < full; j0 += NR) {
#pragma GCC unroll 64
        for (int j = 0; j < NR; ++j) {
          out[j] = row[j0 + j];
        }
        out += NR * kc;
      }
      if (rest > 0) {
        for (index_t j = 0; j < NR; ++j) {
          out[j] = j < rest ? row[full + j] : T(0);
        }
      }
    }
    return;
  }
  for (index_t j0 = 0; j0 < nc; j0 += NR) {
    const index_t cols = nc - j0 < NR ? nc - j0 : NR;
    const T* src = b + j0 * cs;
    if (cols == NR) {
      // Columns are contiguous in p (column-major B): NR read streams, one write stream.
      for (index_t p = 0; p < kc; ++p) {
#pragma GCC unroll 64
        for (int j = 0; j < NR; ++j) {
          dst[j] = src[p * rs + j * cs];
        }
        dst += NR;
      }
    } else {
      for (index_t p = 0; p < kc; ++p) {
        for (index_t j = 0; j < NR; ++j) {
          dst[j] = j < cols ? src[p * rs + j * cs] : T(0);
        }
        dst += NR;
      }
    }
  }
}

}  // namespace teamla::linalg::detail
