// SPDX-License-Identifier: Apache-2.0
// chol_leaf_avx2_kernels.cpp: the TRSM/POTRF leaf kernels compiled for the avx2 ISA (flags from the
// file name).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "level3/level3_internal.hpp"

namespace teamla::linalg::chol_detail {
#define TEAMLA_CHOL_LEAF_NS leaf_avx2
#define TEAMLA_CHOL_LEAF_VEC_BYTES 32
#define TEAMLA_CHOL_LEAF_GETTER leaf_kernels_avx2
#define TEAMLA_CHOL_LEAF_REGISTERS 1
#define TEAMLA_CHOL_LEAF_TILES(X) X(8, 6) X(16, 6)
#include "kernels/chol_leaf_kernels.inc"
#undef TEAMLA_CHOL_LEAF_TILES
#undef TEAMLA_CHOL_LEAF_REGISTERS
#undef TEAMLA_CHOL_LEAF_VEC_BYTES
#undef TEAMLA_CHOL_LEAF_GETTER
#undef TEAMLA_CHOL_LEAF_NS
}  // namespace teamla::linalg::chol_detail
