// SPDX-License-Identifier: Apache-2.0
// Contract covered: cblas_[ds]gemm_batch (groups) and cblas_[ds]gemm_batch_strided, through
// libteamla_blas.so, equal the loop of cblas_[ds]gemm calls on the same matrices in both
// layouts (transposes, padded leading dimensions, empty groups and dimensions, alpha == 0
// with null A and B, NaN in C with beta == 0, more groups than one engine batch takes); an
// illegal argument in any group reaches the program's cblas_xerbla at its position in the
// call, and nothing is written. cblas_zgemm_batch and cblas_cgemm_batch_strided (and their c
// and z twins) equal the textbook product in both layouts, CblasConjTrans conjugating, report
// illegal arguments as the real forms do, and show in the verbose log as served.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas/blas_abi.hpp"

// The complex batches, as MKL's cblas.h declares them.
extern "C" {
void cblas_zgemm_batch(int layout, const int* transa_array, const int* transb_array,
                       const int* m_array, const int* n_array, const int* k_array,
                       const void* alpha_array, const void** a_array, const int* lda_array,
                       const void** b_array, const int* ldb_array, const void* beta_array,
                       void** c_array, const int* ldc_array, int group_count,
                       const int* group_size);
void cblas_cgemm_batch(int layout, const int* transa_array, const int* transb_array,
                       const int* m_array, const int* n_array, const int* k_array,
                       const void* alpha_array, const void** a_array, const int* lda_array,
                       const void** b_array, const int* ldb_array, const void* beta_array,
                       void** c_array, const int* ldc_array, int group_count,
                       const int* group_size);
void cblas_zgemm_batch_strided(int layout, int transa, int transb, int m, int n, int k,
                               const void* alpha, const void* a, int lda, int stridea,
                               const void* b, int ldb, int strideb, const void* beta, void* c,
                               int ldc, int stridec, int batch_size);
void cblas_cgemm_batch_strided(int layout, int transa, int transb, int m, int n, int k,
                               const void* alpha, const void* a, int lda, int stridea,
                               const void* b, int ldb, int strideb, const void* beta, void* c,
                               int ldc, int stridec, int batch_size);
}

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

// --- The complex batches ----------------------------------------------------------------

using Zd = std::complex<double>;
using Zf = std::complex<float>;
using Wide = std::complex<long double>;

struct ComplexSpec {
  int ta, tb, m, n, k;
  Zd alpha, beta;
  int pad, size;
};

// ComplexCall: the arrays of one cblas_[zc]gemm_batch call and the matrices they point to.
template <class Z>
struct ComplexCall {
  int layout = kColMajor;
  std::vector<int> ta, tb, m, n, k, lda, ldb, ldc, size;
  std::vector<Z> alpha, beta;
  std::vector<std::vector<Z>> a, b, c;
  std::vector<const void*> ap, bp;
  std::vector<void*> cp;
};

template <class Z>
Z random_entry(std::mt19937& rng) {
  std::uniform_real_distribution<double> part(-1.0, 1.0);
  const auto re = static_cast<typename Z::value_type>(part(rng));
  return Z(re, static_cast<typename Z::value_type>(part(rng)));
}

