// SPDX-License-Identifier: Apache-2.0
// pack.hpp (internal): packing of A and B blocks into the micro-panel formats of the
// microkernels (isa_dispatch.hpp describes the formats).
//
// The templates take a tag type `Isa` declared in an anonymous namespace of each kernel
// file, so every kernel file gets its own copies compiled with its own ISA flags (the
// linker can never substitute an AVX-512 copy into the portable path).
#pragma once

#include <cstring>

#include "teamla/linalg/matrix_view.hpp"

namespace teamla::linalg::detail {

// pack_panels(): the one packed format of both operands: ceil(count/W) panels, each `steps`
// steps of W values, values past `count` zero; element (step p, index e) is at
// src[p*ps + e*es]. A's MR-row panels are (p = column, e = row), B's NR-column panels
// (p = row, e = column).
//
// Unit-stride elements (es == 1: column-major A, row-major B) are read one step at a time
// across every panel: each step's `count` values are one sequential run, which the hardware
// prefetcher follows. Reading panel by panel instead touches W values per step, a leading
// dimension apart, and missed on every step once that passed a page: packing a 3840 x 128
// block of A took a large share of the kernel's time that way (perf, double, AVX-512), and a
// small one by steps (docs/gemm.md, "Packing order"; docs/perf/blocking.md).
template <class Isa, class T, int W>
void pack_panels(index_t steps, index_t count, const T* src, index_t ps, index_t es, T* dst) {
  if (es == 1) {
    const index_t full = count / W * W;
    const index_t rest = count - full;
    // Each run is prefetched kAhead steps early. The runs lie a leading dimension apart, so
    // the hardware prefetcher sees each as a new stream of a few lines; packing 48 rows x 256
    // columns of a panel at ld = 4096 stalls on every line without it (perf of a 2-thread
    // dpotrf n = 4096, most on the first load of each line; docs/perf/blocking.md).
    // kAhead: 4 steps ahead shortened the team Cholesky's panel phase (docs/perf/blocking.md).
    constexpr index_t kAhead = 4;
    constexpr index_t kLine = 64 / static_cast<index_t>(sizeof(T));
    for (index_t p = 0; p < steps; ++p) {
      const T* run = src + p * ps;
      T* out = dst + p * W;
      if (p + kAhead < steps) {
        const T* ahead = run + kAhead * ps;
        for (index_t e = 0; e < count; e += kLine) __builtin_prefetch(ahead + e);
        __builtin_prefetch(ahead + count - 1);
      }
      for (index_t e0 = 0; e0 < full; e0 += W) {
        // Copies of a constant size (32 bytes), which the compiler emits as vector moves: an
        // element loop stays scalar, as GCC cannot rule out that out and run overlap
        // (docs/gemm.md, "Blocking": the packing of a tall A; 64-byte moves measured the same).
        constexpr int kPiece = 32 / static_cast<int>(sizeof(T));
        if constexpr (W % kPiece == 0) {
#pragma GCC unroll 16
          for (int e = 0; e < W; e += kPiece) std::memcpy(out + e, run + e0 + e, 32);
        } else {
          std::memcpy(out, run + e0, W * sizeof(T));
        }
        out += W * steps;
      }
      if (rest > 0) {
        for (index_t e = 0; e < W; ++e) {
          out[e] = e < rest ? run[full + e] : T(0);
        }
      }
    }
    return;
  }
  for (index_t e0 = 0; e0 < count; e0 += W) {
    const index_t width = count - e0 < W ? count - e0 : W;
    const T* panel = src + e0 * es;
    if (width == W && ps == 1) {
      // Each element's steps are contiguous (row-major A, column-major B): read each run
      // once, write strided.
      for (int e = 0; e < W; ++e) {
        const T* run = panel + e * es;
        for (index_t p = 0; p < steps; ++p) {
          dst[p * W + e] = run[p];
        }
      }
      dst += W * steps;
    } else {
      for (index_t p = 0; p < steps; ++p) {
        for (index_t e = 0; e < W; ++e) {
          dst[e] = e < width ? panel[p * ps + e * es] : T(0);
        }
        dst += W;
      }
    }
  }
}

// pack_a_panels(): element (i, p) at a[i*rs + p*cs]; dst gets ceil(mc/MR) panels, each kc
// columns of MR values, rows past mc zero.
template <class Isa, class T, int MR>
void pack_a_panels(index_t mc, index_t kc, const T* a, index_t rs, index_t cs, T* dst) {
  pack_panels<Isa, T, MR>(kc, mc, a, cs, rs, dst);
}

// pack_a_transposing(): pack_a_panels() where op(A) is a transposed column-major A (cs == 1:
// each row of op(A) contiguous, a leading dimension apart). A full panel is then the
// transpose of its MR rows into an MR x kc column-major block of leading dimension MR, which
// is the panel format: `copy_transposed` (the ISA's CopyTransposed: register transposes,
// whole-vector stores) does it, where an element loop writes one value per step, MR apart
// (dgemm TN 2048 x 16 x 16 and the like; docs/gemm.md, "Packing order"). The last,
// partial panel takes the element path, which zero-fills its rows past mc.
template <class Isa, class T, int MR, class CopyTransposed>
void pack_a_transposing(index_t mc, index_t kc, const T* a, index_t rs, index_t cs, T* dst,
                        CopyTransposed copy_transposed) {
  if (cs != 1 || rs == 1) {
    pack_a_panels<Isa, T, MR>(mc, kc, a, rs, cs, dst);
    return;
  }
  const index_t full = mc / MR * MR;
  for (index_t i0 = 0; i0 < full; i0 += MR) {
    copy_transposed(MR, kc, a + i0 * rs, rs, dst, MR);
    dst += MR * kc;
  }
  if (full < mc) {
    pack_a_panels<Isa, T, MR>(mc - full, kc, a + full * rs, rs, cs, dst);
  }
}

// kPanelsPerStep: a B of contiguous rows (cs == 1: row-major B, or op(B) = B^T as SYRK's and
// SYR2K's packing of their own rows) is packed at most this many panels at a time, each step
// of a run writing one line to each. A panel is kc x NR values (16 KiB at kc = 256 double, 512
// float), a multiple of 4 KiB, so the lines a step writes all fall in one L1 set: writing to
// every panel of B at once (32 at n = 256) evicts them before the next step fills them.
// 8: faster than 4 and than all at once on 1-thread dsyr2k_ (docs/perf/blocking.md).
constexpr index_t kPanelsPerStep = 8;

// pack_b_panels(): element (p, j) at b[p*rs + j*cs]; dst gets ceil(nc/NR) panels, each kc
// rows of NR values, columns past nc zero.
template <class Isa, class T, int NR>
void pack_b_panels(index_t kc, index_t nc, const T* b, index_t rs, index_t cs, T* dst) {
  if (cs != 1) {
    pack_panels<Isa, T, NR>(kc, nc, b, rs, cs, dst);
    return;
  }
  constexpr index_t kGroup = kPanelsPerStep * NR;
  for (index_t j0 = 0; j0 < nc; j0 += kGroup) {
    const index_t columns = nc - j0 < kGroup ? nc - j0 : kGroup;
    pack_panels<Isa, T, NR>(kc, columns, b + j0, rs, 1, dst + j0 * kc);
  }
}

// pack_b_transposed(): pack_b_panels with its common case, column-major B (rs == 1), handed
// to an ISA's in-register transpose. Each packed row gathers NR columns, so blocks of NR
// k-steps of NR columns are loaded as NR column vectors and transposed:
// transpose_block(col, cs, out) reads column j's NR values at col + j*cs and writes the NR
// packed rows of NR values at out. The k-steps past the last whole block and the columns past
// the last whole panel take the scalar paths.
template <class Isa, class T, int NR, class TransposeBlock>
[[gnu::always_inline]] inline void pack_b_transposed(index_t kc, index_t nc, const T* b, index_t rs,
                                                     index_t cs, T* dst,
                                                     TransposeBlock transpose_block) {
  if (rs != 1 || cs == 1) {
    pack_b_panels<Isa, T, NR>(kc, nc, b, rs, cs, dst);
    return;
  }
  const index_t full = nc / NR * NR;
  for (index_t j0 = 0; j0 < full; j0 += NR) {
    const T* col = b + j0 * cs;
    index_t p = 0;
    for (; p + NR <= kc; p += NR) {
      transpose_block(col + p, cs, dst + p * NR);
    }
    for (; p < kc; ++p) {
      for (int j = 0; j < NR; ++j) {
        dst[p * NR + j] = col[j * cs + p];
      }
    }
    dst += kc * NR;
  }
  if (full < nc) {
    pack_b_panels<Isa, T, NR>(kc, nc - full, b + full * cs, rs, cs, dst);
  }
}

}  // namespace teamla::linalg::detail
