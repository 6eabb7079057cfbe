// SPDX-License-Identifier: Apache-2.0
// level2_internal.hpp (internal): what the level-2 drivers (blas2.hpp) share: their argument
// checks, the thread's scratch for contiguous copies of the vectors, and those copies.
//
// The kernels (kernels/level2_kernels.hpp) take contiguous vectors only. A strided x, or one
// that must be scaled or conjugated, is copied first; a strided y is computed in a contiguous
// copy and written back. Each copy is O(n) beside the O(n^2) pass over A.
#pragma once

#include <cstddef>

#include "level3/level3_internal.hpp"
#include "teamla/linalg/blas2.hpp"

namespace teamla::linalg::level2_detail {

// ---- argument checks (level2_checks.cpp; each throws InvalidArgument) ---------------------
// check_vector(): size >= 0, inc != 0, data given when size > 0.
void check_vector(const char* routine, const char* name, index_t size, index_t inc,
                  const void* data);
template <class T>
void check_vector(const char* routine, const char* name, const VectorView<T>& v) {
  check_vector(routine, name, v.size, v.inc, v.data);
}
// check_length(): the vector `name` has `needed` elements, as `what` ("the columns of op(A)").
void check_length(const char* routine, const char* name, index_t size, index_t needed,
                  const char* what);
// check_triangle(): A is a square view read through its `uplo` triangle (symv, hemv, syr, her,
// syr2, her2); returns its order.
template <class T>
index_t check_triangle(const char* routine, Uplo uplo, const MatrixView<T>& a) {
  level3_detail::check_uplo(routine, uplo);
  level3_detail::check_view(routine, "A", a);
  level3_detail::check_square(routine, "A", a.rows, a.cols);
  return a.rows;
}
// check_order_vector(): the vector `name` is legal and has A's order n.
template <class T>
void check_order_vector(const char* routine, const char* name, const VectorView<T>& v, index_t n) {
  check_vector(routine, name, v);
  check_length(routine, name, v.size, n, "the order of A");
}

// ---- scratch (level2_scratch.cpp) ----------------------------------------------------------
// scratch_bytes(): the calling thread's buffer of at least `bytes`, 64-byte aligned; it only
// grows, and its contents are not kept across a call that grows it. One call of a driver takes
// all it needs at once (a later call may move it), and may share it with the members of its
// sections, which run while the call waits. Never throws: nullptr when the system refused the
// memory to grow it (the old buffer is kept), and the driver then runs its Fallback.
std::byte* scratch_bytes(std::size_t bytes) noexcept;

// padded(): `count` elements of T rounded up to whole 64-byte lines, so that pieces carved from
// one scratch buffer stay aligned and share no line.
template <class T>
constexpr std::size_t padded(index_t count) {
  constexpr std::size_t per_line = 64 / sizeof(T);
  return (static_cast<std::size_t>(count) + per_line - 1) / per_line * per_line;
}

template <class T>
T* scratch(std::size_t count) noexcept {
  return reinterpret_cast<T*>(scratch_bytes(count * sizeof(T)));
}

// refused(): whether scratch<T>(count) came back without its memory (a count of 0 needs none:
// its pointer, null before the thread's first buffer, is never used).
template <class T>
bool refused(const T* buffer, std::size_t count) {
  return buffer == nullptr && count != 0;
}

// ---- without scratch (level2_fallback.cpp) -------------------------------------------------
// Fallback<T>: each routine as the reference BLAS's loops on the caller's views themselves,
// for a call whose scratch was refused (docs/reliability.md: a call never fails for lack of
// memory). They take no memory and run inline (width 1, whatever the team); each notes one
// memory shortfall of `refused_bytes` and sets exec.stats. The arguments are the driver's,
// already checked, and past its early returns (nothing empty, alpha != 0). A class so that
// one explicit instantiation per scalar type covers every routine.
template <class T>
struct Fallback {
  static void gemv(Op op, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta,
                   VectorView<T> y, Exec& exec, std::size_t refused_bytes);
  // symv (herm: hemv).
  static void symv(bool herm, Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x,
                   T beta, VectorView<T> y, Exec& exec, std::size_t refused_bytes);
  // ger (conj_y: gerc).
  static void ger(bool conj_y, T alpha, VectorView<const T> x, VectorView<const T> y,
                  MatrixView<T> a, Exec& exec, std::size_t refused_bytes);
  // syr2 (herm: her2); syr (her) where y is empty (the driver returned for n == 0).
  static void triangle_update(bool herm, Uplo uplo, T alpha, VectorView<const T> x,
                              VectorView<const T> y, MatrixView<T> a, Exec& exec,
                              std::size_t refused_bytes);
  static void trmv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec,
                   std::size_t refused_bytes);
  static void trsv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x, Exec& exec,
                   std::size_t refused_bytes);
};