template <class Z>
ComplexCall<Z> build_complex(int layout, const std::vector<ComplexSpec>& specs, unsigned seed) {
  std::mt19937 rng(seed);
  ComplexCall<Z> call;
  call.layout = layout;
  const auto matrix = [&](std::vector<std::vector<Z>>& into, int rows, int cols, int pad) {
    into.emplace_back(stored(layout, rows, cols, pad).second);
    for (Z& v : into.back()) v = random_entry<Z>(rng);
  };
  for (const ComplexSpec& g : specs) {
    const bool ta = g.ta != kNoTrans, tb = g.tb != kNoTrans;
    const int a_rows = ta ? g.k : g.m, a_cols = ta ? g.m : g.k;
    const int b_rows = tb ? g.n : g.k, b_cols = tb ? g.k : g.n;
    for (int i = 0; i < g.size; ++i) {
      matrix(call.a, a_rows, a_cols, g.pad);
      matrix(call.b, b_rows, b_cols, g.pad);
      matrix(call.c, g.m, g.n, g.pad);
      if (g.beta == Zd(0)) {
        const auto nan = std::numeric_limits<typename Z::value_type>::quiet_NaN();
        std::fill(call.c.back().begin(), call.c.back().end(), Z(nan, nan));
      }
      // alpha == 0 leaves A and B unreferenced: they may be null.
      call.ap.push_back(g.alpha == Zd(0) ? nullptr : call.a.back().data());
      call.bp.push_back(g.alpha == Zd(0) ? nullptr : call.b.back().data());
      call.cp.push_back(call.c.back().data());
    }
    call.ta.push_back(g.ta);
    call.tb.push_back(g.tb);
    call.m.push_back(g.m);
    call.n.push_back(g.n);
    call.k.push_back(g.k);
    call.alpha.push_back(Z(g.alpha));
    call.beta.push_back(Z(g.beta));
    call.size.push_back(g.size);
    call.lda.push_back(stored(layout, a_rows, a_cols, g.pad).first);
    call.ldb.push_back(stored(layout, b_rows, b_cols, g.pad).first);
    call.ldc.push_back(stored(layout, g.m, g.n, g.pad).first);
  }
  return call;
}

void batch(ComplexCall<Zd>& x) {
  cblas_zgemm_batch(x.layout, x.ta.data(), x.tb.data(), x.m.data(), x.n.data(), x.k.data(),
                    x.alpha.data(), x.ap.data(), x.lda.data(), x.bp.data(), x.ldb.data(),
                    x.beta.data(), x.cp.data(), x.ldc.data(), static_cast<int>(x.ta.size()),
                    x.size.data());
}
void batch(ComplexCall<Zf>& x) {
  cblas_cgemm_batch(x.layout, x.ta.data(), x.tb.data(), x.m.data(), x.n.data(), x.k.data(),
                    x.alpha.data(), x.ap.data(), x.lda.data(), x.bp.data(), x.ldb.data(),
                    x.beta.data(), x.cp.data(), x.ldc.data(), static_cast<int>(x.ta.size()),
                    x.size.data());
}

// op_entry(): op(X)(i, j) of a stored X (as trans says: CblasConjTrans conjugates).
template <class Z>
Wide op_entry(const Z* x, int layout, int ld, int trans, int i, int j) {
  if (trans != kNoTrans) std::swap(i, j);
  const Z z = layout == kColMajor ? x[i + j * ld] : x[i * ld + j];
  const Wide w(z.real(), z.imag());
  return trans == kConjTrans ? std::conj(w) : w;
}

// naive(): C = alpha op(A) op(B) + beta C in long double, A and B unread at alpha == 0, C at
// beta == 0.
template <class Z>
void naive(int layout, int ta, int tb, int m, int n, int k, Z alpha, const Z* a, int lda,
           const Z* b, int ldb, Z beta, Z* c, int ldc) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      Wide sum = 0;
      for (int p = 0; alpha != Z(0) && p < k; ++p) {
        sum += op_entry(a, layout, lda, ta, i, p) * op_entry(b, layout, ldb, tb, p, j);
      }
      Z& cij = layout == kColMajor ? c[i + j * ldc] : c[i * ldc + j];
      Wide r = Wide(alpha.real(), alpha.imag()) * sum;
      if (beta != Z(0)) r += Wide(beta.real(), beta.imag()) * Wide(cij.real(), cij.imag());
      using R = typename Z::value_type;
      cij = Z(static_cast<R>(r.real()), static_cast<R>(r.imag()));
    }
  }
}

