// SPDX-License-Identifier: Apache-2.0
// chol_test_util.hpp: shared fixtures of the TRSM/SYRK/POTRF/POTRS tests: padded matrices of
// either layout, SPD generators, the ISA paths this CPU can run, and teams of a given width.
#pragma once

#include <cmath>
#include <future>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa_dispatch.hpp"
#include "plan/width_internal.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::test {

using linalg::index_t;
using linalg::Layout;
using linalg::MatrixView;

// Padded: rows x cols in `layout` with `pad` extra elements per leading dimension; the
// padding holds a sentinel so that writes outside the view are detected.
template <class T>
struct Padded {
  index_t rows = 0;
  index_t cols = 0;
  index_t ld = 1;
  Layout layout = Layout::col_major;
  std::vector<T> storage;

  Padded(index_t r, index_t c, Layout l, index_t pad, T fill = T(0)) : rows(r), cols(c), layout(l) {
    ld = std::max<index_t>(1, (l == Layout::col_major ? r : c) + pad);
    const index_t outer = l == Layout::col_major ? c : r;
    storage.assign(static_cast<std::size_t>(ld * std::max<index_t>(outer, 1)), fill);
  }
  MatrixView<T> view() { return {storage.data(), rows, cols, ld, layout}; }
  MatrixView<const T> cview() const { return {storage.data(), rows, cols, ld, layout}; }
  T& at(index_t i, index_t j) { return view()(i, j); }
  T at(index_t i, index_t j) const { return cview()(i, j); }
};

inline std::vector<linalg::detail::Isa> supported_isas() {
  std::vector<linalg::detail::Isa> isas;
  for (auto isa :
       {linalg::detail::Isa::ref, linalg::detail::Isa::avx2, linalg::detail::Isa::avx512}) {
    if (linalg::detail::isa_supported(isa)) isas.push_back(isa);
  }
  return isas;
}

// IsaScope forces an ISA for its lifetime.
struct IsaScope {
  explicit IsaScope(linalg::detail::Isa isa) { linalg::detail::force_isa(isa); }
  ~IsaScope() { linalg::detail::clear_isa_override(); }
  IsaScope(const IsaScope&) = delete;
  IsaScope& operator=(const IsaScope&) = delete;
};

// random_spd(): a symmetric, diagonally dominant (hence SPD) matrix with entries in [-1, 1]
// off the diagonal and n + [0, 1) on it, written to both triangles.
template <class T>
void random_spd(Padded<T>& a, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> off(-1.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const index_t n = a.rows;
  for (index_t j = 0; j < n; ++j) {
    a.at(j, j) = static_cast<T>(static_cast<double>(n) + unit(rng));
    for (index_t i = j + 1; i < n; ++i) {
      const T v = static_cast<T>(off(rng));
      a.at(i, j) = v;
      a.at(j, i) = v;
    }
  }
}

// pivot_at(): the Schur-complement pivot of column c (0-based) of a symmetric matrix, in
// long double (an independent naive Cholesky of the leading (c+1) x (c+1) block).
template <class T>
long double pivot_at(const Padded<T>& a, index_t c) {
  const index_t m = c + 1;
  std::vector<long double> l(static_cast<std::size_t>(m * m), 0.0L);
  for (index_t j = 0; j < m; ++j) {
    long double d = a.at(j, j);
    for (index_t p = 0; p < j; ++p) d -= l[j + p * m] * l[j + p * m];
    if (j == c) return d;
    const long double s = std::sqrt(d);
    l[j + j * m] = s;
    for (index_t i = j + 1; i < m; ++i) {
      long double v = a.at(i, j);
      for (index_t p = 0; p < j; ++p) v -= l[i + p * m] * l[j + p * m];
      l[i + j * m] = v / s;
    }
  }
  return 0;
}

struct TeamHolder {
  std::unique_ptr<team::Pool> pool;
  std::unique_ptr<team::Team> team;
  explicit TeamHolder(std::size_t width) {
    pool = team::Pool::builder().threads(width).build();
    team = std::make_unique<team::Team>(pool->acquire(width));
  }
  ~TeamHolder() { team.reset(); }
};

// HeldMemberTeam: a team of 2 whose member is held in its on-start hook until the fixture is
// destroyed, so that every section runs without it (claimed sections must not wait for it).
struct HeldMemberTeam {
  std::promise<void> release;
  std::unique_ptr<team::Pool> pool;
  std::unique_ptr<team::Team> team;
  HeldMemberTeam() {
    std::shared_future<void> released = release.get_future().share();
    pool = team::Pool::builder()
               .threads(2)
               .on_start([released](std::size_t) { released.wait(); })
               .build();
    team = std::make_unique<team::Team>(pool->acquire(2));
  }
  ~HeldMemberTeam() {
    release.set_value();
    team.reset();
  }
  HeldMemberTeam(const HeldMemberTeam&) = delete;
  HeldMemberTeam& operator=(const HeldMemberTeam&) = delete;
};

inline const char* layout_name(Layout l) { return l == Layout::col_major ? "col" : "row"; }

}  // namespace teamla::test

// Width decisions in the Cholesky tests come from the cost table alone: the observed-load
// penalty (width.hpp) would make the widths these tests assert depend on whatever else the
// machine runs (ctest -j2 runs two suites at once). Registered once per test binary.
class TableWidthsEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { teamla::linalg::detail::set_section_observation(false); }
};
inline ::testing::Environment* const kTableWidthsEnvironment =
    ::testing::AddGlobalTestEnvironment(new TableWidthsEnvironment);
