// SPDX-License-Identifier: Apache-2.0
// soak_check.hpp: the checked calls of the soak. Each builds its operands (column-major,
// padded leading dimensions), makes one library call through a Backend, and compares the
// result with a naive reference in double, entry by entry, against a rounding-error bound of
// the shape: |got - want| <= c * eps(T) * (depth + 2) * S, S the same sum taken over absolute
// values (the standard componentwise bound of a dot product of that depth, with slack c).
// A real defect (a missed block, a race, a stale buffer) gives errors of the order of S
// itself, orders of magnitude past the bound, while correct rounding stays far below it.
//
// Beyond the value: padding rows and the triangle a routine must not write are compared bit
// for bit, inputs must come back unchanged, and what the reference routines never read is
// NaN (C when beta == 0, A and B when alpha == 0, the other triangle, a unit diagonal), so
// reading it shows up as a wrong result.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "soak.hpp"

namespace soak {

inline double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// Mat: a rows x cols column-major matrix in a buffer of leading dimension ld >= rows; the
// padding rows hold `pad` (NaN for inputs, a sentinel for outputs).
template <class T>
struct Mat {
  int rows = 0, cols = 0, ld = 1;
  std::vector<T> data;

  Mat(int r, int c, int extra_ld, T pad)
      : rows(r),
        cols(c),
        ld(std::max(1, r + extra_ld)),
        data(static_cast<std::size_t>(ld) * std::max(1, c), pad) {}
  T& operator()(int i, int j) { return data[i + static_cast<std::size_t>(j) * ld]; }
  T operator()(int i, int j) const { return data[i + static_cast<std::size_t>(j) * ld]; }
  void fill(Rng& rng, double lo, double hi) {
    for (int j = 0; j < cols; ++j) {
      for (int i = 0; i < rows; ++i) (*this)(i, j) = static_cast<T>(uniform(rng, lo, hi));
    }
  }
  void set(T value) {
    for (int j = 0; j < cols; ++j) {
      for (int i = 0; i < rows; ++i) (*this)(i, j) = value;
    }
  }
  // same(): bit-for-bit equality of the whole buffer (NaN equals NaN).
  bool same(const Mat& o) const {
    return std::memcmp(data.data(), o.data.data(), data.size() * sizeof(T)) == 0;
  }
};

template <class T>
constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
template <class T>
constexpr T kSentinel = T(-12345.5);  // in output padding and unwritten triangles

// Verdict: the worst entry of one check, as a ratio to its bound (> 1, or NaN: wrong).
struct Verdict {
  double ratio = 0;
  std::string where;

  void value(double got, double want, double bound, int i, int j);
  void exact(double got, double want, int i, int j, const char* what);
  [[nodiscard]] bool wrong() const { return !(ratio <= 1.0); }
};

// The padding rows (i >= rows) of every column of `after` equal those of `before`.
template <class T>
void check_padding(const Mat<T>& before, const Mat<T>& after, Verdict& v) {
  for (int j = 0; j < before.cols; ++j) {
    for (int i = before.rows; i < before.ld; ++i) {
      v.exact(after(i, j), before(i, j), i, j, "padding");
    }
  }
}

struct GemmArgs {
  char ta, tb;
  int m, n, k, pad_a, pad_b, pad_c;
  double alpha, beta;
};
struct TrsmArgs {
  char side, uplo, ta, diag;
  int m, n, pad_a, pad_b;
  double alpha;
};
struct SyrkArgs {
  char uplo, trans;
  int n, k, pad_a, pad_c;
  double alpha, beta;
};
struct CholArgs {
  char uplo;
  int n, nrhs, pad_a, pad_b;
  int bad_column;  // potrf only: -1, or the column whose diagonal is made negative
};

// Each check makes its call(s) through `tracker` (timing, counting, exceptions) and reports
// a wrong result there, with `args` describing the call.
template <class T>
void check_gemm(Backend& be, bool abi, const GemmArgs& g, Rng& rng, Tracker& tracker);
template <class T>
void check_trsm(Backend& be, bool abi, const TrsmArgs& t, Rng& rng, Tracker& tracker);
template <class T>
void check_syrk(Backend& be, bool abi, const SyrkArgs& s, Rng& rng, Tracker& tracker);
template <class T>
void check_potrf(Backend& be, bool abi, const CholArgs& c, Rng& rng, Tracker& tracker);
template <class T>
void check_potrs(Backend& be, bool abi, const CholArgs& c, Rng& rng, Tracker& tracker);

// timed(): runs `call` as library call `row`, described by `args`; an exception is a failure.
// Returns false when the call threw (its output is then not checked).
template <class F>
bool timed(Tracker& tracker, int row, const std::string& args, F&& call) {
  tracker.begin(args);
  try {
    call();
  } catch (const std::exception& e) {
    tracker.end(row, args);
    tracker.problem(row, false, args + ": threw: " + e.what());
    return false;
  }
  tracker.end(row, args);
  return true;
}

// report(): a wrong result of `row` when the verdict says so.
void report(Tracker& tracker, int row, const std::string& args, const Verdict& v);

template <class T>
constexpr char prefix() {
  return sizeof(T) == sizeof(double) ? 'd' : 's';
}
template <class T>
constexpr double eps() {
  return std::numeric_limits<T>::epsilon();
}

}  // namespace soak