// expect_close(): every element (padding included) within `tol` of the reference; NaN only
// where the reference is NaN (padding of a C that beta == 0 left unread).
template <class Z>
void expect_close(const std::vector<Z>& got, const std::vector<Z>& want, double tol,
                  const std::string& what) {
  for (std::size_t e = 0; e < got.size(); ++e) {
    const auto close = [tol](double g, double w) {
      return (std::isnan(g) && std::isnan(w)) || std::abs(g - w) <= tol;
    };
    ASSERT_TRUE(close(got[e].real(), want[e].real()) && close(got[e].imag(), want[e].imag()))
        << what << " at " << e << ": " << got[e] << " vs " << want[e];
  }
}

// tolerance(): a k-term complex dot product's error bound: entries below 1 in each part,
// |alpha| and |beta| below 2, a margin for the scaling.
template <class Z>
double tolerance(int k) {
  const auto eps = static_cast<double>(std::numeric_limits<typename Z::value_type>::epsilon());
  return 16.0 * (k + 2) * (k + 2) * eps;
}

std::vector<ComplexSpec> complex_groups() {
  return {{kNoTrans, kNoTrans, 5, 4, 3, {1, 0}, {0, 0}, 0, 3},
          {kConjTrans, kTrans, 8, 8, 8, {0.5, -1}, {-1, 0.5}, 2, 2},
          {kTrans, kConjTrans, 6, 5, 4, {0, 0}, {2, -1}, 1, 2},
          {kConjTrans, kConjTrans, 17, 9, 13, {-1.5, 0.5}, {1, 0}, 3, 4},
          {kNoTrans, kConjTrans, 0, 4, 3, {1, 0}, {0, 0}, 0, 2},
          {kNoTrans, kNoTrans, 3, 3, 3, {1, 0}, {1, 0}, 0, 0},
          {kTrans, kNoTrans, 24, 31, 16, {1, 0.25}, {0, 0}, 1, 20},
          {kConjTrans, kNoTrans, 4, 6, 0, {1, 0}, {0.5, 0.5}, 0, 3},
          {kNoTrans, kTrans, 32, 32, 32, {0.75, 0.75}, {1, -1}, 0, 12}};
}

template <class Z>
void expect_complex_groups_naive(int layout) {
  ComplexCall<Z> got = build_complex<Z>(layout, complex_groups(), 9);
  ComplexCall<Z> want = build_complex<Z>(layout, complex_groups(), 9);
  g_report = Report{};
  batch(got);
  EXPECT_EQ(g_report.calls, 0);
  std::size_t item = 0;
  for (std::size_t g = 0; g < want.ta.size(); ++g) {
    for (int i = 0; i < want.size[g]; ++i, ++item) {
      naive(layout, want.ta[g], want.tb[g], want.m[g], want.n[g], want.k[g], want.alpha[g],
            want.a[item].data(), want.lda[g], want.b[item].data(), want.ldb[g], want.beta[g],
            want.c[item].data(), want.ldc[g]);
      expect_close(got.c[item], want.c[item], tolerance<Z>(want.k[g]),
                   "layout " + std::to_string(layout) + " item " + std::to_string(item));
    }
  }
}

TEST(BlasBatchComplex, GroupsEqualTheTextbookProductInBothLayouts) {
  for (int layout : {kColMajor, kRowMajor}) {
    expect_complex_groups_naive<Zd>(layout);
    expect_complex_groups_naive<Zf>(layout);
  }
}

