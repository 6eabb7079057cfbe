// SPDX-License-Identifier: Apache-2.0
// validate.cpp: argument checks of the engine's routines. Messages follow one pattern: the
// argument, its value, and what it had to be, e.g. "teamla::gemm: ldc = 3 is smaller than the rows
// of C (5)".
#include "validate.hpp"

#include <algorithm>
#include <string>

#include "teamla/linalg/errors.hpp"

namespace teamla::engine::detail {
namespace {

using linalg::Diag;
using linalg::index_t;
using linalg::InvalidArgument;
using linalg::Layout;
using linalg::Side;

std::string shape(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// check_view(): a view is well formed: non-negative shape, non-null data when non-empty,
// and a leading dimension that covers a row (row-major) or a column (column-major).
// The messages are built in a cold, out-of-line function: the checks run on every call, tiny
// ones included, and must cost a few compares.
template <class T>
[[gnu::cold, gnu::noinline]] void throw_bad_view(const char* routine, const std::string& name,
                                                 MatrixView<T> v) {
  if (v.rows < 0 || v.cols < 0) {
    throw InvalidArgument(routine, name,
                          name + " has a negative dimension (" + shape(v.rows, v.cols) + ")");
  }
  if (v.layout != Layout::col_major && v.layout != Layout::row_major) {
    throw InvalidArgument(
        routine, name,
        name + " has an invalid layout value " + std::to_string(static_cast<int>(v.layout)));
  }
  const bool col = v.layout == Layout::col_major;
  const index_t needed = std::max<index_t>(1, col ? v.rows : v.cols);
  if (v.ld < needed) {
    const std::string ld = "ld" + std::string(1, static_cast<char>(name[0] - 'A' + 'a'));
    throw InvalidArgument(routine, ld,
                          ld + " = " + std::to_string(v.ld) + " is smaller than the " +
                              (col ? "rows" : "columns") + " of " + name + " (" +
                              std::to_string(needed) + (col ? ")" : ", row-major)"));
  }
  throw InvalidArgument(routine, name, name + " is null but " + shape(v.rows, v.cols));
}

template <class T>
void check_view(const char* routine, const char* name, const MatrixView<T>& v) {
  const bool layout_ok = v.layout == Layout::col_major || v.layout == Layout::row_major;
  const index_t needed = std::max<index_t>(1, v.layout == Layout::col_major ? v.rows : v.cols);
  if (v.rows < 0 || v.cols < 0 || !layout_ok || v.ld < needed ||
      (v.data == nullptr && v.rows > 0 && v.cols > 0)) {
    throw_bad_view(routine, name, v);
  }
}

[[gnu::cold, gnu::noinline]] void throw_bad_op(const char* routine, const char* name, Op op) {
  throw InvalidArgument(routine, name,
                        std::string(name) + " = " + std::to_string(static_cast<int>(op)) +
                            " is not Op::none or Op::transpose");
}

void check_op(const char* routine, const char* name, Op op) {
  if (op != Op::none && op != Op::transpose) throw_bad_op(routine, name, op);
}

void check_uplo(const char* routine, Uplo uplo) {
  if (uplo != Uplo::lower && uplo != Uplo::upper) {
    throw InvalidArgument(
        routine, "uplo",
        "uplo = " + std::to_string(static_cast<int>(uplo)) + " is not Uplo::lower or Uplo::upper");
  }
}

template <class T>
void check_square(const char* routine, const char* name, MatrixView<T> v) {
  if (v.rows != v.cols) {
    throw InvalidArgument(routine, name,
                          std::string(name) + " is " + shape(v.rows, v.cols) + ", not square");
  }
}

// op_rows()/op_cols(): the shape of op(X).
template <class T>
index_t op_rows(Op op, const MatrixView<T>& v) {
  return op == Op::none ? v.rows : v.cols;
}
template <class T>
index_t op_cols(Op op, const MatrixView<T>& v) {
  return op == Op::none ? v.cols : v.rows;
}

// throw_bad_gemm_shapes(): op(A), op(B) and C do not conform. Cold, as throw_bad_view().
[[gnu::cold, gnu::noinline]] void throw_bad_gemm_shapes(const char* r, index_t m, index_t k,
                                                        index_t b_rows, index_t b_cols,
                                                        index_t c_rows, index_t c_cols) {
  if (b_rows != k) {
    throw InvalidArgument(r, "B",
                          "op(B) is " + shape(b_rows, b_cols) + " but op(A) is " + shape(m, k) +
                              ": op(B) must have k = " + std::to_string(k) + " rows");
  }
  throw InvalidArgument(
      r, "C", "C is " + shape(c_rows, c_cols) + " but op(A)*op(B) is " + shape(m, b_cols));
}

}  // namespace

template <class T>
void validate_gemm(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                   const MatrixView<T>& c) {
  const char* r = "gemm";
  check_op(r, "op_a", op_a);
  check_op(r, "op_b", op_b);
  check_view(r, "A", a);
  check_view(r, "B", b);
  check_view(r, "C", c);
  const index_t m = op_rows(op_a, a), k = op_cols(op_a, a);
  const index_t b_rows = op_rows(op_b, b), b_cols = op_cols(op_b, b);
  if (b_rows != k || c.rows != m || c.cols != b_cols) {
    throw_bad_gemm_shapes(r, m, k, b_rows, b_cols, c.rows, c.cols);
  }
}

template <class T>
void validate_trsm(Side side, Uplo uplo, Op op_a, Diag diag, MatrixView<const T> a,
                   MatrixView<T> b) {
  const char* r = "trsm";
  if (side != Side::left && side != Side::right) {
    throw InvalidArgument(
        r, "side",
        "side = " + std::to_string(static_cast<int>(side)) + " is not Side::left or Side::right");
  }
  check_uplo(r, uplo);
  check_op(r, "op_a", op_a);
  if (diag != Diag::non_unit && diag != Diag::unit) {
    throw InvalidArgument(r, "diag",
                          "diag = " + std::to_string(static_cast<int>(diag)) +
                              " is not Diag::non_unit or Diag::unit");
  }
  check_view(r, "A", a);
  check_view(r, "B", b);
  check_square(r, "A", a);
  const index_t needed = side == Side::left ? b.rows : b.cols;
  if (a.rows != needed) {
    throw InvalidArgument(r, "A",
                          "A is " + shape(a.rows, a.cols) + " but B is " + shape(b.rows, b.cols) +
                              ": with side = " + (side == Side::left ? "left" : "right") +
                              " A must be " + shape(needed, needed));
  }
}

template <class T>
void validate_syrk(Uplo uplo, Op op_a, MatrixView<const T> a, MatrixView<T> c) {
  const char* r = "syrk";
  check_uplo(r, uplo);
  check_op(r, "op_a", op_a);
  check_view(r, "A", a);
  check_view(r, "C", c);
  check_square(r, "C", c);
  if (op_rows(op_a, a) != c.rows) {
    throw InvalidArgument(r, "A",
                          "op(A) is " + shape(op_rows(op_a, a), op_cols(op_a, a)) + " but C is " +
                              shape(c.rows, c.cols) + ": op(A) must have " +
                              std::to_string(c.rows) + " rows");
  }
}

template <class T>
void validate_potrf(Uplo uplo, MatrixView<T> a, const char* routine) {
  check_uplo(routine, uplo);
  check_view(routine, "A", a);
  check_square(routine, "A", a);
}

template <class T>
void validate_potrs(Uplo uplo, MatrixView<const T> a, MatrixView<T> b, const char* routine) {
  check_uplo(routine, uplo);
  check_view(routine, "A", a);
  check_view(routine, "B", b);
  check_square(routine, "A", a);
  if (b.rows != a.rows) {
    throw InvalidArgument(routine, "B",
                          "B is " + shape(b.rows, b.cols) + " but A is " + shape(a.rows, a.cols) +
                              ": B must have " + std::to_string(a.rows) + " rows");
  }
}

#define TEAMLA_VALIDATE_INSTANTIATE(T)                                                           \
  template void validate_gemm<T>(Op, Op, const MatrixView<const T>&, const MatrixView<const T>&, \
                                 const MatrixView<T>&);                                          \
  template void validate_trsm<T>(Side, Uplo, Op, Diag, MatrixView<const T>, MatrixView<T>);      \
  template void validate_syrk<T>(Uplo, Op, MatrixView<const T>, MatrixView<T>);                  \
  template void validate_potrf<T>(Uplo, MatrixView<T>, const char*);                             \
  template void validate_potrs<T>(Uplo, MatrixView<const T>, MatrixView<T>, const char*);
TEAMLA_VALIDATE_INSTANTIATE(double)
TEAMLA_VALIDATE_INSTANTIATE(float)
#undef TEAMLA_VALIDATE_INSTANTIATE

}  // namespace teamla::engine::detail
