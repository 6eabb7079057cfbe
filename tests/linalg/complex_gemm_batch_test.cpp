// SPDX-License-Identifier: Apache-2.0
// complex_gemm_batch_test.cpp: linalg::gemm_batch (span, source, groups) and gemm_batch_strided
// in std::complex<double> and std::complex<float>.
//
// Covers: a batch equals the loop of serial complex gemm() calls on the same items, bit for bit
// (each item runs the same complex product), and the textbook product in long double; every
// pair of none / transpose / conjugate transpose, both layouts, empty dimensions, padded
// leading dimensions (padding untouched), alpha == 0 (C only scaled), NaN in C with beta == 0
// (not propagated); on a team of 2 a batch whose flops pay runs one section and still matches;
// a bad item, group or stride throws, naming it, with every C untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "linalg/team_param_test.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::linalg {
namespace {

using Scalar = std::complex<double>;  // a shape's alpha and beta, cast to the batch's type

struct Shape {
  index_t m, n, k;
  Op op_a, op_b;
  Layout layout;
  Scalar alpha, beta;
  index_t pad;  // added to every leading dimension
};

// Storage: one item's matrices, in vectors the item's views point into.
template <class Z>
struct Storage {
  std::vector<Z> a, b, c;
  GemmItem<Z> item;
};

// random_entry(): real and imaginary parts uniform in [-1, 1].
template <class Z>
Z random_entry(std::mt19937_64& rng) {
  using R = typename Z::value_type;
  std::uniform_real_distribution<double> part(-1.0, 1.0);
  const auto re = static_cast<R>(part(rng));
  return Z(re, static_cast<R>(part(rng)));
}

template <class Z>
MatrixView<Z> make_view(std::vector<Z>& s, index_t rows, index_t cols, Layout layout, index_t pad,
                        std::mt19937_64& rng) {
  const index_t ld = std::max<index_t>(1, (layout == Layout::col_major ? rows : cols) + pad);
  const index_t outer = layout == Layout::col_major ? cols : rows;
  s.assign(static_cast<std::size_t>(std::max<index_t>(1, ld * outer)), Z(0));
  for (Z& v : s) v = random_entry<Z>(rng);
  return {s.data(), rows, cols, ld, layout};
}

template <class Z>
void make_item(Storage<Z>& st, const Shape& p, std::mt19937_64& rng) {
  const bool ta = p.op_a != Op::none;
  const bool tb = p.op_b != Op::none;
  const auto a = make_view(st.a, ta ? p.k : p.m, ta ? p.m : p.k, p.layout, p.pad, rng);
  const auto b = make_view(st.b, tb ? p.n : p.k, tb ? p.k : p.n, p.layout, p.pad, rng);
  const auto c = make_view(st.c, p.m, p.n, p.layout, p.pad, rng);
  using R = typename Z::value_type;
  // beta == 0 must not read C: NaN there must not reach the result.
  if (p.beta == Scalar(0)) {
    std::fill(st.c.begin(), st.c.end(), Z(std::numeric_limits<R>::quiet_NaN(), R(0)));
  }
  st.item = {p.op_a, p.op_b, Z(p.alpha), a, b, Z(p.beta), c};
}

// mixed_shapes(): every pair of ops on every edge case, sizes from empty to a few tiles.
std::vector<Shape> mixed_shapes(std::size_t copies) {
  const index_t dims[][3] = {{0, 5, 3}, {4, 0, 3}, {3, 4, 0},   {1, 1, 1},
                             {5, 7, 3}, {8, 8, 8}, {17, 9, 13}, {24, 31, 16}};
  const Scalar scalars[][2] = {{{1, 0}, {0, 0}},  {{0.5, -0.25}, {-0.5, 0.75}},
                               {{0, 0}, {2, -1}}, {{0, 0}, {0, 0}},
                               {{1, 0}, {1, 0}},  {{-1.5, 0.5}, {0, 0}}};
  const Op ops[] = {Op::none, Op::transpose, Op::conj_transpose};
  std::vector<Shape> shapes;
  std::size_t s = 0;
  for (std::size_t copy = 0; copy < copies; ++copy) {
    for (const auto& d : dims) {
      for (int pair = 0; pair < 9; ++pair, ++s) {
        const auto& sc = scalars[s % std::size(scalars)];
        shapes.push_back({d[0], d[1], d[2], ops[pair % 3], ops[pair / 3],
                          s % 3 == 2 ? Layout::row_major : Layout::col_major, sc[0], sc[1],
                          static_cast<index_t>(s % 4 == 1 ? 3 : 0)});
      }
    }
  }
  return shapes;
}

template <class Z>
std::vector<Storage<Z>> make_batch(const std::vector<Shape>& shapes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Storage<Z>> batch(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) make_item(batch[i], shapes[i], rng);
  return batch;
}

template <class Z>
std::vector<GemmItem<Z>> items_of(std::vector<Storage<Z>>& batch) {
  std::vector<GemmItem<Z>> items;
  for (auto& st : batch) items.push_back(st.item);
  return items;
}

template <class Z>
bool same(Z g, Z w) {
  const auto part = [](auto x, auto y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return part(g.real(), w.real()) && part(g.imag(), w.imag());
}

// expect_same_c(): every C buffer (padding included) equal, bit for bit.
template <class Z>
void expect_same_c(const std::vector<Storage<Z>>& got, const std::vector<Storage<Z>>& want) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    for (std::size_t e = 0; e < got[i].c.size(); ++e) {
      ASSERT_TRUE(same(got[i].c[e], want[i].c[e]))
          << "item " << i << " element " << e << ": " << got[i].c[e] << " vs " << want[i].c[e];
    }
  }
}

