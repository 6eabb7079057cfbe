// SPDX-License-Identifier: Apache-2.0
// gemm_batch_test.cpp: linalg::gemm_batch (span, source) and gemm_batch_strided.
//
// Covers: a batch equals the loop of serial gemm() calls on the same items, bit for bit
// (each item runs the same serial path), serially and on a 2-thread team (where a large
// batch goes wide); mixed shapes with empty dimensions, both transposes and layouts,
// alpha/beta 0, 1 and other values, padded leading dimensions (padding untouched), NaN in C
// with beta == 0 (not propagated); a bad item anywhere, or a bad stride, throws with every C
// untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "plan/width_internal.hpp"
#include "team/held_worker.hpp"
#include "teamla/linalg/batch.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::linalg {
namespace {

struct Shape {
  index_t m, n, k;
  Op op_a, op_b;
  Layout layout;
  double alpha, beta;
  index_t pad;  // added to every leading dimension
};

// Storage: one item's matrices, in vectors the item's views point into.
template <class T>
struct Storage {
  std::vector<T> a, b, c;
  GemmItem<T> item;
};

template <class T>
MatrixView<T> make_view(std::vector<T>& s, index_t rows, index_t cols, Layout layout, index_t pad,
                        std::mt19937_64& rng) {
  const index_t ld = (layout == Layout::col_major ? rows : cols) + pad;
  const index_t outer = layout == Layout::col_major ? cols : rows;
  s.assign(static_cast<std::size_t>(std::max<index_t>(1, ld * outer)), T(0));
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (T& v : s) v = static_cast<T>(entry(rng));
  const index_t legal_ld = std::max<index_t>(1, ld);
  return layout == Layout::col_major ? col_major(s.data(), rows, cols, legal_ld)
                                     : row_major(s.data(), rows, cols, legal_ld);
}

template <class T>
void make_item(Storage<T>& st, const Shape& p, std::mt19937_64& rng) {
  const bool ta = p.op_a == Op::transpose;
  const bool tb = p.op_b == Op::transpose;
  const auto a = make_view(st.a, ta ? p.k : p.m, ta ? p.m : p.k, p.layout, p.pad, rng);
  const auto b = make_view(st.b, tb ? p.n : p.k, tb ? p.k : p.n, p.layout, p.pad, rng);
  const auto c = make_view(st.c, p.m, p.n, p.layout, p.pad, rng);
  // beta == 0 must not read C: NaN there must not reach the result.
  if (p.beta == 0) std::fill(st.c.begin(), st.c.end(), std::numeric_limits<T>::quiet_NaN());
  st.item = {p.op_a, p.op_b, static_cast<T>(p.alpha), a, b, static_cast<T>(p.beta), c};
}

// mixed_shapes(): every combination of the edge cases, sizes from empty to a few tiles.
std::vector<Shape> mixed_shapes(std::size_t copies) {
  const index_t dims[][3] = {{0, 5, 3}, {4, 0, 3},   {3, 4, 0},   {1, 1, 1},   {5, 7, 3},
                             {8, 8, 8}, {17, 9, 13}, {32, 5, 40}, {24, 31, 16}};
  const double scalars[][2] = {{1, 0}, {0.75, -0.5}, {0, 0}, {0, 2}, {1, 1}, {-1.5, 0}};
  std::vector<Shape> shapes;
  std::size_t s = 0;
  for (std::size_t copy = 0; copy < copies; ++copy) {
    for (const auto& d : dims) {
      for (int ops = 0; ops < 4; ++ops, ++s) {
        const auto& sc = scalars[s % std::size(scalars)];
        shapes.push_back({d[0], d[1], d[2], ops & 1 ? Op::transpose : Op::none,
                          ops & 2 ? Op::transpose : Op::none,
                          s % 3 == 2 ? Layout::row_major : Layout::col_major, sc[0], sc[1],
                          static_cast<index_t>(s % 4 == 1 ? 3 : 0)});
      }
    }
  }
  return shapes;
}

template <class T>
std::vector<Storage<T>> make_batch(const std::vector<Shape>& shapes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Storage<T>> batch(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) make_item(batch[i], shapes[i], rng);
  return batch;
}

template <class T>
std::vector<GemmItem<T>> items_of(std::vector<Storage<T>>& batch) {
  std::vector<GemmItem<T>> items;
  for (auto& st : batch) items.push_back(st.item);
  return items;
}

// expect_same_c(): every C buffer (padding included) equal, bit for bit, and, once computed,
// free of NaN where beta == 0.
template <class T>
void expect_same_c(const std::vector<Storage<T>>& got, const std::vector<Storage<T>>& want,
                   bool computed = true) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    const GemmItem<T>& it = got[i].item;
    for (std::size_t e = 0; e < got[i].c.size(); ++e) {
      const T g = got[i].c[e];
      const T w = want[i].c[e];
      const bool both_nan = std::isnan(g) && std::isnan(w);
      ASSERT_TRUE(g == w || both_nan) << "item " << i << " element " << e << ": " << g << " vs "
                                      << w << " (m " << it.c.rows << " n " << it.c.cols << ")";
    }
    if (computed && it.beta == T(0)) {
      for (index_t j = 0; j < it.c.cols; ++j) {
        for (index_t r = 0; r < it.c.rows; ++r) ASSERT_FALSE(std::isnan(it.c(r, j))) << i;
      }
    }
  }
}

