// SPDX-License-Identifier: Apache-2.0
// checks.cpp: the argument checks of every linalg routine (checks.hpp, level3_internal.hpp).
// One wording throughout: the argument, its value, and what it had to be. The messages are
// built in cold, out-of-line functions: the checks run on every call, tiny ones included, and
// must cost a few compares.
#include "teamla/linalg/checks.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

#include "level3/level3_internal.hpp"
#include "teamla/linalg/errors.hpp"

namespace teamla::linalg {
namespace level3_detail {
namespace {

std::string shape(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

[[gnu::cold, gnu::noinline]] void throw_bad_view(const char* routine, const std::string& name,
                                                 index_t rows, index_t cols, index_t ld,
                                                 Layout layout) {
  if (rows < 0 || cols < 0) {
    throw InvalidArgument(routine, name,
                          name + " has a negative dimension (" + shape(rows, cols) + ")");
  }
  if (layout != Layout::col_major && layout != Layout::row_major) {
    throw InvalidArgument(
        routine, name,
        name + " has an invalid layout value " + std::to_string(static_cast<int>(layout)));
  }
  const bool col = layout == Layout::col_major;
  const index_t needed = std::max<index_t>(1, col ? rows : cols);
  if (ld < needed) {
    const std::string ld_name =
        "ld" + std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(name[0]))));
    throw InvalidArgument(routine, ld_name,
                          ld_name + " = " + std::to_string(ld) + " is smaller than the " +
                              (col ? "rows" : "columns") + " of " + name + " (" +
                              std::to_string(needed) + (col ? ")" : ", row-major)"));
  }
  throw InvalidArgument(routine, name, name + " is null but " + shape(rows, cols));
}

template <class Value>
[[gnu::cold, gnu::noinline]] void throw_bad_value(const char* routine, const char* name,
                                                  Value value, const char* allowed) {
  throw InvalidArgument(
      routine, name,
      std::string(name) + " = " + std::to_string(static_cast<int>(value)) + " is not " + allowed);
}

}  // namespace

void fail_shape(const char* routine, const std::string& argument, const std::string& what) {
  throw InvalidArgument(routine, argument, what);
}

void check_view(const char* routine, const char* name, index_t rows, index_t cols, index_t ld,
                Layout layout, const void* data) {
  const bool layout_ok = layout == Layout::col_major || layout == Layout::row_major;
  const index_t needed = std::max<index_t>(1, layout == Layout::col_major ? rows : cols);
  if (rows < 0 || cols < 0 || !layout_ok || ld < needed ||
      (data == nullptr && rows > 0 && cols > 0)) {
    throw_bad_view(routine, name, rows, cols, ld, layout);
  }
}

void check_uplo(const char* routine, Uplo uplo) {
  if (uplo != Uplo::lower && uplo != Uplo::upper) {
    throw_bad_value(routine, "uplo", uplo, "Uplo::lower or Uplo::upper");
  }
}

void check_side(const char* routine, Side side) {
  if (side != Side::left && side != Side::right) {
    throw_bad_value(routine, "side", side, "Side::left or Side::right");
  }
}

void check_op(const char* routine, const char* name, Op op, bool conjugates) {
  if (op == Op::none || op == Op::transpose) return;
  if (!conjugates) throw_bad_value(routine, name, op, "Op::none or Op::transpose");
  if (op != Op::conj_transpose) {
    throw_bad_value(routine, name, op, "Op::none, Op::transpose or Op::conj_transpose");
  }
}

void check_diag(const char* routine, Diag diag) {
  if (diag != Diag::non_unit && diag != Diag::unit) {
    throw_bad_value(routine, "diag", diag, "Diag::non_unit or Diag::unit");
  }
}

void check_square(const char* routine, const char* name, index_t rows, index_t cols) {
  if (rows != cols) {
    throw InvalidArgument(routine, name,
                          std::string(name) + " is " + shape(rows, cols) + ", not square");
  }
}