// loop_reference(): the same items through gemm(), one serial call each.
template <class Z>
std::vector<Storage<Z>> loop_reference(const std::vector<Shape>& shapes, unsigned seed) {
  auto want = make_batch<Z>(shapes, seed);
  Exec serial;
  for (auto& st : want) {
    const GemmItem<Z>& it = st.item;
    gemm<Z>(it.op_a, it.op_b, it.alpha, it.a, it.b, it.beta, it.c, serial);
  }
  return want;
}

using Wide = std::complex<long double>;

template <class Z>
Wide op_at(const MatrixView<const Z>& v, Op op, index_t i, index_t j) {
  const Z z = op == Op::none ? v(i, j) : v(j, i);
  const Wide w(z.real(), z.imag());
  return op == Op::conj_transpose ? std::conj(w) : w;
}

// expect_naive(): each computed C (item of `got`) against the textbook product on the same
// item before the batch (`before`), in long double (A and B unread at alpha == 0, C at
// beta == 0), within a bound scaled by the magnitudes summed.
template <class Z>
void expect_naive(const std::vector<Storage<Z>>& got, const std::vector<Storage<Z>>& before) {
  const long double eps = std::numeric_limits<typename Z::value_type>::epsilon();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const GemmItem<Z>& it = before[i].item;
    const index_t k = it.op_a == Op::none ? it.a.cols : it.a.rows;
    const Wide alpha(it.alpha.real(), it.alpha.imag());
    const Wide beta(it.beta.real(), it.beta.imag());
    for (index_t r = 0; r < it.c.rows; ++r) {
      for (index_t j = 0; j < it.c.cols; ++j) {
        Wide sum = 0;
        long double mag = 0;
        for (index_t p = 0; alpha != Wide(0) && p < k; ++p) {
          const Wide term = op_at(it.a, it.op_a, r, p) * op_at(it.b, it.op_b, p, j);
          sum += term;
          mag += std::abs(term);
        }
        Wide want = alpha * sum;
        mag *= std::abs(alpha);
        if (beta != Wide(0)) {
          const Wide c0 = beta * Wide(it.c(r, j).real(), it.c(r, j).imag());
          want += c0;
          mag += std::abs(c0);
        }
        const Z g = got[i].item.c(r, j);
        const long double err = std::abs(Wide(g.real(), g.imag()) - want);
        const long double bound = 4 * (static_cast<long double>(k) + 4) * eps * mag + eps;
        ASSERT_LE(err, bound) << "item " << i << " at " << r << ", " << j;
      }
    }
  }
}

template <class Z>
void check_items(const std::vector<Shape>& shapes, team::Team* on, bool expect_wide) {
  auto got = make_batch<Z>(shapes, 7);
  const auto items = items_of(got);
  Exec exec;
  exec.team = on;
  gemm_batch<Z>(items, exec);
  expect_same_c(got, loop_reference<Z>(shapes, 7));
  expect_naive(got, make_batch<Z>(shapes, 7));
  if (expect_wide && team::usable_cpu_count() >= 2) {
    EXPECT_GE(exec.stats.sections, 1U);
    EXPECT_EQ(exec.stats.max_width_used, 2U);
  }
}

TEST(ComplexGemmBatch, MixedItemsEqualTheLoopAndTheTextbookProduct) {
  check_items<std::complex<double>>(mixed_shapes(1), nullptr, false);
  check_items<std::complex<float>>(mixed_shapes(1), nullptr, false);
}

