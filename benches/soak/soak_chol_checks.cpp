// SPDX-License-Identifier: Apache-2.0
// soak_chol_checks.cpp: the checked potrf and potrs calls of the soak (soak_check.hpp).
#include <algorithm>
#include <cstdio>

#include "soak_check.hpp"

namespace soak {
namespace {

// Spd: a symmetric positive definite operand (diagonally dominant: off-diagonal in [-1, 1],
// diagonal n + [1, 2]), its `uplo` triangle stored in `a` (the other triangle NaN: never
// read), and the full matrix of the stored values in double, column-major in g.
template <class T>
struct Spd {
  Mat<T> a;
  std::vector<double> g;
  int n;
  double at(int i, int j) const { return g[i + static_cast<std::size_t>(j) * n]; }
};

bool stored(char uplo, int i, int j) { return uplo == 'L' ? i >= j : i <= j; }

template <class T>
Spd<T> spd_operand(const CholArgs& c, Rng& rng) {
  Spd<T> s{Mat<T>(c.n, c.n, c.pad_a, kSentinel<T>), std::vector<double>(std::size_t(c.n) * c.n),
           c.n};
  for (int j = 0; j < c.n; ++j) {
    for (int i = j; i < c.n; ++i) {
      double value = i == j ? c.n + uniform(rng, 1, 2) : uniform(rng, -1, 1);
      if (i == j && i == c.bad_column) value = -1;  // the first non-positive pivot
      const T rounded = static_cast<T>(value);
      s.g[i + std::size_t(j) * c.n] = s.g[j + std::size_t(i) * c.n] = rounded;
      s.a(i, j) = c.uplo == 'L' ? rounded : kNaN<T>;
      s.a(j, i) = c.uplo == 'L' ? (i == j ? rounded : kNaN<T>) : rounded;
    }
  }
  return s;
}

// The unwritten triangle and the padding of `after` are those of `before`.
template <class T>
void check_untouched(const Mat<T>& before, const Mat<T>& after, char uplo, Verdict& v) {
  check_padding(before, after, v);
  for (int j = 0; j < before.cols; ++j) {
    for (int i = 0; i < before.rows; ++i) {
      if (!stored(uplo, i, j)) v.exact(after(i, j), before(i, j), i, j, "other triangle");
    }
  }
}

// factor_residual(): L L^T against A on the lower triangle (U^T U read as L = U^T),
// componentwise against |L| |L^T|, the backward error bound of Cholesky.
template <class T>
void factor_residual(const Spd<T>& s, const Mat<T>& f, char uplo, Verdict& v) {
  const int n = s.n;
  std::vector<double> l(std::size_t(n) * n, 0.0);  // column-major lower factor
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) l[i + std::size_t(j) * n] = uplo == 'L' ? f(i, j) : f(j, i);
  }
  std::vector<double> sum(n), abs_sum(n);
  for (int j = 0; j < n; ++j) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
    for (int p = 0; p <= j; ++p) {
      const double ljp = l[j + std::size_t(p) * n];
      const double* col = &l[std::size_t(p) * n];
      for (int i = j; i < n; ++i) {
        sum[i] += col[i] * ljp;
        abs_sum[i] += std::abs(col[i]) * std::abs(ljp);
      }
    }
    for (int i = j; i < n; ++i) {
      v.value(sum[i], s.at(i, j), 4 * eps<T>() * (n + 2) * abs_sum[i], i, j);
    }
  }
}

template <class T>
std::string describe(const CholArgs& c, const char* be, const char* routine) {
  char text[200];
  std::snprintf(text, sizeof text, "%s %c%s uplo=%c n=%d nrhs=%d lda+%d ldb+%d bad_column=%d", be,
                prefix<T>(), routine, c.uplo, c.n, c.nrhs, c.pad_a, c.pad_b, c.bad_column);
  return text;
}