void check_same_shape(const char* routine, const char* name, index_t rows, index_t cols,
                      const char* other, index_t other_rows, index_t other_cols) {
  if (rows != other_rows || cols != other_cols) {
    throw InvalidArgument(routine, name,
                          std::string(name) + " is " + shape(rows, cols) + " but must be the " +
                              "shape of " + other + ", " + shape(other_rows, other_cols));
  }
}

void check_side_order(const char* routine, Side side, index_t a_rows, index_t a_cols,
                      const char* other, index_t rows, index_t cols) {
  check_square(routine, "A", a_rows, a_cols);
  const index_t needed = side == Side::left ? rows : cols;
  if (a_rows != needed) {
    throw InvalidArgument(routine, "A",
                          "A is " + shape(a_rows, a_cols) + " but " + other + " is " +
                              shape(rows, cols) +
                              ": with side = " + (side == Side::left ? "left" : "right") +
                              " A must be " + shape(needed, needed));
  }
}

void check_rows(const char* routine, const char* name, const char* what, index_t rows, index_t cols,
                const char* other, index_t other_rows, index_t other_cols, index_t needed) {
  if (rows != needed) {
    throw InvalidArgument(routine, name,
                          std::string(what) + " is " + shape(rows, cols) + " but " + other +
                              " is " + shape(other_rows, other_cols) + ": " + what + " must have " +
                              std::to_string(needed) + " rows");
  }
}

}  // namespace level3_detail

template <class T>
void check_gemm(Op op_a, Op op_b, const MatrixView<const T>& a, const MatrixView<const T>& b,
                const MatrixView<T>& c) {
  using namespace level3_detail;
  const char* r = "gemm";
  check_op(r, "op_a", op_a, is_complex_v<T>);
  check_op(r, "op_b", op_b, is_complex_v<T>);
  check_views(r, "A", a, "B", b, "C", c);
  const index_t m = op_a == Op::none ? a.rows : a.cols;
  const index_t k = op_a == Op::none ? a.cols : a.rows;
  const index_t b_rows = op_b == Op::none ? b.rows : b.cols;
  const index_t b_cols = op_b == Op::none ? b.cols : b.rows;
  if (b_rows != k) {
    fail_shape(r, "B",
               "op(B) is " + shape(b_rows, b_cols) + " but op(A) is " + shape(m, k) +
                   ": op(B) must have k = " + std::to_string(k) + " rows");
  }
  if (c.rows != m || c.cols != b_cols) {
    fail_shape(r, "C", "C is " + shape(c.rows, c.cols) + " but op(A)*op(B) is " + shape(m, b_cols));
  }
}

template <class T>
void check_potrf(Uplo uplo, const MatrixView<T>& a, const char* routine) {
  using namespace level3_detail;
  check_uplo(routine, uplo);
  check_view(routine, "A", a);
  check_square(routine, "A", a.rows, a.cols);
}

template <class T>
void check_potrs(Uplo uplo, const MatrixView<const T>& a, const MatrixView<T>& b,
                 const char* routine) {
  using namespace level3_detail;
  check_uplo(routine, uplo);
  check_views(routine, "A", a, "B", b);
  check_square(routine, "A", a.rows, a.cols);
  check_rows(routine, "B", "B", b.rows, b.cols, "A", a.rows, a.cols, a.rows);
}

namespace {

// check_lu_order(): the dimensions of an LU routine's A fit a pivot (an int), and ipiv is given
// where there is a pivot to hold.
void check_lu_order(const char* routine, index_t rows, index_t cols, const int* ipiv) {
  using level3_detail::fail_shape;
  constexpr index_t kMaxOrder = std::numeric_limits<int>::max();
  if (rows > kMaxOrder || cols > kMaxOrder) {
    fail_shape(routine, "A",
               "A is " + std::to_string(rows) + " x " + std::to_string(cols) +
                   ", larger than a pivot (an int) can number");
  }
  if (ipiv == nullptr && std::min(rows, cols) > 0) fail_shape(routine, "ipiv", "ipiv is null");
}

// check_pivots(): every pivot of an n x n factorization names one of its rows, so that applying
// them cannot reach outside the matrix.
void check_pivots(const char* routine, index_t n, const int* ipiv) {
  using level3_detail::fail_shape;
  for (index_t i = 0; i < n; ++i) {
    if (ipiv[i] < 1 || ipiv[i] > n) {
      fail_shape(routine, "ipiv",
                 "ipiv[" + std::to_string(i) + "] = " + std::to_string(ipiv[i]) +
                     " is not a row of A (1 .. " + std::to_string(n) + ")");
    }
  }
}

}  // namespace

