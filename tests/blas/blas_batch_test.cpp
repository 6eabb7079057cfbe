// SPDX-License-Identifier: Apache-2.0
// Contract covered: cblas_[ds]gemm_batch (groups) and cblas_[ds]gemm_batch_strided, through
// libteamla_blas.so, equal the loop of cblas_[ds]gemm calls on the same matrices in both
// layouts (transposes, padded leading dimensions, empty groups and dimensions, alpha == 0
// with null A and B, NaN in C with beta == 0, more groups than one engine batch takes); an
// illegal argument in any group reaches the program's cblas_xerbla at its position in the
// call, and nothing is written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas/blas_abi.hpp"

namespace {
struct Report {
  int calls = 0;
  std::string name;
  int info = 0;
};
Report g_report;  // NOLINT: written by the handler below, single-threaded test
}  // namespace

extern "C" void cblas_xerbla(int info, const char* routine, const char* /*form*/, ...) {
  ++g_report.calls;
  g_report.name = routine;
  g_report.info = info;
}

namespace {

using namespace teamla::blas_test;

struct GroupSpec {
  int ta, tb, m, n, k;
  double alpha, beta;
  int pad, size;
};

// GroupCall: the arrays of one cblas_?gemm_batch call and the matrices they point to.
template <class T>
struct GroupCall {
  int layout = kColMajor;
  std::vector<int> ta, tb, m, n, k, lda, ldb, ldc, size;
  std::vector<T> alpha, beta;
  std::vector<std::vector<T>> a, b, c;
  std::vector<const T*> ap, bp;
  std::vector<T*> cp;
};

// stored(): a matrix of rows x cols as the layout stores it: its ld and its element count.
std::pair<int, std::size_t> stored(int layout, int rows, int cols, int pad) {
  const int ld = std::max(1, (layout == kColMajor ? rows : cols) + pad);
  const int outer = layout == kColMajor ? cols : rows;
  return {ld, static_cast<std::size_t>(std::max(1, ld * outer))};
}

template <class T>
GroupCall<T> build(int layout, const std::vector<GroupSpec>& specs, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  GroupCall<T> call;
  call.layout = layout;
  const auto matrix = [&](std::vector<std::vector<T>>& into, int rows, int cols, int pad) {
    into.emplace_back(stored(layout, rows, cols, pad).second);
    for (T& v : into.back()) v = static_cast<T>(entry(rng));
  };
  for (const GroupSpec& g : specs) {
    const bool ta = g.ta != kNoTrans, tb = g.tb != kNoTrans;
    const int a_rows = ta ? g.k : g.m, a_cols = ta ? g.m : g.k;
    const int b_rows = tb ? g.n : g.k, b_cols = tb ? g.k : g.n;
    for (int i = 0; i < g.size; ++i) {
      matrix(call.a, a_rows, a_cols, g.pad);
      matrix(call.b, b_rows, b_cols, g.pad);
      matrix(call.c, g.m, g.n, g.pad);
      if (g.beta == 0) {
        std::fill(call.c.back().begin(), call.c.back().end(), std::numeric_limits<T>::quiet_NaN());
      }
      // alpha == 0 leaves A and B unreferenced: they may be null.
      call.ap.push_back(g.alpha == 0 ? nullptr : call.a.back().data());
      call.bp.push_back(g.alpha == 0 ? nullptr : call.b.back().data());
      call.cp.push_back(call.c.back().data());
    }
    call.ta.push_back(g.ta);
    call.tb.push_back(g.tb);
    call.m.push_back(g.m);
    call.n.push_back(g.n);
    call.k.push_back(g.k);
    call.alpha.push_back(static_cast<T>(g.alpha));
    call.beta.push_back(static_cast<T>(g.beta));
    call.size.push_back(g.size);
    call.lda.push_back(stored(layout, a_rows, a_cols, g.pad).first);
    call.ldb.push_back(stored(layout, b_rows, b_cols, g.pad).first);
    call.ldc.push_back(stored(layout, g.m, g.n, g.pad).first);
  }
  return call;
}

void batch(GroupCall<double>& x) {
  cblas_dgemm_batch(x.layout, x.ta.data(), x.tb.data(), x.m.data(), x.n.data(), x.k.data(),
                    x.alpha.data(), x.ap.data(), x.lda.data(), x.bp.data(), x.ldb.data(),
                    x.beta.data(), x.cp.data(), x.ldc.data(), static_cast<int>(x.ta.size()),
                    x.size.data());
}
void batch(GroupCall<float>& x) {
  cblas_sgemm_batch(x.layout, x.ta.data(), x.tb.data(), x.m.data(), x.n.data(), x.k.data(),
                    x.alpha.data(), x.ap.data(), x.lda.data(), x.bp.data(), x.ldb.data(),
                    x.beta.data(), x.cp.data(), x.ldc.data(), static_cast<int>(x.ta.size()),
                    x.size.data());
}
void single(int layout, int ta, int tb, int m, int n, int k, double alpha, const double* a, int lda,
            const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void single(int layout, int ta, int tb, int m, int n, int k, float alpha, const float* a, int lda,
            const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void loop(GroupCall<T>& x) {
  std::size_t item = 0;
  for (std::size_t g = 0; g < x.ta.size(); ++g) {
    for (int i = 0; i < x.size[g]; ++i, ++item) {
      single(x.layout, x.ta[g], x.tb[g], x.m[g], x.n[g], x.k[g], x.alpha[g], x.ap[item], x.lda[g],
             x.bp[item], x.ldb[g], x.beta[g], x.cp[item], x.ldc[g]);
    }
  }
}

std::vector<GroupSpec> mixed_groups() {
  return {{kNoTrans, kNoTrans, 5, 4, 3, 1.0, 0.0, 0, 3},
          {kTrans, kTrans, 8, 8, 8, 0.5, -1.0, 2, 2},
          {kNoTrans, kTrans, 0, 4, 3, 1.0, 0.0, 0, 2},
          {kNoTrans, kNoTrans, 6, 5, 4, 0.0, 2.0, 1, 2},
          {kTrans, kNoTrans, 17, 9, 13, -1.5, 1.0, 3, 4},
          {kNoTrans, kNoTrans, 3, 3, 3, 1.0, 1.0, 0, 0},
          {kNoTrans, kTrans, 24, 31, 16, 1.0, 0.0, 1, 40},
          {kTrans, kNoTrans, 4, 6, 0, 1.0, 0.5, 0, 3},
          {kNoTrans, kNoTrans, 32, 32, 32, 1.0, 1.0, 0, 30}};
}

template <class T>
void expect_equal_to_loop(int layout, const std::vector<GroupSpec>& specs) {
  GroupCall<T> got = build<T>(layout, specs, 9);
  GroupCall<T> want = build<T>(layout, specs, 9);
  g_report = Report{};
  batch(got);
  loop(want);
  EXPECT_EQ(g_report.calls, 0);
  for (std::size_t i = 0; i < got.c.size(); ++i) {
    for (std::size_t e = 0; e < got.c[i].size(); ++e) {
      const T g = got.c[i][e], w = want.c[i][e];
      ASSERT_TRUE(g == w || (std::isnan(g) && std::isnan(w))) << "item " << i << " at " << e;
    }
  }
}

TEST(BlasBatch, GroupsEqualTheLoopOfSingleCallsInBothLayouts) {
  for (int layout : {kColMajor, kRowMajor}) {
    expect_equal_to_loop<double>(layout, mixed_groups());
    expect_equal_to_loop<float>(layout, mixed_groups());
  }
}

TEST(BlasBatch, MoreGroupsThanOneEngineBatchTakes) {
  std::vector<GroupSpec> specs;
  for (int g = 0; g < 150; ++g) {
    specs.push_back({g % 2 == 0 ? kNoTrans : kTrans, g % 3 == 0 ? kTrans : kNoTrans, 3 + g % 7,
                     2 + g % 5, 1 + g % 4, g % 11 == 0 ? 0.0 : 0.75, g % 4 == 0 ? 0.0 : -0.5, g % 2,
                     g % 3});
  }
  expect_equal_to_loop<double>(kColMajor, specs);
  expect_equal_to_loop<double>(kRowMajor, specs);
}

// Strided: item i at a + i * stridea (B shared: strideb 0), c + i * stridec.
template <class T>
void expect_strided_equal_to_loop(int layout, int ta, int tb) {
  const int m = 7, n = 6, k = 5, count = 300, pad = 1;
  const bool tra = ta != kNoTrans, trb = tb != kNoTrans;
  const auto [lda, a_elems] = stored(layout, tra ? k : m, tra ? m : k, pad);
  const auto [ldb, b_elems] = stored(layout, trb ? n : k, trb ? k : n, pad);
  const auto [ldc, c_elems] = stored(layout, m, n, pad);
  const int stridea = static_cast<int>(a_elems) + 2, stridec = static_cast<int>(c_elems) + 1;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(stridea) * count), b(b_elems);
  std::vector<T> c(static_cast<std::size_t>(stridec) * count);
  for (T& v : a) v = static_cast<T>(entry(rng));
  for (T& v : b) v = static_cast<T>(entry(rng));
  for (T& v : c) v = static_cast<T>(entry(rng));
  auto want = c;
  for (int i = 0; i < count; ++i) {
    single(layout, ta, tb, m, n, k, T(0.5), a.data() + i * stridea, lda, b.data(), ldb, T(2),
           want.data() + i * stridec, ldc);
  }
  g_report = Report{};
  if constexpr (sizeof(T) == 8) {
    cblas_dgemm_batch_strided(layout, ta, tb, m, n, k, 0.5, a.data(), lda, stridea, b.data(), ldb,
                              0, 2.0, c.data(), ldc, stridec, count);
  } else {
    cblas_sgemm_batch_strided(layout, ta, tb, m, n, k, 0.5F, a.data(), lda, stridea, b.data(), ldb,
                              0, 2.0F, c.data(), ldc, stridec, count);
  }
  EXPECT_EQ(g_report.calls, 0);
  EXPECT_EQ(c, want);
}

TEST(BlasBatch, StridedEqualsTheLoopOfSingleCalls) {
  for (int layout : {kColMajor, kRowMajor}) {
    for (int ta : {kNoTrans, kTrans}) {
      for (int tb : {kNoTrans, kTrans}) {
        expect_strided_equal_to_loop<double>(layout, ta, tb);
        expect_strided_equal_to_loop<float>(layout, ta, tb);
      }
    }
  }
}

// expect_c_unchanged(): every C of `call` as in `before` (NaN where it was NaN).
void expect_c_unchanged(const GroupCall<double>& call, const GroupCall<double>& before) {
  for (std::size_t i = 0; i < call.c.size(); ++i) {
    for (std::size_t e = 0; e < call.c[i].size(); ++e) {
      const double now = call.c[i][e], was = before.c[i][e];
      ASSERT_TRUE(now == was || (std::isnan(now) && std::isnan(was))) << "C written: item " << i;
    }
  }
}

// An illegal argument in the last group: reported at `position`, no C written (not even the
// earlier, legal groups').
template <class Break>
void expect_rejected(int layout, int position, Break&& breaks,
                     const std::vector<GroupSpec>& specs = mixed_groups()) {
  GroupCall<double> call = build<double>(layout, specs, 4);
  const GroupCall<double> before = build<double>(layout, specs, 4);
  breaks(call, call.ta.size() - 1);
  g_report = Report{};
  batch(call);
  EXPECT_EQ(g_report.calls, 1);
  EXPECT_EQ(g_report.name, "cblas_dgemm_batch");
  EXPECT_EQ(g_report.info, position);
  expect_c_unchanged(call, before);
}

TEST(BlasBatch, BadGroupsAreReportedAtTheirPositionWithNothingWritten) {
  using Call = GroupCall<double>;
  for (int layout : {kColMajor, kRowMajor}) {
    expect_rejected(layout, 2, [](Call& x, std::size_t g) { x.ta[g] = 99; });
    expect_rejected(layout, 3, [](Call& x, std::size_t g) { x.tb[g] = 0; });
    expect_rejected(layout, 4, [](Call& x, std::size_t g) { x.m[g] = -1; });
    expect_rejected(layout, 5, [](Call& x, std::size_t g) { x.n[g] = -1; });
    expect_rejected(layout, 6, [](Call& x, std::size_t g) { x.k[g] = -1; });
    expect_rejected(layout, 9, [](Call& x, std::size_t g) { x.lda[g] = 31; });
    expect_rejected(layout, 11, [](Call& x, std::size_t g) { x.ldb[g] = 31; });
    expect_rejected(layout, 14, [](Call& x, std::size_t g) { x.ldc[g] = 31; });
    expect_rejected(layout, 16, [](Call& x, std::size_t g) { x.size[g] = -2; });
    expect_rejected(layout, 8, [](Call& x, std::size_t) { x.ap.back() = nullptr; });
    expect_rejected(layout, 10, [](Call& x, std::size_t) { x.bp.back() = nullptr; });
    expect_rejected(layout, 13, [](Call& x, std::size_t) { x.cp.back() = nullptr; });
  }
  expect_rejected(100, 1, [](Call& x, std::size_t) { x.layout = 100; });
  GroupCall<double> call = build<double>(kColMajor, mixed_groups(), 4);
  g_report = Report{};
  cblas_dgemm_batch(kColMajor, call.ta.data(), call.tb.data(), call.m.data(), call.n.data(),
                    call.k.data(), call.alpha.data(), call.ap.data(), call.lda.data(),
                    call.bp.data(), call.ldb.data(), call.beta.data(), call.cp.data(),
                    call.ldc.data(), -1, call.size.data());
  EXPECT_EQ(g_report.info, 15);
}

// A null matrix pointer: in a call of more groups than one engine batch takes (64), the ABI scans
// the pointers before the first batch; in one batch, linalg's own scan finds it (a whole null
// array too). Either way every C is left as it was, and every group's other arguments are
// checked before any pointer.
TEST(BlasBatch, NullMatricesAreReportedWithNothingWritten) {
  using Call = GroupCall<double>;
  std::vector<GroupSpec> many;
  for (int copy = 0; copy < 8; ++copy) {
    for (const GroupSpec& g : mixed_groups()) many.push_back(g);
  }
  ASSERT_GT(many.size(), 64u);
  for (int layout : {kColMajor, kRowMajor}) {
    expect_rejected(
        layout, 8, [](Call& x, std::size_t) { x.ap.back() = nullptr; }, many);
    expect_rejected(
        layout, 13, [](Call& x, std::size_t) { x.cp.back() = nullptr; }, many);
    expect_rejected(
        layout, 10, [](Call& x, std::size_t) { x.bp.front() = nullptr; }, many);
  }
  // Group 0's A is null and group 1's lda too small: the lda is reported.
  expect_rejected(kColMajor, 9, [](Call& x, std::size_t) {
    x.ap.front() = nullptr;
    x.lda[1] = 3;
  });
  Call call = build<double>(kColMajor, mixed_groups(), 4);
  const Call before = build<double>(kColMajor, mixed_groups(), 4);
  g_report = Report{};
  cblas_dgemm_batch(kColMajor, call.ta.data(), call.tb.data(), call.m.data(), call.n.data(),
                    call.k.data(), call.alpha.data(), nullptr, call.lda.data(), call.bp.data(),
                    call.ldb.data(), call.beta.data(), call.cp.data(), call.ldc.data(),
                    static_cast<int>(call.ta.size()), call.size.data());
  EXPECT_EQ(g_report.calls, 1);
  EXPECT_EQ(g_report.info, 8);
  expect_c_unchanged(call, before);
}

TEST(BlasBatch, BadStridedArgumentsAreReportedWithNothingWritten) {
  std::vector<double> a(64, 1.0), c(64, 42.0);
  struct Case {
    int layout, ta, m, lda, stridea, ldb, ldc, stridec, count, position;
    bool null_a;
  };
  const Case cases[] = {
      {0, kNoTrans, 3, 3, 9, 3, 3, 9, 2, 1, false},
      {kColMajor, 7, 3, 3, 9, 3, 3, 9, 2, 2, false},
      {kColMajor, kNoTrans, -1, 3, 9, 3, 3, 9, 2, 4, false},
      {kColMajor, kNoTrans, 3, 2, 9, 3, 3, 9, 2, 9, false},
      {kColMajor, kNoTrans, 3, 3, -1, 3, 3, 9, 2, 10, false},
      {kColMajor, kNoTrans, 3, 3, 9, 2, 3, 9, 2, 12, false},
      {kColMajor, kNoTrans, 3, 3, 9, 3, 2, 9, 2, 16, false},
      {kRowMajor, kNoTrans, 3, 3, 9, 3, 3, 8, 2, 17, false},
      {kColMajor, kNoTrans, 3, 3, 9, 3, 3, 9, -1, 18, false},
      {kColMajor, kNoTrans, 3, 3, 9, 3, 3, 9, 2, 8, true},
  };
  for (const Case& t : cases) {
    g_report = Report{};
    cblas_dgemm_batch_strided(t.layout, t.ta, kNoTrans, t.m, 3, 3, 1.0,
                              t.null_a ? nullptr : a.data(), t.lda, t.stridea, a.data(), t.ldb, 0,
                              0.0, c.data(), t.ldc, t.stridec, t.count);
    EXPECT_EQ(g_report.calls, 1) << t.position;
    EXPECT_EQ(g_report.name, "cblas_dgemm_batch_strided");
    EXPECT_EQ(g_report.info, t.position);
    for (double v : c) ASSERT_EQ(v, 42.0) << "C written, position " << t.position;
  }
}

}  // namespace