// loop_reference(): the same items through gemm(), one serial call each.
template <class T>
std::vector<Storage<T>> loop_reference(const std::vector<Shape>& shapes, unsigned seed) {
  auto want = make_batch<T>(shapes, seed);
  Exec serial;
  for (auto& st : want) {
    const GemmItem<T>& it = st.item;
    gemm<T>(it.op_a, it.op_b, it.alpha, it.a, it.b, it.beta, it.c, serial);
  }
  return want;
}

class GemmBatch : public ::testing::Test {
 protected:
  void SetUp() override {
    detail::set_section_observation(false);  // widths from the model alone: deterministic
    pool_ = team::Pool::builder().threads(2).build();
    team_ = std::make_unique<team::Team>(pool_->acquire(2));
  }
  void TearDown() override {
    team_.reset();
    pool_.reset();
    detail::set_section_observation(true);
  }

  template <class T>
  void check_against_loop(const std::vector<Shape>& shapes, team::Team* on, bool expect_wide) {
    auto got = make_batch<T>(shapes, 7);
    const auto want = loop_reference<T>(shapes, 7);
    const auto items = items_of(got);
    Exec exec;
    exec.team = on;
    gemm_batch<T>(items, exec);
    expect_same_c(got, want);
    if (expect_wide && team::usable_cpu_count() >= 2) {
      EXPECT_EQ(exec.stats.max_width_used, 2U);
      EXPECT_EQ(exec.stats.sections, 1U);
    }
  }

  std::unique_ptr<team::Pool> pool_;
  std::unique_ptr<team::Team> team_;
};

TEST_F(GemmBatch, MixedItemsEqualTheLoopSerially) {
  check_against_loop<double>(mixed_shapes(1), nullptr, false);
  check_against_loop<float>(mixed_shapes(1), nullptr, false);
}

TEST_F(GemmBatch, LargeBatchGoesWideOnTwoThreadsAndEqualsTheLoop) {
  check_against_loop<double>(mixed_shapes(24), team_.get(), true);
  check_against_loop<float>(mixed_shapes(24), team_.get(), true);
}