// Strided: item i at a + i * stridea (B shared: strideb 0), c + i * stridec.
template <class Z>
void expect_complex_strided_naive(int layout, int ta, int tb) {
  const int m = 7, n = 6, k = 5, count = 120, pad = 1;
  const bool tra = ta != kNoTrans, trb = tb != kNoTrans;
  const auto [lda, a_elems] = stored(layout, tra ? k : m, tra ? m : k, pad);
  const auto [ldb, b_elems] = stored(layout, trb ? n : k, trb ? k : n, pad);
  const auto [ldc, c_elems] = stored(layout, m, n, pad);
  const int stridea = static_cast<int>(a_elems) + 2, stridec = static_cast<int>(c_elems) + 1;
  std::mt19937 rng(5);
  std::vector<Z> a(static_cast<std::size_t>(stridea) * count), b(b_elems);
  std::vector<Z> c(static_cast<std::size_t>(stridec) * count);
  for (Z& v : a) v = random_entry<Z>(rng);
  for (Z& v : b) v = random_entry<Z>(rng);
  for (Z& v : c) v = random_entry<Z>(rng);
  auto want = c;
  const Z alpha(0.5, -0.75), beta(2, 0.5);
  for (int i = 0; i < count; ++i) {
    naive(layout, ta, tb, m, n, k, alpha, a.data() + i * stridea, lda, b.data(), ldb, beta,
          want.data() + i * stridec, ldc);
  }
  g_report = Report{};
  if constexpr (sizeof(Z) == 16) {
    cblas_zgemm_batch_strided(layout, ta, tb, m, n, k, &alpha, a.data(), lda, stridea, b.data(),
                              ldb, 0, &beta, c.data(), ldc, stridec, count);
  } else {
    cblas_cgemm_batch_strided(layout, ta, tb, m, n, k, &alpha, a.data(), lda, stridea, b.data(),
                              ldb, 0, &beta, c.data(), ldc, stridec, count);
  }
  EXPECT_EQ(g_report.calls, 0);
  expect_close(c, want, tolerance<Z>(k),
               "layout " + std::to_string(layout) + " trans " + std::to_string(ta) + "/" +
                   std::to_string(tb));
}

TEST(BlasBatchComplex, StridedEqualsTheTextbookProductInBothLayouts) {
  for (int layout : {kColMajor, kRowMajor}) {
    for (int ta : {kNoTrans, kTrans, kConjTrans}) {
      for (int tb : {kNoTrans, kTrans, kConjTrans}) {
        expect_complex_strided_naive<Zf>(layout, ta, tb);
        expect_complex_strided_naive<Zd>(layout, ta, tb);
      }
    }
  }
}

template <class Z>
void expect_c_unchanged(const std::vector<std::vector<Z>>& now,
                        const std::vector<std::vector<Z>>& was) {
  for (std::size_t i = 0; i < now.size(); ++i) expect_close(now[i], was[i], 0.0, "C written");
}

TEST(BlasBatchComplex, IllegalArgumentsAreReportedWithNothingWritten) {
  using Call = ComplexCall<Zd>;
  const auto rejected = [](int layout, int position, auto&& breaks) {
    Call call = build_complex<Zd>(layout, complex_groups(), 4);
    const Call before = build_complex<Zd>(layout, complex_groups(), 4);
    breaks(call, call.ta.size() - 1);
    g_report = Report{};
    batch(call);
    EXPECT_EQ(g_report.calls, 1);
    EXPECT_EQ(g_report.name, "cblas_zgemm_batch");
    EXPECT_EQ(g_report.info, position);
    expect_c_unchanged(call.c, before.c);
  };
  for (int layout : {kColMajor, kRowMajor}) {
    rejected(layout, 2, [](Call& x, std::size_t g) { x.ta[g] = 99; });
    rejected(layout, 9, [](Call& x, std::size_t g) { x.lda[g] = 31; });
    rejected(layout, 14, [](Call& x, std::size_t g) { x.ldc[g] = 31; });
    rejected(layout, 13, [](Call& x, std::size_t) { x.cp.back() = nullptr; });
  }
  rejected(100, 1, [](Call& x, std::size_t) { x.layout = 100; });
  // The strided form: positions of the call as written; nothing written.
  std::vector<Zf> a(64, Zf(1, -1)), c(64, Zf(42, 7));
  const Zf alpha(1, 1), beta(0, 0);
  struct Case {
    int layout, ldc, stridec, count, position;
    bool null_a;
  };
  const Case cases[] = {{0, 3, 9, 2, 1, false},
                        {kColMajor, 2, 9, 2, 16, false},
                        {kRowMajor, 3, 8, 2, 17, false},
                        {kColMajor, 3, 9, -1, 18, false},
                        {kColMajor, 3, 9, 2, 8, true}};
  for (const Case& t : cases) {
    g_report = Report{};
    cblas_cgemm_batch_strided(t.layout, kConjTrans, kNoTrans, 3, 3, 3, &alpha,
                              t.null_a ? nullptr : a.data(), 3, 9, a.data(), 3, 0, &beta, c.data(),
                              t.ldc, t.stridec, t.count);
    EXPECT_EQ(g_report.calls, 1) << t.position;
    EXPECT_EQ(g_report.name, "cblas_cgemm_batch_strided");
    EXPECT_EQ(g_report.info, t.position);
    for (const Zf v : c) ASSERT_EQ(v, Zf(42, 7)) << "C written, position " << t.position;
  }
}