// factor(): the potrf of a potrs check, as a counted call of its own; true when it worked.
template <class T>
bool factor(Backend& be, bool abi, const CholArgs& c, Mat<T>& a, Tracker& tracker) {
  const std::string args = describe<T>(c, be.name(), "potrf");
  const int row = row_of(Routine::potrf, sizeof(T) == 4, abi);
  int info = -1;
  if (!timed(tracker, row, args, [&] { info = be.potrf(c.uplo, c.n, a.data.data(), a.ld); })) {
    return false;
  }
  Verdict v;
  if (info != 0) v.exact(info, 0, -1, -1, "info");
  report(tracker, row, args, v);
  return info == 0;
}

}  // namespace

template <class T>
void check_potrf(Backend& be, bool abi, const CholArgs& c, Rng& rng, Tracker& tracker) {
  Spd<T> s = spd_operand<T>(c, rng);
  const Mat<T> a0 = s.a;
  const std::string args = describe<T>(c, be.name(), "potrf");
  const int row = row_of(Routine::potrf, sizeof(T) == 4, abi);
  int info = -1;
  if (!timed(tracker, row, args, [&] { info = be.potrf(c.uplo, c.n, s.a.data.data(), s.a.ld); })) {
    return;
  }
  Verdict v;
  const int expected = c.bad_column < 0 ? 0 : c.bad_column + 1;
  if (info != expected) v.exact(info, expected, -1, -1, "info");
  check_untouched(a0, s.a, c.uplo, v);
  if (expected == 0 && info == 0) factor_residual(s, s.a, c.uplo, v);
  report(tracker, row, args, v);
  tracker.progress();
}

template <class T>
void check_potrs(Backend& be, bool abi, const CholArgs& c, Rng& rng, Tracker& tracker) {
  Spd<T> s = spd_operand<T>(c, rng);
  if (!factor(be, abi, c, s.a, tracker)) return;
  const Mat<T> factored = s.a;
  Mat<T> b(c.n, c.nrhs, c.pad_b, kSentinel<T>);
  b.fill(rng, -1, 1);
  const Mat<T> b0 = b;
  const std::string args = describe<T>(c, be.name(), "potrs");
  const int row = row_of(Routine::potrs, sizeof(T) == 4, abi);
  int info = -1;
  if (!timed(tracker, row, args, [&] {
        info = be.potrs(c.uplo, c.n, c.nrhs, s.a.data.data(), s.a.ld, b.data.data(), b.ld);
      })) {
    return;
  }
  Verdict v;
  if (info != 0) v.exact(info, 0, -1, -1, "info");
  if (!s.a.same(factored)) v.exact(1, 0, -1, -1, "input factor changed");
  check_padding(b0, b, v);
  // The residual A X - B, componentwise against |A| |X| + |B|; the slack covers the factor's
  // own error (|L| |L^T| exceeds |A| by a small factor for these operands).
  std::vector<double> sum(c.n), abs_sum(c.n);
  for (int j = 0; j < c.nrhs; ++j) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
    for (int p = 0; p < c.n; ++p) {
      const double x = b(p, j);
      for (int i = 0; i < c.n; ++i) {
        sum[i] += s.at(i, p) * x;
        abs_sum[i] += std::abs(s.at(i, p)) * std::abs(x);
      }
    }
    for (int i = 0; i < c.n; ++i) {
      const double want = b0(i, j);
      v.value(sum[i], want, 16 * eps<T>() * (c.n + 2) * (abs_sum[i] + std::abs(want)), i, j);
    }
  }
  report(tracker, row, args, v);
  tracker.progress();
}

template void check_potrf<double>(Backend&, bool, const CholArgs&, Rng&, Tracker&);
template void check_potrf<float>(Backend&, bool, const CholArgs&, Rng&, Tracker&);
template void check_potrs<double>(Backend&, bool, const CholArgs&, Rng&, Tracker&);
template void check_potrs<float>(Backend&, bool, const CholArgs&, Rng&, Tracker&);

}  // namespace soak
