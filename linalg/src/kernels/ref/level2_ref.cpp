// SPDX-License-Identifier: Apache-2.0
// level2_ref.cpp: the level-2 kernels (kernels/level2_body.hpp) with no ISA flags (the baseline
// x86-64, SSE2), only -fopenmp-simd for their reductions (linalg/CMakeLists.txt): the path of a
// CPU without AVX2, and the tests' second opinion.
#include "kernels/level2_body.hpp"

namespace teamla::linalg::detail {
namespace {

// This file's Tag (level2_body.hpp): the complex loops' vectors are one SSE2 register, the
// baseline's.
struct RefLevel2 {
  static constexpr int kVecBytes = 16;
  static constexpr int kWideBytes = 16;  // level2_symv_real.hpp: one register too
};

constexpr Level2Tables kTables = level2_body::make_tables<RefLevel2>();

}  // namespace

const Level2Tables& level2_tables_ref() { return kTables; }

}  // namespace teamla::linalg::detail
