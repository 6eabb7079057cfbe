// SPDX-License-Identifier: Apache-2.0
// level3_common.cpp: the reduction of TRSM/TRMM calls, scratch memory, leaf-kernel dispatch and
// the balanced column split shared by the level-3 and Cholesky routines (level3_internal.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include "isa_dispatch.hpp"
#include "level3/level3_internal.hpp"
#include "workspace_units.hpp"

namespace teamla::linalg::level3_detail {

template <class T>
std::optional<LeftTriangular<T>> to_left_triangular(const char* routine, Side side, Uplo uplo,
                                                    Op op_a, Diag diag, T alpha,
                                                    MatrixView<const T> a, MatrixView<T> b,
                                                    Exec& exec) {
  check_side(routine, side);
  check_uplo(routine, uplo);
  check_op(routine, "op_a", op_a);
  check_diag(routine, diag);
  check_views(routine, "A", a, "B", b);
  check_side_order(routine, side, a.rows, a.cols, "B", b.rows, b.cols);
  exec.stats = {};
  if (b.rows == 0 || b.cols == 0) return std::nullopt;
  if (alpha == T(0)) {  // A is not read
    for (index_t j = 0; j < b.cols; ++j) {
      for (index_t i = 0; i < b.rows; ++i) b(i, j) = T(0);
    }
    return std::nullopt;
  }
  bool lower = uplo == Uplo::lower;
  if (op_a == Op::transpose) {
    a = a.transposed();
    lower = !lower;
  }
  if (side == Side::right) {
    a = a.transposed();
    b = b.transposed();
    lower = !lower;
  }
  return LeftTriangular<T>{a, b, lower, diag == Diag::unit};
}
template std::optional<LeftTriangular<double>> to_left_triangular(const char*, Side, Uplo, Op, Diag,
                                                                  double, MatrixView<const double>,
                                                                  MatrixView<double>, Exec&);
template std::optional<LeftTriangular<float>> to_left_triangular(const char*, Side, Uplo, Op, Diag,
                                                                 float, MatrixView<const float>,
                                                                 MatrixView<float>, Exec&);

template <class T>
const LeafKernels<T>& leaf_kernels() {
  return *detail::kernels<T>().leaves;
}
template const LeafKernels<double>& leaf_kernels<double>();
template const LeafKernels<float>& leaf_kernels<float>();

namespace {
// One growable, 64-byte-aligned buffer per thread. Growth only: steady-state calls allocate
// nothing.
struct ScratchSlot {
  struct Free {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<std::byte[], Free> data;
  std::size_t bytes = 0;
};
thread_local ScratchSlot scratch_slot;
}  // namespace

template <class T>
T* scratch(std::size_t count) {
  const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
  // In a claimed unit (a potrf step's next diagonal block), the unit's rank of the leader's
  // workspace: the thread's own slot would grow on whichever thread first takes that unit
  // (workspace_units.hpp).
  const detail::RankBuffers unit = detail::running_unit();
  if (unit.ws != nullptr) {
    return static_cast<T*>(unit.ws->buffer(unit.rank, Workspace::Slot::scratch, bytes));
  }
  ScratchSlot& s = scratch_slot;
  if (s.bytes < bytes) {
    s.data.reset(static_cast<std::byte*>(::operator new[](bytes, std::align_val_t(64))));
    s.bytes = bytes;
  }
  return reinterpret_cast<T*>(s.data.get());
}
template double* scratch<double>(std::size_t);
template float* scratch<float>(std::size_t);

template <class T>
T* try_scratch(std::size_t count) noexcept {
  try {
    return scratch<T>(count);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
template double* try_scratch<double>(std::size_t) noexcept;
template float* try_scratch<float>(std::size_t) noexcept;

index_t balanced_split(index_t n, std::size_t part, std::size_t parts, index_t align) {
  if (part == 0) return 0;
  if (part >= parts) return n;
  // The lower triangle's area left of column c is n*c - c*c/2; solve area(c) = share.
  const double nn = static_cast<double>(n);
  const double share = static_cast<double>(part) / static_cast<double>(parts) * nn * nn / 2;
  const double c = nn - std::sqrt(std::max(0.0, nn * nn - 2 * share));
  index_t col = static_cast<index_t>(std::llround(c / static_cast<double>(align))) * align;
  return std::clamp<index_t>(col, 0, n);
}

template <class T>
void scale_lower(MatrixView<T> c, T beta) {
  if (beta == T(1)) return;
  for (index_t j = 0; j < c.cols; ++j) {
    for (index_t i = j; i < c.rows; ++i) c(i, j) = beta == T(0) ? T(0) : beta * c(i, j);
  }
}
template void scale_lower<double>(MatrixView<double>, double);
template void scale_lower<float>(MatrixView<float>, float);

}  // namespace teamla::linalg::level3_detail