// A member that has not started (held before it serves anything): the leader takes its own
// run of units and then the member's (home_units.hpp), and the batch completes right without it.
TEST(GemmBatchHeldMember, TheLeaderTakesTheAbsentMembersUnits) {
  if (team::usable_cpu_count() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
  detail::set_section_observation(false);
  teamla::testing::HeldWorkerPool held(team::Pool::builder().threads(2));
  {
    team::Team team = held.pool->acquire(2);
    const std::vector<Shape> shapes = mixed_shapes(24);
    auto got = make_batch<double>(shapes, 5);
    const auto items = items_of(got);
    Exec exec;
    exec.team = &team;
    gemm_batch<double>(items, exec);
    EXPECT_EQ(exec.stats.max_width_used, 2U) << "planned wide";
    expect_same_c(got, loop_reference<double>(shapes, 5));
  }
  detail::set_section_observation(true);
}

TEST_F(GemmBatch, SmallBatchOnATeamRunsInline) {
  std::vector<Shape> shapes(4, Shape{2, 2, 2, Op::none, Op::none, Layout::col_major, 1, 0, 0});
  auto got = make_batch<double>(shapes, 3);
  const auto items = items_of(got);
  Exec exec;
  exec.team = team_.get();
  gemm_batch<double>(items, exec);
  EXPECT_EQ(exec.stats.max_width_used, 1U);
  EXPECT_EQ(exec.stats.sections, 0U);
  expect_same_c(got, loop_reference<double>(shapes, 3));
}

TEST_F(GemmBatch, EmptyAndSingleItemBatches) {
  Exec exec;
  exec.team = team_.get();
  gemm_batch<double>(std::span<const GemmItem<double>>{}, exec);
  EXPECT_EQ(exec.stats.max_width_used, 1U);
  const std::vector<Shape> one{{40, 30, 20, Op::transpose, Op::none, Layout::row_major, 0.5, 2, 1}};
  check_against_loop<double>(one, team_.get(), false);
}

TEST_F(GemmBatch, BadItemAnywhereLeavesEveryCUntouched) {
  auto shapes = mixed_shapes(12);
  for (std::size_t bad : {std::size_t{0}, shapes.size() / 2, shapes.size() - 1}) {
    for (team::Team* on : {static_cast<team::Team*>(nullptr), team_.get()}) {
      auto got = make_batch<double>(shapes, 11);
      const auto before = make_batch<double>(shapes, 11);
      auto items = items_of(got);
      items[bad].c.rows += 1;  // C no longer matches op(A) * op(B)
      Exec exec;
      exec.team = on;
      EXPECT_THROW(gemm_batch<double>(items, exec), InvalidArgument);
      items[bad].c.rows -= 1;
      items[bad].a.ld = -1;
      EXPECT_THROW(gemm_batch<double>(items, exec), InvalidArgument);
      expect_same_c(got, before, false);
    }
  }
}

// A batch large enough to go wide, with two bad items near its end: nothing is computed, and
// the lowest bad index is the one named (items[i], as InvalidArgument::argument()).
TEST_F(GemmBatch, BadItemsOnATeamStopTheBatchAndTheFirstIsNamed) {
  const auto shapes = mixed_shapes(24);
  const auto before = make_batch<double>(shapes, 13);
  for (int round = 0; round < 20; ++round) {
    auto got = make_batch<double>(shapes, 13);
    auto items = items_of(got);
    const auto r = static_cast<std::size_t>(round);
    const std::size_t first = round % 2 == 0 ? shapes.size() - 1 - r % 3 : shapes.size() / 3 + r;
    items[first].b.ld = 0;
    items.back().c.cols += 1;
    Exec exec;
    exec.team = team_.get();
    try {
      gemm_batch<double>(items, exec);
      FAIL() << "no InvalidArgument";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), "items[" + std::to_string(first) + "]") << e.what();
    }
    expect_same_c(got, before, false);
  }
}

TEST_F(GemmBatch, SourceFormEqualsTheLoop) {
  const auto shapes = mixed_shapes(8);
  auto got = make_batch<double>(shapes, 5);
  const auto items = items_of(got);
  const GemmBatchSource<double> source{
      items.size(), &items, [](const void* context, std::size_t i) {
        return (*static_cast<const std::vector<GemmItem<double>>*>(context))[i];
      }};
  Exec exec;
  exec.team = team_.get();
  gemm_batch<double>(source, exec);
  expect_same_c(got, loop_reference<double>(shapes, 5));
}

// Groups: consecutive items of one shape, their matrices given by pointer.
struct GroupedBatch {
  std::vector<Shape> shapes;       // one per item
  std::vector<std::size_t> sizes;  // items per group, in order
};

// grouped_batch(): every mixed shape as a group of 0-3 items (an empty group every fourth),
// enough work to go wide on two threads.
GroupedBatch grouped_batch() {
  GroupedBatch g;
  const auto kinds = mixed_shapes(16);
  for (std::size_t s = 0; s < kinds.size(); ++s) {
    const std::size_t size = s % 4 == 3 ? 0 : 1 + s % 3;
    g.sizes.push_back(size);
    for (std::size_t i = 0; i < size; ++i) g.shapes.push_back(kinds[s]);
  }
  return g;
}

// Pointers: the groups of a made batch, with arrays of its items' matrices.
struct GroupArrays {
  std::vector<const double*> a, b;
  std::vector<double*> c;
  std::vector<GemmGroup<double>> groups;
};

GroupArrays groups_of(std::vector<Storage<double>>& batch, const std::vector<std::size_t>& sizes) {
  GroupArrays arrays;
  for (auto& st : batch) {
    arrays.a.push_back(st.item.a.data);
    arrays.b.push_back(st.item.b.data);
    arrays.c.push_back(st.item.c.data);
  }
  std::size_t first = 0;
  for (const std::size_t size : sizes) {
    GemmGroup<double> group;
    // An empty group keeps the shape of the group before it (the first group is not empty).
    group.shape = size > 0 ? batch[first].item : arrays.groups.back().shape;
    group.shape.a.data = group.shape.b.data = nullptr;  // the shape's data are not read
    group.shape.c.data = nullptr;
    group.count = size;
    group.a = arrays.a.data() + first;
    group.b = arrays.b.data() + first;
    group.c = arrays.c.data() + first;
    arrays.groups.push_back(group);
    first += size;
  }
  return arrays;
}

