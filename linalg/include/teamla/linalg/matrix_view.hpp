// SPDX-License-Identifier: Apache-2.0
// matrix_view.hpp: non-owning views of dense matrices, and the BLAS enums.
//
// A MatrixView is a pointer, a shape and a leading dimension, in column-major or row-major
// storage. Element (i, j) is data[i + j*ld] (column-major) or data[i*ld + j] (row-major).
// Views never own or allocate; Eigen's Ref/Map convert to them without copying
// (teamla/engine/eigen.hpp).
#pragma once

#include <complex>
#include <cstddef>
#include <type_traits>

namespace teamla::linalg {

using index_t = std::ptrdiff_t;

enum class Layout : unsigned char { col_major, row_major };
// Op::conj_transpose (A^H) is for complex operands; the real routines take none or transpose.
enum class Op : unsigned char { none, transpose, conj_transpose };
enum class Uplo : unsigned char { lower, upper };
enum class Side : unsigned char { left, right };
enum class Diag : unsigned char { non_unit, unit };

// is_complex_v: std::complex<double> and std::complex<float>, the complex scalar types.
template <class T>
inline constexpr bool is_complex_v = false;
template <class R>
inline constexpr bool is_complex_v<std::complex<R>> = true;

template <class T>
struct MatrixView {
  T* data = nullptr;
  index_t rows = 0;
  index_t cols = 0;
  index_t ld = 0;
  Layout layout = Layout::col_major;

  // Strides of the row index and of the column index.
  [[nodiscard]] index_t row_stride() const { return layout == Layout::col_major ? 1 : ld; }
  [[nodiscard]] index_t col_stride() const { return layout == Layout::col_major ? ld : 1; }
  [[nodiscard]] T& operator()(index_t i, index_t j) const {
    return data[i * row_stride() + j * col_stride()];
  }
  // block() is the sub-view of r x c elements starting at (i, j).
  [[nodiscard]] MatrixView block(index_t i, index_t j, index_t r, index_t c) const {
    return {data + i * row_stride() + j * col_stride(), r, c, ld, layout};
  }
  // transposed() is the same storage seen as its transpose (no copy).
  [[nodiscard]] MatrixView transposed() const {
    return {data, cols, rows, ld,
            layout == Layout::col_major ? Layout::row_major : Layout::col_major};
  }
  // A view of T converts to a view of const T.
  operator MatrixView<const T>() const  // NOLINT(google-explicit-constructor)
      requires(!std::is_const_v<T>) {
    return {data, rows, cols, ld, layout};
  }
};

// col_major()/row_major() build views; ld defaults to the tightest legal value.
template <class T>
MatrixView<T> col_major(T* data, index_t rows, index_t cols, index_t ld = 0) {
  return {data, rows, cols, ld != 0 ? ld : (rows > 0 ? rows : 1), Layout::col_major};
}
template <class T>
MatrixView<T> row_major(T* data, index_t rows, index_t cols, index_t ld = 0) {
  return {data, rows, cols, ld != 0 ? ld : (cols > 0 ? cols : 1), Layout::row_major};
}

}  // namespace teamla::linalg