// first_calls_log(): what the library printed at the first call of each complex batch in this
// process (FirstComplexCalls, below).
std::string& first_calls_log() {
  static std::string log;
  return log;
}

TEST(BlasBatchComplex, TheVerboseLogShowsThemServed) {
  for (const char* name : {"cblas_zgemm_batch", "cblas_cgemm_batch", "cblas_zgemm_batch_strided",
                           "cblas_cgemm_batch_strided"}) {
    EXPECT_NE(first_calls_log().find("teamla_blas: " + std::string(name) + " served by teamla"),
              std::string::npos)
        << name << " not in:\n"
        << first_calls_log();
  }
}

// TEAMLA_BLAS_VERBOSE=1, set before main (the library reads it at its first call), prints one
// line at each routine's first call. FirstComplexCalls makes the complex batches' first calls
// before any test runs, with stderr captured into first_calls_log().
[[maybe_unused]] const bool kVerbose = [] {
  setenv("TEAMLA_BLAS_VERBOSE", "1", 1);
  return true;
}();

class FirstComplexCalls : public ::testing::Environment {
 public:
  void SetUp() override {
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    std::fflush(stderr);
    const int saved = dup(2);
    dup2(fileno(file), 2);
    std::vector<Zd> z_in(4, Zd(0.5, -1)), z_out(4, Zd(1, 1));
    std::vector<Zf> c_in(4, Zf(0.5, -1)), c_out(4, Zf(1, 1));
    const Zd z_one(1), z_zero(0);
    const Zf c_one(1), c_zero(0);
    const int trans = kConjTrans, dim = 2, size = 1;
    const void* z_in_p[] = {z_in.data()};
    const void* c_in_p[] = {c_in.data()};
    void* z_out_p[] = {z_out.data()};
    void* c_out_p[] = {c_out.data()};
    cblas_zgemm_batch(kColMajor, &trans, &trans, &dim, &dim, &dim, &z_one, z_in_p, &dim, z_in_p,
                      &dim, &z_zero, z_out_p, &dim, 1, &size);
    cblas_cgemm_batch(kRowMajor, &trans, &trans, &dim, &dim, &dim, &c_one, c_in_p, &dim, c_in_p,
                      &dim, &c_zero, c_out_p, &dim, 1, &size);
    cblas_zgemm_batch_strided(kColMajor, kConjTrans, kNoTrans, 2, 2, 2, &z_one, z_in.data(), 2, 0,
                              z_in.data(), 2, 0, &z_zero, z_out.data(), 2, 4, 1);
    cblas_cgemm_batch_strided(kRowMajor, kNoTrans, kConjTrans, 2, 2, 2, &c_one, c_in.data(), 2, 0,
                              c_in.data(), 2, 0, &c_zero, c_out.data(), 2, 4, 1);
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::rewind(file);
    for (int ch = std::fgetc(file); ch != EOF; ch = std::fgetc(file)) {
      first_calls_log().push_back(static_cast<char>(ch));
    }
    std::fclose(file);
  }
};

[[maybe_unused]] ::testing::Environment* const kFirstCalls =
    ::testing::AddGlobalTestEnvironment(new FirstComplexCalls);

}  // namespace