// computing_group(): the first group of at least two items that computes a product.
std::size_t computing_group(const GroupArrays& arrays) {
  for (std::size_t g = 0; g < arrays.groups.size(); ++g) {
    const GemmItem<double>& s = arrays.groups[g].shape;
    if (arrays.groups[g].count >= 2 && s.alpha != 0 && s.c.rows > 0 && s.c.cols > 0 &&
        (s.op_a == Op::none ? s.a.cols : s.a.rows) > 0) {
      return g;
    }
  }
  return arrays.groups.size();
}

TEST_F(GemmBatch, GroupsEqualTheLoop) {
  const GroupedBatch g = grouped_batch();
  for (team::Team* on : {static_cast<team::Team*>(nullptr), team_.get()}) {
    auto got = make_batch<double>(g.shapes, 17);
    GroupArrays arrays = groups_of(got, g.sizes);
    Exec exec;
    exec.team = on;
    gemm_batch<double>(std::span<const GemmGroup<double>>(arrays.groups), exec);
    expect_same_c(got, loop_reference<double>(g.shapes, 17));
    if (on != nullptr && team::usable_cpu_count() >= 2) {
      EXPECT_EQ(exec.stats.sections, 1U);
    }
  }
}

TEST_F(GemmBatch, GroupsLeaveUnusedPointersUnread) {
  // alpha == 0: A and B are not read (null arrays); beta == 1 as well: C is not written either.
  std::vector<double> c(12, 5.0);
  double* c_items[] = {c.data(), c.data() + 6};
  GemmGroup<double> scale;
  scale.shape = {Op::none,
                 Op::none,
                 0.0,
                 col_major<const double>(nullptr, 2, 4),
                 col_major<const double>(nullptr, 4, 3),
                 2.0,
                 col_major<double>(nullptr, 2, 3)};
  scale.count = 2;
  scale.c = c_items;
  GemmGroup<double> nothing = scale;
  nothing.shape.beta = 1.0;
  nothing.c = nullptr;
  nothing.count = 5;
  const GemmGroup<double> groups[] = {nothing, scale};
  Exec exec;
  exec.team = team_.get();
  gemm_batch<double>(std::span<const GemmGroup<double>>(groups), exec);
  for (double v : c) EXPECT_EQ(v, 10.0);
}

TEST_F(GemmBatch, ABadGroupOrANullMatrixThrowsWithEveryCUntouched) {
  const GroupedBatch g = grouped_batch();
  const auto before = make_batch<double>(g.shapes, 19);
  // A null matrix is a NullBatchMatrix, whose fields name it as argument() does.
  struct NullFields {
    char array;
    std::optional<std::size_t> item;
  };
  const auto expect_rejected = [&](const auto& name, const char* tail,
                                   std::optional<NullFields> null, const auto& spoil) {
    auto got = make_batch<double>(g.shapes, 19);
    GroupArrays arrays = groups_of(got, g.sizes);
    const std::string argument = name(arrays, tail);
    const std::size_t group = computing_group(arrays);
    spoil(arrays);
    Exec exec;
    exec.team = team_.get();
    try {
      gemm_batch<double>(std::span<const GemmGroup<double>>(arrays.groups), exec);
      ADD_FAILURE() << "no InvalidArgument for " << argument;
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), argument) << e.what();
      const auto* null_matrix = dynamic_cast<const NullBatchMatrix*>(&e);
      ASSERT_EQ(null_matrix != nullptr, null.has_value()) << e.what();
      if (null_matrix != nullptr) {
        EXPECT_EQ(null_matrix->group(), group);
        EXPECT_EQ(null_matrix->array(), null->array);
        EXPECT_EQ(null_matrix->item(), null->item);
      }
    }
    expect_same_c(got, before, false);
  };
  {
    auto probe = make_batch<double>(g.shapes, 19);
    ASSERT_LT(computing_group(groups_of(probe, g.sizes)), g.sizes.size());
  }
  const auto name = [](const GroupArrays& x, const char* tail) {
    return "groups[" + std::to_string(computing_group(x)) + "]" + tail;
  };
  expect_rejected(name, "", std::nullopt, [](GroupArrays& x) {
    GemmItem<double>& shape = x.groups[computing_group(x)].shape;
    shape.c.ld = 0;  // below any C's inner dimension
  });
  expect_rejected(name, ".b[1]", NullFields{'b', 1}, [](GroupArrays& x) {
    const GemmGroup<double>& group = x.groups[computing_group(x)];
    x.b[static_cast<std::size_t>(group.b - x.b.data()) + 1] = nullptr;
  });
  expect_rejected(name, ".c", NullFields{'c', std::nullopt},
                  [](GroupArrays& x) { x.groups[computing_group(x)].c = nullptr; });
}

