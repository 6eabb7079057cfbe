// SPDX-License-Identifier: Apache-2.0
// soak_blas3_checks.cpp: the checked gemm, trsm and syrk calls of the soak (soak_check.hpp).
#include <algorithm>
#include <cstdio>

#include "soak_check.hpp"

namespace soak {
namespace {

// Dense: a contiguous column-major double matrix, the reference's operand form.
struct Dense {
  int rows, cols;
  std::vector<double> v;
  Dense(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c, 0.0) {}
  double& operator()(int i, int j) { return v[i + static_cast<std::size_t>(j) * rows]; }
  double operator()(int i, int j) const { return v[i + static_cast<std::size_t>(j) * rows]; }
};

// op(): op(M) as a Dense matrix (the transpose copied, so the reference loops run unit-stride).
template <class T>
Dense op(const Mat<T>& m, char trans) {
  Dense d(trans == 'N' ? m.rows : m.cols, trans == 'N' ? m.cols : m.rows);
  for (int j = 0; j < m.cols; ++j) {
    for (int i = 0; i < m.rows; ++i) (trans == 'N' ? d(i, j) : d(j, i)) = m(i, j);
  }
  return d;
}

// Column j of P*Q and of |P|*|Q|, rows [lo, hi).
void product_column(const Dense& p, const Dense& q, int j, int lo, int hi, std::vector<double>& sum,
                    std::vector<double>& abs_sum) {
  std::fill(sum.begin(), sum.end(), 0.0);
  std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
  for (int l = 0; l < p.cols; ++l) {
    const double x = q(l, j);
    const double* col = &p.v[static_cast<std::size_t>(l) * p.rows];
    for (int i = lo; i < hi; ++i) {
      sum[i] += col[i] * x;
      abs_sum[i] += std::abs(col[i]) * std::abs(x);
    }
  }
}

// triangle(): op(A) of a trsm operand as a Dense matrix, with the unit diagonal and the zeros
// of the other triangle made explicit (the stored ones are NaN).
template <class T>
Dense triangle(const Mat<T>& a, const TrsmArgs& t) {
  Dense d(a.rows, a.cols);
  for (int j = 0; j < a.cols; ++j) {
    for (int i = 0; i < a.rows; ++i) {
      const bool stored = t.uplo == 'L' ? i > j : i < j;
      const double stored_value = a(i, j);
      d(i, j) = i == j ? (t.diag == 'U' ? 1.0 : stored_value) : (stored ? stored_value : 0.0);
    }
  }
  if (t.ta == 'N') return d;
  Dense tr(d.cols, d.rows);
  for (int j = 0; j < d.cols; ++j) {
    for (int i = 0; i < d.rows; ++i) tr(j, i) = d(i, j);
  }
  return tr;
}

// trsm_operand(): a well-conditioned triangle (diagonal +-[1, 2], off-diagonal within 2/n, so
// that even the unit-diagonal inverse stays small); NaN wherever the routine must not read.
template <class T>
Mat<T> trsm_operand(const TrsmArgs& t, Rng& rng) {
  const int na = t.side == 'L' ? t.m : t.n;
  Mat<T> a(na, na, t.pad_a, kNaN<T>);
  const double off = 2.0 / std::max(na, 1);
  for (int j = 0; j < na; ++j) {
    for (int i = 0; i < na; ++i) {
      const bool stored = t.uplo == 'L' ? i > j : i < j;
      double value = stored ? uniform(rng, -off, off) : std::nan("");
      if (i == j) value = t.diag == 'U' ? std::nan("") : uniform(rng, 1, 2) * (rng() & 1 ? 1 : -1);
      a(i, j) = static_cast<T>(value);
    }
  }
  return a;
}

template <class T>
std::string describe(const GemmArgs& g, const char* be) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%s %cgemm ta=%c tb=%c m=%d n=%d k=%d alpha=%g beta=%g lda+%d ldb+%d ldc+%d", be,
                prefix<T>(), g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.beta, g.pad_a, g.pad_b, g.pad_c);
  return text;
}

