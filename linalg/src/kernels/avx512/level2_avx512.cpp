// SPDX-License-Identifier: Apache-2.0
// level2_avx512.cpp: the level-2 kernels (kernels/level2_body.hpp) compiled with this folder's
// flags, AVX-512 (with AVX2 and FMA), and -fopenmp-simd for their reductions
// (linalg/CMakeLists.txt).
#include "kernels/level2_body.hpp"

namespace teamla::linalg::detail {
namespace {

// This file's Tag (level2_body.hpp): the complex loops' vectors are 256 bits, AVX-512VL's
// encoding of them (32 registers): from memory the loops are bound by bandwidth, not by the
// vector width (docs/perf/level2.md).
struct Avx512Level2 {
  static constexpr int kVecBytes = 32;
  // kWideBytes: the loops bound by their multiply-adds from cache (real symv:
  // level2_symv_real.hpp) take the full 512 bits.
  static constexpr int kWideBytes = 64;
};

constexpr Level2Tables kTables = level2_body::make_tables<Avx512Level2>();

}  // namespace

const Level2Tables& level2_tables_avx512() { return kTables; }

}  // namespace teamla::linalg::detail