// ---- scalar and vector helpers -------------------------------------------------------------
// times(): a * b, the complex product written out (std::complex's operator* calls __muldc3).
template <class T>
T times(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}

template <class T>
T conj_of(T a) {
  if constexpr (is_complex_v<T>) {
    return T(a.real(), -a.imag());
  } else {
    return a;
  }
}

// needs_copy(): whether x must be copied to be read as alpha * conj?(x) contiguously.
template <class T>
bool needs_copy(const VectorView<const T>& x, T alpha, bool conj) {
  return x.inc != 1 || alpha != T(1) || (is_complex_v<T> && conj);
}

// gather(): dst[i] = alpha * conj?(x[i]) (alpha == 1 not multiplied), or x.data itself where
// no copy is needed (dst unused).
template <class T>
const T* gather(const VectorView<const T>& x, T alpha, bool conj, T* dst) {
  if (!needs_copy(x, alpha, conj)) return x.data;
  for (index_t i = 0; i < x.size; ++i) dst[i] = conj ? conj_of(x[i]) : x[i];
  if (alpha != T(1)) {
    for (index_t i = 0; i < x.size; ++i) dst[i] = times(alpha, dst[i]);
  }
  return dst;
}

// scaled_output(): y = beta * y made contiguous: in place when y is, else into dst; beta == 0
// writes zeros without reading y (a NaN there does not propagate). Returns where the kernels
// accumulate; write_back() copies dst to a strided y afterwards.
template <class T>
T* scaled_output(const VectorView<T>& y, T beta, T* dst) {
  T* out = y.inc == 1 ? y.data : dst;
  if (beta == T(0)) {
    for (index_t i = 0; i < y.size; ++i) out[i] = T(0);
  } else if (beta != T(1)) {
    for (index_t i = 0; i < y.size; ++i) out[i] = times(beta, y[i]);
  } else if (out != y.data) {  // beta == 1 copies: the product would turn an Inf into a NaN
    for (index_t i = 0; i < y.size; ++i) out[i] = y[i];
  }
  return out;
}
template <class T>
void write_back(const T* out, const VectorView<T>& y) {
  if (out == y.data) return;
  for (index_t i = 0; i < y.size; ++i) y[i] = out[i];
}

// scale_only(): y = beta * y, for a call whose product term is zero (alpha == 0 or an empty A).
template <class T>
void scale_only(const VectorView<T>& y, T beta) {
  if (beta == T(1)) return;
  for (index_t i = 0; i < y.size; ++i) y[i] = beta == T(0) ? T(0) : times(beta, y[i]);
}

// even_edge(): where slice u of `count` starts over n entries, on multiples of `align`.
inline index_t even_edge(index_t n, std::size_t u, std::size_t count, index_t align) {
  if (u >= count) return n;
  const index_t at = n * static_cast<index_t>(u) / static_cast<index_t>(count);
  const index_t rounded = (at + align - 1) / align * align;
  return rounded < n ? rounded : n;
}

// triangle_edge(): where slice u of `count` starts over the n columns of a triangle, each
// slice an equal share of its area: columns that shrink (a lower triangle's, n - j elements) or
// grow (an upper triangle's, j + 1).
index_t triangle_edge(index_t n, std::size_t u, std::size_t count, bool shrinking);

}  // namespace teamla::linalg::level2_detail