TEST(ComplexGemmBatch, SourceFormAndOneItemEqualTheLoop) {
  const auto shapes = mixed_shapes(1);
  auto got = make_batch<std::complex<double>>(shapes, 5);
  const auto items = items_of(got);
  using Item = GemmItem<std::complex<double>>;
  const GemmBatchSource<std::complex<double>> source{
      items.size(), &items, [](const void* context, std::size_t i) {
        return (*static_cast<const std::vector<Item>*>(context))[i];
      }};
  Exec exec;
  gemm_batch<std::complex<double>>(source, exec);
  expect_same_c(got, loop_reference<std::complex<double>>(shapes, 5));
  const std::vector<Shape> one{
      {20, 12, 9, Op::conj_transpose, Op::transpose, Layout::row_major, {0.5, 1}, {-1, 0.5}, 2}};
  check_items<std::complex<float>>(one, nullptr, false);
}

// Strided: one buffer per operand, item i at base + i * stride (B shared: stride 0).
template <class Z>
void check_strided(team::Team* on, Op op_a, Op op_b, Layout layout, index_t count) {
  const index_t m = 9, n = 7, k = 5, pad = 2;
  const Shape shape{m, n, k, op_a, op_b, layout, {0.5, -0.5}, {-1, 0.25}, pad};
  std::mt19937_64 rng(static_cast<unsigned>(count));
  Storage<Z> first;
  make_item(first, shape, rng);
  const auto span = [&](const auto& v) { return static_cast<index_t>(v.size()); };
  const index_t sa = span(first.a) + 1, sc = span(first.c) + 3;
  const index_t slots = std::max<index_t>(1, count);
  std::vector<Z> a(static_cast<std::size_t>(sa * slots)), c(static_cast<std::size_t>(sc * slots));
  for (Z& v : a) v = random_entry<Z>(rng);
  for (Z& v : c) v = random_entry<Z>(rng);
  auto want = c;
  const GemmItem<Z>& it = first.item;
  const auto moved = [](auto view, auto* data) {
    view.data = data;
    return view;
  };
  Exec serial;
  for (index_t i = 0; i < count; ++i) {
    gemm<Z>(op_a, op_b, it.alpha, moved(it.a, static_cast<const Z*>(a.data() + i * sa)), it.b,
            it.beta, moved(it.c, want.data() + i * sc), serial);
  }
  Exec exec;
  exec.team = on;
  gemm_batch_strided<Z>(op_a, op_b, it.alpha, moved(it.a, static_cast<const Z*>(a.data())), sa,
                        it.b, 0, it.beta, moved(it.c, c.data()), sc, count, exec);
  for (std::size_t e = 0; e < c.size(); ++e) ASSERT_TRUE(same(c[e], want[e])) << e;
}

TEST(ComplexGemmBatch, StridedEqualsTheLoop) {
  const Op ops[] = {Op::none, Op::transpose, Op::conj_transpose};
  for (const Op op_a : ops) {
    for (const Op op_b : ops) {
      check_strided<std::complex<double>>(nullptr, op_a, op_b, Layout::col_major, 50);
      check_strided<std::complex<float>>(nullptr, op_a, op_b, Layout::row_major, 50);
      check_strided<std::complex<double>>(nullptr, op_a, op_b, Layout::row_major, 1);
      check_strided<std::complex<double>>(nullptr, op_a, op_b, Layout::col_major, 0);
    }
  }
}

// Groups: consecutive items of one shape, their matrices given by pointer.
template <class Z>
struct GroupArrays {
  std::vector<const Z*> a, b;
  std::vector<Z*> c;
  std::vector<GemmGroup<Z>> groups;
};

// groups_of(): the batch's items as groups of `size` items each (the last may be shorter),
// one empty group after the first; each group's shape is its first item's.
template <class Z>
GroupArrays<Z> groups_of(std::vector<Storage<Z>>& batch, std::size_t size) {
  GroupArrays<Z> arrays;
  for (auto& st : batch) {
    arrays.a.push_back(st.item.a.data);
    arrays.b.push_back(st.item.b.data);
    arrays.c.push_back(st.item.c.data);
  }
  for (std::size_t first = 0; first < batch.size(); first += size) {
    GemmGroup<Z> group;
    group.shape = batch[first].item;
    group.shape.a.data = group.shape.b.data = nullptr;  // the shape's data are not read
    group.shape.c.data = nullptr;
    group.count = std::min(size, batch.size() - first);
    group.a = arrays.a.data() + first;
    group.b = arrays.b.data() + first;
    group.c = arrays.c.data() + first;
    arrays.groups.push_back(group);
    if (first == 0) arrays.groups.push_back({group.shape, 0, nullptr, nullptr, nullptr});
  }
  return arrays;
}

// grouped_shapes(): each mixed shape repeated `size` times, consecutively.
std::vector<Shape> grouped_shapes(std::size_t size) {
  std::vector<Shape> shapes;
  for (const Shape& s : mixed_shapes(1)) shapes.insert(shapes.end(), size, s);
  return shapes;
}

