// SPDX-License-Identifier: Apache-2.0
// chol_leaf_portable.cpp: the TRSM/POTRF leaf kernels compiled for the portable ISA (baseline
// x86-64, no flags).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "level3/level3_internal.hpp"

namespace teamla::linalg::chol_detail {
#define TEAMLA_CHOL_LEAF_NS leaf_portable
#define TEAMLA_CHOL_LEAF_VEC_BYTES 16
#define TEAMLA_CHOL_LEAF_GETTER leaf_kernels_portable
#define TEAMLA_CHOL_LEAF_REGISTERS 0
#define TEAMLA_CHOL_LEAF_TILES(X) /* the ref gemm kernel's 4 x 4 tiles: the loop below */
#include "kernels/chol_leaf_kernels.inc"
#undef TEAMLA_CHOL_LEAF_TILES
#undef TEAMLA_CHOL_LEAF_REGISTERS
#undef TEAMLA_CHOL_LEAF_VEC_BYTES
#undef TEAMLA_CHOL_LEAF_GETTER
#undef TEAMLA_CHOL_LEAF_NS
}  // namespace teamla::linalg::chol_detail
