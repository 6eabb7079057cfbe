// SPDX-License-Identifier: Apache-2.0
// level2_body.hpp (internal): the level-2 kernels, written once as plain loops, and the table a
// kernel file builds from them (level2_kernels.hpp).
//
// No intrinsics: the loops are simple enough for the compiler to vectorize under each kernel
// file's flags (kernels/<isa>/level2_<isa>.cpp: AVX-512, AVX2 + FMA, or the baseline x86-64),
// and a level-2 routine is bound by memory, not by the instruction choice. Every template takes
// the kernel file's Tag, a type private to that file, so that each file's instantiations are its
// own and none is linked in place of another ISA's. Included only by those files.
#pragma once

#include "kernels/level2_gemv.hpp"
#include "kernels/level2_kernels.hpp"
#include "kernels/level2_symv.hpp"
#include "kernels/level2_triangle.hpp"
#include "kernels/level2_update.hpp"

namespace teamla::linalg::detail::level2_body {

template <class Tag, class T>
constexpr Level2Kernels<T> make_kernels() {
  return Level2Kernels<T>{
      .gemv_n = &gemv_n<Tag, T>,
      .gemv_t = &gemv_t<Tag, T>,
      .symv_cols = &symv_cols<Tag, T>,
      .rank_update = &rank_update<Tag, T>,
      .trmv_block = &trmv_block<Tag, T>,
      .trsv_block = &trsv_block<Tag, T>,
  };
}

template <class Tag>
constexpr Level2Tables make_tables() {
  return Level2Tables{
      .s = make_kernels<Tag, float>(),
      .d = make_kernels<Tag, double>(),
      .c = make_kernels<Tag, std::complex<float>>(),
      .z = make_kernels<Tag, std::complex<double>>(),
  };
}

}  // namespace teamla::linalg::detail::level2_body