template <class Z>
void check_groups(team::Team* on, std::size_t size, bool expect_wide) {
  const auto shapes = grouped_shapes(size);
  auto got = make_batch<Z>(shapes, 17);
  GroupArrays<Z> arrays = groups_of(got, size);
  Exec exec;
  exec.team = on;
  gemm_batch<Z>(std::span<const GemmGroup<Z>>(arrays.groups), exec);
  expect_same_c(got, loop_reference<Z>(shapes, 17));
  if (expect_wide && team::usable_cpu_count() >= 2) {
    EXPECT_GE(exec.stats.sections, 1U);
  }
}

TEST(ComplexGemmBatch, GroupsEqualTheLoop) {
  check_groups<std::complex<double>>(nullptr, 3, false);
  check_groups<std::complex<float>>(nullptr, 2, false);
}

TEST(ComplexGemmBatch, GroupsLeaveUnusedPointersUnread) {
  // alpha == 0: A and B are not read (null arrays); beta == 1 as well: C is not written either.
  using Z = std::complex<double>;
  std::vector<Z> c(12, Z(5, -1));
  Z* c_items[] = {c.data(), c.data() + 6};
  GemmGroup<Z> scale;
  scale.shape = {Op::conj_transpose,
                 Op::none,
                 Z(0),
                 col_major<const Z>(nullptr, 4, 2),
                 col_major<const Z>(nullptr, 4, 3),
                 Z(0, 2),
                 col_major<Z>(nullptr, 2, 3)};
  scale.count = 2;
  scale.c = c_items;
  GemmGroup<Z> nothing = scale;
  nothing.shape.beta = Z(1);
  nothing.c = nullptr;
  nothing.count = 5;
  const GemmGroup<Z> groups[] = {nothing, scale};
  Exec exec;
  gemm_batch<Z>(std::span<const GemmGroup<Z>>(groups), exec);
  for (const Z v : c) EXPECT_EQ(v, Z(2, 10));
}

// A bad item anywhere, a bad group, a null matrix, a bad stride: nothing is written.
TEST(ComplexGemmBatch, BadItemGroupOrStrideThrowsWithEveryCUntouched) {
  using Z = std::complex<double>;
  const auto shapes = mixed_shapes(2);
  const auto before = make_batch<Z>(shapes, 11);
  for (std::size_t bad : {std::size_t{0}, shapes.size() / 2, shapes.size() - 1}) {
    auto got = make_batch<Z>(shapes, 11);
    auto items = items_of(got);
    items[bad].c.rows += 1;  // C no longer matches op(A) * op(B)
    Exec exec;
    try {
      gemm_batch<Z>(items, exec);
      ADD_FAILURE() << "no InvalidArgument";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), "items[" + std::to_string(bad) + "]") << e.what();
    }
    items[bad].c.rows -= 1;
    items[bad].op_b = static_cast<Op>(7);
    EXPECT_THROW(gemm_batch<Z>(items, exec), InvalidArgument);
    expect_same_c(got, before);
  }
  auto got = make_batch<Z>(shapes, 11);
  GroupArrays<Z> arrays = groups_of(got, 4);
  arrays.groups[2].shape.b.ld = 0;
  Exec exec;
  EXPECT_THROW(gemm_batch<Z>(std::span<const GemmGroup<Z>>(arrays.groups), exec), InvalidArgument);
  arrays = groups_of(got, 4);
  arrays.c.back() = nullptr;
  EXPECT_THROW(gemm_batch<Z>(std::span<const GemmGroup<Z>>(arrays.groups), exec), NullBatchMatrix);
  expect_same_c(got, before);
  const GemmItem<Z>& it = got[40].item;  // 5 x 7, k 3
  EXPECT_THROW(gemm_batch_strided<Z>(it.op_a, it.op_b, it.alpha, it.a, 0, it.b, 0, it.beta, it.c, 1,
                                     2, exec),
               InvalidArgument);
  expect_same_c(got, before);
}

// On a team of 2: a batch whose flops pay runs one section and matches the serial loop, as
// items, as groups and strided.
class ComplexGemmBatchTeam : public test::TeamParamTest {};

TEST_P(ComplexGemmBatchTeam, ABatchThatPaysRunsASectionAndMatches) {
  check_items<std::complex<double>>(mixed_shapes(16), team_.get(), true);
  check_items<std::complex<float>>(mixed_shapes(16), team_.get(), true);
  check_groups<std::complex<double>>(team_.get(), 16, true);
  check_strided<std::complex<float>>(team_.get(), Op::conj_transpose, Op::none, Layout::col_major,
                                     2000);
}

INSTANTIATE_TEST_SUITE_P(Width, ComplexGemmBatchTeam, ::testing::Values(std::size_t{2}));

}  // namespace
}  // namespace teamla::linalg
