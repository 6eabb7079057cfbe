// SPDX-License-Identifier: Apache-2.0
// level2_fallback.cpp: the level-2 routines without scratch (Fallback, level2_internal.hpp).
//
// The drivers' kernels take contiguous vectors, so a strided, scaled or conjugated vector is
// copied into the thread's scratch first (and symv on a team adds a partial y per participant).
// When the system refuses that memory the call must still finish, right (docs/reliability.md).
// These loops are the reference BLAS's, on the caller's views: every element through the views'
// indexing (either layout, any stride, negative included), the complex products written out
// (times()), conj applied per element. They allocate nothing and run on the calling thread: a
// slower call, counted by note_shortfall(), never a failed one.
#include <complex>

#include "level2/level2_internal.hpp"
#include "teamla/team/shortfall.hpp"

namespace teamla::linalg::level2_detail {
namespace {

// ran_without_scratch(): what every fallback reports: one memory shortfall, one inline region.
void ran_without_scratch(Exec& exec, std::size_t refused_bytes) {
  team::note_shortfall(team::Shortfall::memory, refused_bytes);
  exec.stats.inline_regions = 1;
  exec.stats.max_width_used = 1;
}

template <class T>
T conj_if(T v, bool conj) {
  return conj ? conj_of(v) : v;
}

// scaled(): s * v as the drivers scale: s == 0 gives 0 whatever v holds (beta == 0: a NaN in y
// does not propagate), s == 1 gives v itself (the product would turn an Inf into a NaN).
template <class T>
T scaled(T s, T v) {
  if (s == T(0)) return T(0);
  return s == T(1) ? v : times(s, v);
}

// real_part(): v with its imaginary part 0 (hemv's diagonal, which is not read; her's result).
template <class T>
T real_part(T v) {
  if constexpr (is_complex_v<T>) {
    return T(v.real(), 0);
  } else {
    return v;
  }
}

// op_at(): element (i, j) of op(A).
template <class T>
T op_at(const MatrixView<const T>& a, Op op, index_t i, index_t j) {
  return op == Op::none ? a(i, j) : conj_if(a(j, i), op == Op::conj_transpose);
}

// sym_at(): element (i, j) of the symmetric (herm: Hermitian) matrix stored in a's `uplo`
// triangle; the other triangle is never read.
template <class T>
T sym_at(const MatrixView<const T>& a, Uplo uplo, bool herm, index_t i, index_t j) {
  if (i == j) return herm ? real_part(a(i, i)) : a(i, i);
  const bool stored = (uplo == Uplo::lower) == (i > j);
  return stored ? a(i, j) : conj_if(a(j, i), herm);
}

// Row i of a triangular op(A) off its diagonal: columns [j0, j1).
struct OffDiagonal {
  index_t j0, j1;
};
inline OffDiagonal off_diagonal(bool op_lower, index_t i, index_t n) {
  return op_lower ? OffDiagonal{0, i} : OffDiagonal{i + 1, n};
}

}  // namespace

template <class T>
void Fallback<T>::gemv(Op op, T alpha, MatrixView<const T> a, VectorView<const T> x, T beta,
                       VectorView<T> y, Exec& exec, std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  for (index_t i = 0; i < y.size; ++i) {
    T s(0);
    for (index_t j = 0; j < x.size; ++j) s += times(op_at(a, op, i, j), x[j]);
    y[i] = scaled(beta, y[i]) + scaled(alpha, s);
  }
}

template <class T>
void Fallback<T>::symv(bool herm, Uplo uplo, T alpha, MatrixView<const T> a, VectorView<const T> x,
                       T beta, VectorView<T> y, Exec& exec, std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  for (index_t i = 0; i < y.size; ++i) {
    T s(0);
    for (index_t j = 0; j < x.size; ++j) s += times(sym_at(a, uplo, herm, i, j), x[j]);
    y[i] = scaled(beta, y[i]) + scaled(alpha, s);
  }
}

template <class T>
void Fallback<T>::ger(bool conj_y, T alpha, VectorView<const T> x, VectorView<const T> y,
                      MatrixView<T> a, Exec& exec, std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  for (index_t j = 0; j < a.cols; ++j) {
    const T w = times(alpha, conj_if(y[j], conj_y));
    for (index_t i = 0; i < a.rows; ++i) a(i, j) += times(x[i], w);
  }
}

// The `uplo` triangle += alpha x conj?(y)^T + conj?(alpha) y conj?(x)^T (conj?: herm), or
// alpha x conj?(x)^T for rank 1; her and her2 leave the diagonal's imaginary parts 0.
template <class T>
void Fallback<T>::triangle_update(bool herm, Uplo uplo, T alpha, VectorView<const T> x,
                                  VectorView<const T> y, MatrixView<T> a, Exec& exec,
                                  std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  const bool rank2 = y.size != 0;
  const index_t n = a.rows;
  for (index_t j = 0; j < n; ++j) {
    const T w1 = times(alpha, conj_if(rank2 ? y[j] : x[j], herm));
    const T w2 = rank2 ? times(conj_if(alpha, herm), conj_if(x[j], herm)) : T(0);
    const index_t i0 = uplo == Uplo::lower ? j : 0;
    const index_t i1 = uplo == Uplo::lower ? n : j + 1;
    for (index_t i = i0; i < i1; ++i) {
      T v = times(x[i], w1);
      if (rank2) v += times(y[i], w2);
      a(i, j) += v;
    }
    if (herm) a(j, j) = real_part(a(j, j));
  }
}

// x = op(A) x in place, row by row of op(A) in the order that reads only entries not yet
// written: an upper op(A) top to bottom (row i reads x[i:n]), a lower one bottom to top.
template <class T>
void Fallback<T>::trmv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x,
                       Exec& exec, std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  const index_t n = x.size;
  const bool op_lower = (uplo == Uplo::lower) == (op == Op::none);
  for (index_t step = 0; step < n; ++step) {
    const index_t i = op_lower ? n - 1 - step : step;
    T s = diag == Diag::unit ? x[i] : times(op_at(a, op, i, i), x[i]);
    const OffDiagonal row = off_diagonal(op_lower, i, n);
    for (index_t j = row.j0; j < row.j1; ++j) s += times(op_at(a, op, i, j), x[j]);
    x[i] = s;
  }
}

// x = inv(op(A)) x in place, by substitution: row i needs the entries already solved, those
// before it for a lower op(A) (top to bottom), after it for an upper one (bottom to top).
template <class T>
void Fallback<T>::trsv(Uplo uplo, Op op, Diag diag, MatrixView<const T> a, VectorView<T> x,
                       Exec& exec, std::size_t refused_bytes) {
  ran_without_scratch(exec, refused_bytes);
  const index_t n = x.size;
  const bool op_lower = (uplo == Uplo::lower) == (op == Op::none);
  for (index_t step = 0; step < n; ++step) {
    const index_t i = op_lower ? step : n - 1 - step;
    T s = x[i];
    const OffDiagonal row = off_diagonal(op_lower, i, n);
    for (index_t j = row.j0; j < row.j1; ++j) s -= times(op_at(a, op, i, j), x[j]);
    x[i] = diag == Diag::unit ? s : s / op_at(a, op, i, i);
  }
}

template struct Fallback<float>;
template struct Fallback<double>;
template struct Fallback<std::complex<float>>;
template struct Fallback<std::complex<double>>;

}  // namespace teamla::linalg::level2_detail