template <class T>
void check_getrf(const MatrixView<T>& a, const int* ipiv, const char* routine) {
  using namespace level3_detail;
  check_view(routine, "A", a);
  check_lu_order(routine, a.rows, a.cols, ipiv);
}

template <class T>
void check_getrs(Op op, const MatrixView<const T>& lu, const int* ipiv, const MatrixView<T>& b,
                 const char* routine) {
  using namespace level3_detail;
  check_op(routine, "op", op, is_complex_v<T>);
  check_view(routine, "A", lu);
  check_view(routine, "B", b);
  check_square(routine, "A", lu.rows, lu.cols);
  check_rows(routine, "B", "B", b.rows, b.cols, "A", lu.rows, lu.cols, lu.rows);
  check_lu_order(routine, lu.rows, lu.cols, ipiv);
  check_pivots(routine, lu.rows, ipiv);
}

template <class T>
void check_getri(const MatrixView<T>& a, const int* ipiv, const char* routine) {
  using namespace level3_detail;
  check_view(routine, "A", a);
  check_square(routine, "A", a.rows, a.cols);
  check_lu_order(routine, a.rows, a.cols, ipiv);
  check_pivots(routine, a.rows, ipiv);
}

template void check_gemm<double>(Op, Op, const MatrixView<const double>&,
                                 const MatrixView<const double>&, const MatrixView<double>&);
template void check_gemm<float>(Op, Op, const MatrixView<const float>&,
                                const MatrixView<const float>&, const MatrixView<float>&);
template void check_gemm<std::complex<double>>(Op, Op,
                                               const MatrixView<const std::complex<double>>&,
                                               const MatrixView<const std::complex<double>>&,
                                               const MatrixView<std::complex<double>>&);
template void check_gemm<std::complex<float>>(Op, Op, const MatrixView<const std::complex<float>>&,
                                              const MatrixView<const std::complex<float>>&,
                                              const MatrixView<std::complex<float>>&);
template void check_potrf<double>(Uplo, const MatrixView<double>&, const char*);
template void check_potrf<float>(Uplo, const MatrixView<float>&, const char*);
template void check_potrs<double>(Uplo, const MatrixView<const double>&, const MatrixView<double>&,
                                  const char*);
template void check_potrs<float>(Uplo, const MatrixView<const float>&, const MatrixView<float>&,
                                 const char*);
template void check_potrf<std::complex<double>>(Uplo, const MatrixView<std::complex<double>>&,
                                                const char*);
template void check_potrf<std::complex<float>>(Uplo, const MatrixView<std::complex<float>>&,
                                               const char*);
template void check_potrs<std::complex<double>>(Uplo, const MatrixView<const std::complex<double>>&,
                                                const MatrixView<std::complex<double>>&,
                                                const char*);
template void check_potrs<std::complex<float>>(Uplo, const MatrixView<const std::complex<float>>&,
                                               const MatrixView<std::complex<float>>&, const char*);

// T is a type: it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TEAMLA_LU_CHECKS(T)                                                                      \
  template void check_getrf<T>(const MatrixView<T>&, const int*, const char*);                   \
  template void check_getrs<T>(Op, const MatrixView<const T>&, const int*, const MatrixView<T>&, \
                               const char*);                                                     \
  template void check_getri<T>(const MatrixView<T>&, const int*, const char*);
TEAMLA_LU_CHECKS(double)
TEAMLA_LU_CHECKS(float)
TEAMLA_LU_CHECKS(std::complex<double>)
TEAMLA_LU_CHECKS(std::complex<float>)
#undef TEAMLA_LU_CHECKS
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace teamla::linalg
