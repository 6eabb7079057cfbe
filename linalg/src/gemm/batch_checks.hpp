// SPDX-License-Identifier: Apache-2.0
// batch_checks.hpp (internal): a batch item's checks (those of gemm() and the engine's
// validate_gemm()) as one cheap test, and the message, built only when it fails.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/errors.hpp"

namespace teamla::linalg::batch {

inline bool view_ok(index_t rows, index_t cols, index_t ld, Layout layout, const void* data) {
  if (rows < 0 || cols < 0) return false;
  if (layout != Layout::col_major && layout != Layout::row_major) return false;
  const index_t inner = layout == Layout::col_major ? rows : cols;
  if (ld < std::max<index_t>(1, inner)) return false;
  return data != nullptr || rows == 0 || cols == 0;
}

// op_ok(): Op::conj_transpose only for a complex T, as gemm() takes it.
template <class T>
bool op_ok(Op op) {
  return op == Op::none || op == Op::transpose || (is_complex_v<T> && op == Op::conj_transpose);
}

template <class T>
index_t op_rows(Op op, const MatrixView<const T>& v) {
  return op == Op::none ? v.rows : v.cols;
}
template <class T>
index_t op_cols(Op op, const MatrixView<const T>& v) {
  return op == Op::none ? v.cols : v.rows;
}

// item_ok(): the checks of gemm() and the engine's validate_gemm(), as one cheap test; the
// message is built by item_error() only when it fails.
template <class T>
bool item_ok(const GemmItem<T>& it) {
  const auto& a = it.a;
  const auto& b = it.b;
  const auto& c = it.c;
  return op_ok<T>(it.op_a) && op_ok<T>(it.op_b) &&
         view_ok(a.rows, a.cols, a.ld, a.layout, a.data) &&
         view_ok(b.rows, b.cols, b.ld, b.layout, b.data) &&
         view_ok(c.rows, c.cols, c.ld, c.layout, c.data) && op_rows(it.op_a, a) == c.rows &&
         op_rows(it.op_b, b) == op_cols(it.op_a, a) && op_cols(it.op_b, b) == c.cols;
}

inline std::string shape(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

template <class T>
std::string view_problem(const char* name, const MatrixView<const T>& v) {
  const std::string n(name);
  if (!view_ok(v.rows, v.cols, v.ld, v.layout, v.data)) {
    return n + " (" + shape(v.rows, v.cols) + ", ld " + std::to_string(v.ld) +
           ") has a negative shape, an invalid layout, an ld below its " +
           (v.layout == Layout::row_major ? "columns" : "rows") + ", or null data";
  }
  return {};
}

// item_error(): throws InvalidArgument for the failing item `it`, named `item` ("items[3]").
template <class T>
[[noreturn, gnu::noinline]] void item_error(const char* routine, const std::string& item,
                                            const GemmItem<T>& it) {
  std::string why;
  if (!op_ok<T>(it.op_a) || !op_ok<T>(it.op_b)) {
    why = is_complex_v<T> ? "op_a or op_b is not Op::none, Op::transpose or Op::conj_transpose"
                          : "op_a or op_b is not Op::none or Op::transpose";
  } else if (std::string p = view_problem("A", it.a); !p.empty()) {
    why = p;
  } else if (std::string p2 = view_problem("B", it.b); !p2.empty()) {
    why = p2;
  } else if (std::string p3 = view_problem("C", MatrixView<const T>(it.c)); !p3.empty()) {
    why = p3;
  } else {
    why = "op(A) is " + shape(op_rows(it.op_a, it.a), op_cols(it.op_a, it.a)) + ", op(B) " +
          shape(op_rows(it.op_b, it.b), op_cols(it.op_b, it.b)) + " and C " +
          shape(it.c.rows, it.c.cols) + ": they do not chain";
  }
  throw InvalidArgument(routine, item, item + ": " + why);
}

}  // namespace teamla::linalg::batch