template <class T>
std::string describe(const TrsmArgs& t, const char* be) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%s %ctrsm side=%c uplo=%c ta=%c diag=%c m=%d n=%d alpha=%g lda+%d ldb+%d", be,
                prefix<T>(), t.side, t.uplo, t.ta, t.diag, t.m, t.n, t.alpha, t.pad_a, t.pad_b);
  return text;
}

template <class T>
std::string describe(const SyrkArgs& s, const char* be) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%s %csyrk uplo=%c trans=%c n=%d k=%d alpha=%g beta=%g lda+%d ldc+%d", be,
                prefix<T>(), s.uplo, s.trans, s.n, s.k, s.alpha, s.beta, s.pad_a, s.pad_c);
  return text;
}

}  // namespace

template <class T>
void check_gemm(Backend& be, bool abi, const GemmArgs& g, Rng& rng, Tracker& tracker) {
  const bool na = g.ta == 'N', nb = g.tb == 'N';
  // A and B are never read when alpha == 0, C never when beta == 0: NaN there.
  Mat<T> a(na ? g.m : g.k, na ? g.k : g.m, g.pad_a, kNaN<T>);
  Mat<T> b(nb ? g.k : g.n, nb ? g.n : g.k, g.pad_b, kNaN<T>);
  Mat<T> c(g.m, g.n, g.pad_c, kSentinel<T>);
  if (g.alpha != 0) {
    a.fill(rng, -1, 1);
    b.fill(rng, -1, 1);
  }
  c.fill(rng, -1, 1);
  if (g.beta == 0) c.set(kNaN<T>);
  const Mat<T> a0 = a, b0 = b, c0 = c;
  const std::string args = describe<T>(g, be.name());
  const int row = row_of(Routine::gemm, sizeof(T) == 4, abi);
  if (!timed(tracker, row, args, [&] {
        be.gemm(g.ta, g.tb, g.m, g.n, g.k, static_cast<T>(g.alpha), a.data.data(), a.ld,
                b.data.data(), b.ld, static_cast<T>(g.beta), c.data.data(), c.ld);
      })) {
    return;
  }
  Verdict v;
  if (!a.same(a0) || !b.same(b0)) v.exact(1, 0, -1, -1, "input A or B changed");
  check_padding(c0, c, v);
  const Dense pa = g.alpha != 0 ? op(a, g.ta) : Dense(g.m, 0);
  const Dense pb = g.alpha != 0 ? op(b, g.tb) : Dense(0, g.n);
  std::vector<double> sum(g.m), abs_sum(g.m);
  for (int j = 0; j < g.n; ++j) {
    product_column(pa, pb, j, 0, g.m, sum, abs_sum);
    for (int i = 0; i < g.m; ++i) {
      const double old = g.beta != 0 ? g.beta * double(c0(i, j)) : 0.0;
      const double scale = std::abs(g.alpha) * abs_sum[i] + std::abs(old);
      v.value(c(i, j), g.alpha * sum[i] + old, 4 * eps<T>() * (g.k + 2) * scale, i, j);
    }
  }
  report(tracker, row, args, v);
  tracker.progress();
}

template <class T>
void check_trsm(Backend& be, bool abi, const TrsmArgs& t, Rng& rng, Tracker& tracker) {
  Mat<T> a = trsm_operand<T>(t, rng);
  Mat<T> b(t.m, t.n, t.pad_b, kSentinel<T>);
  b.fill(rng, -1, 1);
  if (t.alpha == 0) b.set(kNaN<T>);  // zeroed without being read
  const Mat<T> a0 = a, b0 = b;
  const std::string args = describe<T>(t, be.name());
  const int row = row_of(Routine::trsm, sizeof(T) == 4, abi);
  if (!timed(tracker, row, args, [&] {
        be.trsm(t.side, t.uplo, t.ta, t.diag, t.m, t.n, static_cast<T>(t.alpha), a.data.data(),
                a.ld, b.data.data(), b.ld);
      })) {
    return;
  }
  Verdict v;
  if (!a.same(a0)) v.exact(1, 0, -1, -1, "input A changed");
  check_padding(b0, b, v);
  // The residual op(A) X - alpha B0 (left) or X op(A) - alpha B0 (right), componentwise.
  const Dense ta = triangle(a, t);
  const Dense x = op(b, 'N');
  const bool left = t.side == 'L';
  const int depth = left ? t.m : t.n;
  std::vector<double> sum(t.m), abs_sum(t.m);
  for (int j = 0; j < t.n; ++j) {
    if (left) {
      product_column(ta, x, j, 0, t.m, sum, abs_sum);
    } else {
      product_column(x, ta, j, 0, t.m, sum, abs_sum);
    }
    for (int i = 0; i < t.m; ++i) {
      const double rhs = t.alpha != 0 ? t.alpha * double(b0(i, j)) : 0.0;
      const double scale = abs_sum[i] + std::abs(rhs);
      v.value(sum[i], rhs, 8 * eps<T>() * (depth + 2) * scale, i, j);
    }
  }
  report(tracker, row, args, v);
  tracker.progress();
}