// Strided: one buffer per operand, item i at base + i * stride.
template <class T>
void check_strided(team::Team* on, Op op_a, Op op_b, Layout layout, index_t count) {
  const index_t m = 9, n = 7, k = 5, pad = 2;
  const index_t a_rows = op_a == Op::none ? m : k, a_cols = op_a == Op::none ? k : m;
  const index_t b_rows = op_b == Op::none ? k : n, b_cols = op_b == Op::none ? n : k;
  const auto ld = [&](index_t rows, index_t cols) {
    return (layout == Layout::col_major ? rows : cols) + pad;
  };
  const index_t sa = ld(a_rows, a_cols) * (layout == Layout::col_major ? a_cols : a_rows) + 1;
  const index_t sb = 0;  // one B shared by every item
  const index_t sc = ld(m, n) * (layout == Layout::col_major ? n : m) + 3;
  std::mt19937_64 rng(count);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  const index_t slots = std::max<index_t>(1, count);
  std::vector<T> a(static_cast<std::size_t>(sa * slots)), b(256);
  std::vector<T> c(static_cast<std::size_t>(sc * slots));
  for (T& v : a) v = static_cast<T>(entry(rng));
  for (T& v : b) v = static_cast<T>(entry(rng));
  for (T& v : c) v = static_cast<T>(entry(rng));
  auto want = c;
  const auto view = [&](auto* data, index_t rows, index_t cols) {
    return layout == Layout::col_major ? col_major(data, rows, cols, ld(rows, cols))
                                       : row_major(data, rows, cols, ld(rows, cols));
  };
  Exec serial;
  for (index_t i = 0; i < count; ++i) {
    gemm<T>(op_a, op_b, T(0.5), view(static_cast<const T*>(a.data() + i * sa), a_rows, a_cols),
            view(static_cast<const T*>(b.data()), b_rows, b_cols), T(-1),
            view(want.data() + i * sc, m, n), serial);
  }
  Exec exec;
  exec.team = on;
  gemm_batch_strided<T>(op_a, op_b, T(0.5), view(static_cast<const T*>(a.data()), a_rows, a_cols),
                        sa, view(static_cast<const T*>(b.data()), b_rows, b_cols), sb, T(-1),
                        view(c.data(), m, n), sc, count, exec);
  for (std::size_t e = 0; e < c.size(); ++e) ASSERT_EQ(c[e], want[e]) << e;
}

TEST_F(GemmBatch, StridedEqualsTheLoop) {
  for (team::Team* on : {static_cast<team::Team*>(nullptr), team_.get()}) {
    for (int ops = 0; ops < 4; ++ops) {
      const Op op_a = ops & 1 ? Op::transpose : Op::none;
      const Op op_b = ops & 2 ? Op::transpose : Op::none;
      check_strided<double>(on, op_a, op_b, Layout::col_major, 700);
      check_strided<float>(on, op_a, op_b, Layout::row_major, 700);
      check_strided<double>(on, op_a, op_b, Layout::row_major, 1);
      check_strided<double>(on, op_a, op_b, Layout::col_major, 0);
    }
  }
}

TEST_F(GemmBatch, StridedRejectsOverlappingCsAndNegativeArguments) {
  std::vector<double> a(64, 1.0), c(64, 42.0);
  const auto av = col_major<const double>(a.data(), 3, 3);
  const auto cv = col_major(c.data(), 3, 3, 4);  // spans 11 elements
  Exec exec;
  const auto run = [&](index_t sa, index_t sc, index_t count) {
    gemm_batch_strided<double>(Op::none, Op::none, 1.0, av, sa, av, 0, 0.0, cv, sc, count, exec);
  };
  EXPECT_THROW(run(0, 10, 2), InvalidArgument);
  EXPECT_THROW(run(-1, 11, 2), InvalidArgument);
  EXPECT_THROW(run(0, 11, -1), InvalidArgument);
  for (double v : c) ASSERT_EQ(v, 42.0);
  run(0, 11, 2);  // adjacent Cs are legal
  EXPECT_EQ(c[0], 3.0);
  EXPECT_EQ(c[11 + 10], 3.0);
}

}  // namespace
}  // namespace teamla::linalg
