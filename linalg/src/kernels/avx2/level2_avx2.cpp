// SPDX-License-Identifier: Apache-2.0
// level2_avx2.cpp: the level-2 kernels (kernels/level2_body.hpp) compiled with this folder's
// flags, AVX2 and FMA, and -fopenmp-simd for their reductions (linalg/CMakeLists.txt).
#include "kernels/level2_body.hpp"

namespace teamla::linalg::detail {
namespace {

// This file's Tag (level2_body.hpp): the complex loops' vectors are one AVX register.
struct Avx2Level2 {
  static constexpr int kVecBytes = 32;
  static constexpr int kWideBytes = 32;  // level2_symv_real.hpp: one register too
};

constexpr Level2Tables kTables = level2_body::make_tables<Avx2Level2>();

}  // namespace

const Level2Tables& level2_tables_avx2() { return kTables; }

}  // namespace teamla::linalg::detail