template <class T>
void check_syrk(Backend& be, bool abi, const SyrkArgs& s, Rng& rng, Tracker& tracker) {
  const bool nt = s.trans == 'N';
  Mat<T> a(nt ? s.n : s.k, nt ? s.k : s.n, s.pad_a, kNaN<T>);
  Mat<T> c(s.n, s.n, s.pad_c, kSentinel<T>);
  if (s.alpha != 0) a.fill(rng, -1, 1);
  const bool lower = s.uplo == 'L';
  for (int j = 0; j < s.n; ++j) {
    for (int i = lower ? j : 0; i < (lower ? s.n : j + 1); ++i) {
      c(i, j) = s.beta == 0 ? kNaN<T> : static_cast<T>(uniform(rng, -1, 1));
    }
  }
  const Mat<T> a0 = a, c0 = c;
  const std::string args = describe<T>(s, be.name());
  const int row = row_of(Routine::syrk, sizeof(T) == 4, abi);
  if (!timed(tracker, row, args, [&] {
        be.syrk(s.uplo, s.trans, s.n, s.k, static_cast<T>(s.alpha), a.data.data(), a.ld,
                static_cast<T>(s.beta), c.data.data(), c.ld);
      })) {
    return;
  }
  Verdict v;
  if (!a.same(a0)) v.exact(1, 0, -1, -1, "input A changed");
  const Dense p = s.alpha != 0 ? op(a, s.trans) : Dense(s.n, 0);
  Dense pt(p.cols, p.rows);  // op(A)^T, so that column j of P*P^T is product_column's
  for (int j = 0; j < p.cols; ++j) {
    for (int i = 0; i < p.rows; ++i) pt(j, i) = p(i, j);
  }
  std::vector<double> sum(s.n), abs_sum(s.n);
  for (int j = 0; j < s.n; ++j) {
    const int lo = lower ? j : 0, hi = lower ? s.n : j + 1;
    product_column(p, pt, j, lo, hi, sum, abs_sum);
    for (int i = 0; i < c.ld; ++i) {
      if (i < lo || i >= hi) {
        v.exact(c(i, j), c0(i, j), i, j, i < s.n ? "other triangle" : "padding");
        continue;
      }
      const double old = s.beta != 0 ? s.beta * double(c0(i, j)) : 0.0;
      const double scale = std::abs(s.alpha) * abs_sum[i] + std::abs(old);
      v.value(c(i, j), s.alpha * sum[i] + old, 4 * eps<T>() * (s.k + 2) * scale, i, j);
    }
  }
  report(tracker, row, args, v);
  tracker.progress();
}

template void check_gemm<double>(Backend&, bool, const GemmArgs&, Rng&, Tracker&);
template void check_gemm<float>(Backend&, bool, const GemmArgs&, Rng&, Tracker&);
template void check_trsm<double>(Backend&, bool, const TrsmArgs&, Rng&, Tracker&);
template void check_trsm<float>(Backend&, bool, const TrsmArgs&, Rng&, Tracker&);
template void check_syrk<double>(Backend&, bool, const SyrkArgs&, Rng&, Tracker&);
template void check_syrk<float>(Backend&, bool, const SyrkArgs&, Rng&, Tracker&);

}  // namespace soak
