// SPDX-License-Identifier: Apache-2.0
// level1_test.cpp: the level-1 routines (blas1.hpp) against a long-double oracle, exact where
// the result is exact, and against the reference BLAS 3.11 (Debian's libblas3, loaded by
// path with dlopen) where its edge cases are the specification.
//
// Every routine runs for the four scalar types over sizes around the lane and block widths and
// increments 1, 2, -1, -3 (mixed between x and y). Each vector lives in a buffer whose gaps
// and ends hold a sentinel: a strided write that strays shows.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "teamla/linalg/blas1.hpp"

namespace teamla::test {
namespace {

using linalg::index_t;
using linalg::is_complex_v;
using linalg::real_t;
using linalg::VectorView;
using LD = long double;
using LC = std::complex<long double>;

const index_t kSizes[] = {0, 1, 2, 3, 7, 8, 9, 31, 64, 100, 1000};
const index_t kIncs[] = {1, 2, -1, -3};

template <class T>
constexpr LD kEps = static_cast<LD>(std::numeric_limits<real_t<T>>::epsilon());

template <class T>
T make(real_t<T> re, real_t<T> im = 0) {
  if constexpr (is_complex_v<T>) {
    return T(re, im);
  } else {
    (void)im;
    return re;
  }
}

template <class T>
LC wide(T v) {
  if constexpr (is_complex_v<T>) {
    return {static_cast<LD>(v.real()), static_cast<LD>(v.imag())};
  } else {
    return {static_cast<LD>(v), 0};
  }
}

// mag(): |re| + |im|, the magnitude error bounds scale with.
template <class T>
LD mag(T v) {
  const LC w = wide(v);
  return std::fabs(w.real()) + std::fabs(w.imag());
}

template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-1, 1);
  const auto re = static_cast<real_t<T>>(d(rng));
  return make<T>(re, static_cast<real_t<T>>(d(rng)));
}

template <class T>
T sentinel() {
  return make<T>(static_cast<real_t<T>>(1234.5), static_cast<real_t<T>>(-8765.25));
}

// Strided: n elements `inc` apart in a buffer with one sentinel before and after, the gaps
// between elements holding sentinels too.
template <class T>
class Strided {
 public:
  Strided(index_t n, index_t inc, std::mt19937_64& rng) : n_(n), inc_(inc) {
    const index_t span = n == 0 ? 0 : (n - 1) * std::abs(inc) + 1;
    storage_.assign(static_cast<std::size_t>(span + 2), sentinel<T>());
    for (index_t i = 0; i < n; ++i) at(i) = random_value<T>(rng);
  }
  VectorView<T> view() { return linalg::strided(storage_.data() + 1, n_, inc_); }
  VectorView<const T> cview() const {
    return linalg::strided<const T>(storage_.data() + 1, n_, inc_);
  }
  // lowest(): the element at the lowest address, as BLAS's Fortran interface takes a vector.
  T* lowest() { return storage_.data() + 1; }
  T& at(index_t i) { return view()[i]; }
  T at(index_t i) const { return cview()[i]; }
  index_t size() const { return n_; }
  // gaps_intact(): every buffer slot that is not an element still holds the sentinel.
  bool gaps_intact() const {
    const auto slots = static_cast<index_t>(storage_.size());
    for (index_t k = 0; k < slots; ++k) {
      const bool element = k >= 1 && k < slots - 1 && (k - 1) % std::abs(inc_) == 0;
      if (!element && storage_[static_cast<std::size_t>(k)] != sentinel<T>()) return false;
    }
    return true;
  }
  std::vector<T> values() const {
    std::vector<T> v;
    for (index_t i = 0; i < n_; ++i) v.push_back(at(i));
    return v;
  }

 private:
  index_t n_;
  index_t inc_;
  std::vector<T> storage_;
};

template <class T>
void expect_close(T got, LC exact, LD tol) {
  const LC g = wide(got);
  EXPECT_LE(std::fabs(g.real() - exact.real()), tol) << "got " << got << " exact " << exact;
  EXPECT_LE(std::fabs(g.imag() - exact.imag()), tol) << "got " << got << " exact " << exact;
}

// For every size and pair of increments: f(n, incx, incy) under a trace naming them.
template <class F>
void for_each_pair(F&& f) {
  for (index_t n : kSizes) {
    for (index_t incx : kIncs) {
      for (index_t incy : kIncs) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " incx=" << incx << " incy=" << incy);
        f(n, incx, incy);
      }
    }
  }
}

template <class F>
void for_each_single(F&& f) {
  for (index_t n : kSizes) {
    for (index_t inc : kIncs) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " inc=" << inc);
      f(n, inc);
    }
  }
}

template <class T>
class Level1 : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Level1, ScalarTypes);

TYPED_TEST(Level1, DotMatchesLongDouble) {
  using T = TypeParam;
  for (bool conj : {false, true}) {
    for_each_pair([&](index_t n, index_t incx, index_t incy) {
      std::mt19937_64 rng(static_cast<unsigned>(n * 97 + incx * 7 + incy));
      const Strided<T> x(n, incx, rng);
      const Strided<T> y(n, incy, rng);
      LC exact = 0;
      LD scale = 0;
      for (index_t i = 0; i < n; ++i) {
        const LC xi = conj ? std::conj(wide(x.at(i))) : wide(x.at(i));
        exact += xi * wide(y.at(i));
        scale += mag(x.at(i)) * mag(y.at(i));
      }
      const T got = linalg::dot<T>(x.cview(), y.cview(), conj);
      expect_close(got, exact, (static_cast<LD>(n) + 4) * kEps<T> * scale);
    });
  }
}

TYPED_TEST(Level1, Nrm2AndAsumMatchLongDouble) {
  using T = TypeParam;
  for_each_single([&](index_t n, index_t inc) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 13 + inc));
    const Strided<T> x(n, inc, rng);
    LD sumsq = 0;
    LD sum = 0;
    for (index_t i = 0; i < n; ++i) {
      sumsq += std::norm(wide(x.at(i)));
      sum += mag(x.at(i));
    }
    const LD parts = static_cast<LD>(n * (is_complex_v<T> ? 2 : 1));
    const LD norm = std::sqrt(sumsq);
    EXPECT_LE(std::fabs(static_cast<LD>(linalg::nrm2<T>(x.cview())) - norm),
              (parts + 4) * kEps<T> * norm);
    EXPECT_LE(std::fabs(static_cast<LD>(linalg::asum<T>(x.cview())) - sum),
              (parts + 4) * kEps<T> * sum);
  });
}

TYPED_TEST(Level1, AxpyMatchesLongDouble) {
  using T = TypeParam;
  for_each_pair([&](index_t n, index_t incx, index_t incy) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 31 + incx * 5 + incy));
    const T alpha = random_value<T>(rng);
    const Strided<T> x(n, incx, rng);
    Strided<T> y(n, incy, rng);
    const std::vector<T> y0 = y.values();
    linalg::axpy<T>(alpha, x.cview(), y.view());
    for (index_t i = 0; i < n; ++i) {
      const LC exact = wide(y0[i]) + wide(alpha) * wide(x.at(i));
      expect_close(y.at(i), exact, 4 * kEps<T> * (mag(y0[i]) + mag(alpha) * mag(x.at(i))));
    }
    EXPECT_TRUE(y.gaps_intact());
  });
}

TYPED_TEST(Level1, AxpyWithZeroAlphaReadsNothing) {
  using T = TypeParam;
  std::mt19937_64 rng(3);
  Strided<T> x(9, 1, rng);
  Strided<T> y(9, -3, rng);
  for (index_t i = 0; i < 9; ++i) x.at(i) = make<T>(std::numeric_limits<real_t<T>>::quiet_NaN());
  const std::vector<T> y0 = y.values();
  linalg::axpy<T>(T(0), x.cview(), y.view());
  EXPECT_EQ(y.values(), y0);
}

TYPED_TEST(Level1, ScalMatchesTheProduct) {
  using T = TypeParam;
  using R = real_t<T>;
  for_each_single([&](index_t n, index_t inc) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 17 + inc));
    const T alpha = random_value<T>(rng);
    Strided<T> x(n, inc, rng);
    const std::vector<T> x0 = x.values();
    linalg::scal<T>(alpha, x.view());
    for (index_t i = 0; i < n; ++i) {
      if constexpr (is_complex_v<T>) {
        const LC exact = wide(alpha) * wide(x0[i]);
        expect_close(x.at(i), exact, 4 * kEps<T> * mag(alpha) * mag(x0[i]));
      } else {
        EXPECT_EQ(x.at(i), alpha * x0[i]);  // one rounding: exact
      }
    }
    EXPECT_TRUE(x.gaps_intact());
    if constexpr (is_complex_v<T>) {
      const R a = static_cast<R>(0.75);
      const std::vector<T> x1 = x.values();
      linalg::scal_real<T>(a, x.view());
      for (index_t i = 0; i < n; ++i) EXPECT_EQ(x.at(i), T(a * x1[i].real(), a * x1[i].imag()));
      EXPECT_TRUE(x.gaps_intact());
    }
  });
}

// iamax_oracle(): the reference's loop, magnitudes in T as it forms them.
template <class T>
index_t iamax_oracle(const std::vector<T>& v) {
  if (v.empty()) return -1;
  auto m = [](T t) {
    if constexpr (is_complex_v<T>) {
      return std::abs(t.real()) + std::abs(t.imag());
    } else {
      return std::abs(t);
    }
  };
  index_t at = 0;
  real_t<T> best = m(v[0]);
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (m(v[i]) > best) {
      best = m(v[i]);
      at = static_cast<index_t>(i);
    }
  }
  return at;
}

TYPED_TEST(Level1, IamaxMatchesTheReferenceLoop) {
  using T = TypeParam;
  using R = real_t<T>;
  for_each_single([&](index_t n, index_t inc) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 19 + inc));
    Strided<T> x(n, inc, rng);
    EXPECT_EQ(linalg::iamax<T>(x.cview()), iamax_oracle(x.values()));
    // Few distinct magnitudes: many ties, which the first must win.
    std::uniform_int_distribution<int> level(-4, 4);
    for (index_t i = 0; i < n; ++i) {
      x.at(i) = make<T>(static_cast<R>(level(rng)), static_cast<R>(level(rng)));
    }
    EXPECT_EQ(linalg::iamax<T>(x.cview()), iamax_oracle(x.values()));
  });
}

TYPED_TEST(Level1, SwapAndCopyAreExact) {
  using T = TypeParam;
  for_each_pair([&](index_t n, index_t incx, index_t incy) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 23 + incx * 3 + incy));
    Strided<T> x(n, incx, rng);
    Strided<T> y(n, incy, rng);
    const std::vector<T> x0 = x.values();
    const std::vector<T> y0 = y.values();
    linalg::swap<T>(x.view(), y.view());
    EXPECT_EQ(x.values(), y0);
    EXPECT_EQ(y.values(), x0);
    linalg::copy<T>(y.cview(), x.view());
    EXPECT_EQ(x.values(), x0);
    EXPECT_TRUE(x.gaps_intact());
    EXPECT_TRUE(y.gaps_intact());
  });
}

TYPED_TEST(Level1, RotMatchesLongDouble) {
  using T = TypeParam;
  using R = real_t<T>;
  for_each_pair([&](index_t n, index_t incx, index_t incy) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 29 + incx * 11 + incy));
    const R c = static_cast<R>(0.6);
    const R s = static_cast<R>(-0.8);
    Strided<T> x(n, incx, rng);
    Strided<T> y(n, incy, rng);
    const std::vector<T> x0 = x.values();
    const std::vector<T> y0 = y.values();
    linalg::rot<T>(x.view(), y.view(), c, s);
    const LD lc = static_cast<LD>(c);
    const LD ls = static_cast<LD>(s);
    for (std::size_t i = 0; i < x0.size(); ++i) {
      const LD scale = 4 * kEps<T> * (mag(x0[i]) + mag(y0[i]));
      expect_close(x.at(static_cast<index_t>(i)), lc * wide(x0[i]) + ls * wide(y0[i]), scale);
      expect_close(y.at(static_cast<index_t>(i)), lc * wide(y0[i]) - ls * wide(x0[i]), scale);
    }
    EXPECT_TRUE(x.gaps_intact());
    EXPECT_TRUE(y.gaps_intact());
  });
}

TYPED_TEST(Level1, SizeMismatchThrowsBeforeWriting) {
  using T = TypeParam;
  std::mt19937_64 rng(5);
  Strided<T> x(3, 1, rng);
  Strided<T> y(4, 2, rng);
  const std::vector<T> x0 = x.values();
  const std::vector<T> y0 = y.values();
  EXPECT_THROW((void)linalg::dot<T>(x.cview(), y.cview()), linalg::InvalidArgument);
  EXPECT_THROW(linalg::axpy<T>(T(1), x.cview(), y.view()), linalg::InvalidArgument);
  EXPECT_THROW(linalg::swap<T>(x.view(), y.view()), linalg::InvalidArgument);
  EXPECT_THROW(linalg::copy<T>(x.cview(), y.view()), linalg::InvalidArgument);
  EXPECT_THROW(linalg::rot<T>(x.view(), y.view(), 1, 0), linalg::InvalidArgument);
  EXPECT_EQ(x.values(), x0);
  EXPECT_EQ(y.values(), y0);
  EXPECT_TRUE(x.gaps_intact());
  EXPECT_TRUE(y.gaps_intact());
}

TYPED_TEST(Level1, EmptyVectors) {
  using T = TypeParam;
  const VectorView<T> e{};
  EXPECT_EQ(linalg::dot<T>(e, e), T(0));
  EXPECT_EQ(linalg::nrm2<T>(e), 0);
  EXPECT_EQ(linalg::asum<T>(e), 0);
  EXPECT_EQ(linalg::iamax<T>(e), -1);
  linalg::axpy<T>(T(2), e, e);
  linalg::scal<T>(T(2), e);
  linalg::swap<T>(e, e);
  linalg::copy<T>(e, e);
  linalg::rot<T>(e, e, 1, 0);
}

// ---- edge values --------------------------------------------------------------------------

template <class R>
constexpr R kNaN = std::numeric_limits<R>::quiet_NaN();
template <class R>
constexpr R kInf = std::numeric_limits<R>::infinity();

// extreme_scales(): magnitudes whose squares overflow or underflow R.
template <class R>
std::vector<R> extreme_scales() {
  if constexpr (std::is_same_v<R, double>) {
    return {1e300, 1e-300};
  } else {
    return {1e30F, 1e-30F};
  }
}

// A vector of n values, each part scale * u with |u| in [0.5, 1].
template <class T>
Strided<T> scaled(index_t n, index_t inc, real_t<T> scale, std::mt19937_64& rng) {
  using R = real_t<T>;
  std::uniform_real_distribution<R> u(static_cast<R>(0.5), 1);
  std::bernoulli_distribution negative;
  Strided<T> x(n, inc, rng);
  for (index_t i = 0; i < n; ++i) {
    const R re = scale * (negative(rng) ? -u(rng) : u(rng));
    x.at(i) = make<T>(re, scale * u(rng));
  }
  return x;
}

template <class T>
LD exact_norm(const Strided<T>& x) {
  LD s = 0;
  for (index_t i = 0; i < x.size(); ++i) s += std::norm(wide(x.at(i)));
  return std::sqrt(s);
}

TYPED_TEST(Level1, Nrm2NeitherOverflowsNorUnderflows) {
  using T = TypeParam;
  using R = real_t<T>;
  for (const R scale : extreme_scales<R>()) {
    for (index_t inc : {1, 2, -1}) {
      for (index_t n : {1, 7, 100}) {
        SCOPED_TRACE(::testing::Message() << "scale=" << scale << " n=" << n << " inc=" << inc);
        std::mt19937_64 rng(static_cast<unsigned>(n + inc));
        const Strided<T> x = scaled<T>(n, inc, scale, rng);
        const LD exact = exact_norm(x);
        const LD parts = static_cast<LD>(n * (is_complex_v<T> ? 2 : 1));
        EXPECT_LE(std::fabs(static_cast<LD>(linalg::nrm2<T>(x.cview())) - exact),
                  (parts / 2 + 2) * kEps<T> * exact);
      }
    }
  }
}

TYPED_TEST(Level1, Nrm2AtTheEndsOfTheRange) {
  using T = TypeParam;
  using R = real_t<T>;
  using Lim = std::numeric_limits<R>;
  const auto nrm2 = [](std::vector<T> v) {
    return linalg::nrm2<T>({v.data(), static_cast<index_t>(v.size()), 1});
  };
  // One element: its magnitude exactly, the largest and the smallest subnormal included.
  for (const R v : {Lim::max(), Lim::denorm_min(), -extreme_scales<R>()[0], Lim::min()}) {
    EXPECT_EQ(nrm2({make<T>(v)}), std::abs(v));
    if constexpr (is_complex_v<T>) {
      EXPECT_EQ(nrm2({T(0, v)}), std::abs(v));
    }
  }
  const R d = Lim::denorm_min();
  const R half = Lim::max() / 2;
  const LD root_half = std::sqrt(static_cast<LD>(0.5));
  const LD big = static_cast<LD>(Lim::max()) * root_half;
  if constexpr (is_complex_v<T>) {
    EXPECT_EQ(nrm2({T(3 * d, 4 * d)}), 5 * d);
    EXPECT_LE(std::fabs(static_cast<LD>(nrm2({T(half, half)})) - big), 2 * kEps<T> * big);
  } else {
    EXPECT_EQ(nrm2({3 * d, 4 * d}), 5 * d);
    EXPECT_LE(std::fabs(static_cast<LD>(nrm2({half, -half})) - big), 2 * kEps<T> * big);
  }
}

TYPED_TEST(Level1, Nrm2PropagatesNaNAndInf) {
  using T = TypeParam;
  using R = real_t<T>;
  for (index_t n : {1, 9, 100}) {
    for (index_t inc : {1, 2}) {
      for (index_t pos : {index_t{0}, n / 2, n - 1}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " inc=" << inc << " at " << pos);
        std::mt19937_64 rng(static_cast<unsigned>(n * 3 + pos));
        Strided<T> x = scaled<T>(n, inc, extreme_scales<R>()[1], rng);  // tiny: Blue's sums
        x.at(pos) = make<T>(kInf<R>, 1);
        EXPECT_EQ(linalg::nrm2<T>(x.cview()), kInf<R>);
        x.at((pos + 1) % n) = make<T>(is_complex_v<T> ? R(1) : kNaN<R>, kNaN<R>);  // complex: in im
        EXPECT_TRUE(std::isnan(linalg::nrm2<T>(x.cview())));
        Strided<T> y(n, inc, rng);  // mid range: the plain sum
        y.at(pos) = make<T>(kNaN<R>);
        EXPECT_TRUE(std::isnan(linalg::nrm2<T>(y.cview())));
        y.at(pos) = make<T>(-kInf<R>);
        EXPECT_EQ(linalg::nrm2<T>(y.cview()), kInf<R>);
      }
    }
  }
}

// iamax_of(): iamax over `values` laid out with `inc`.
template <class T>
index_t iamax_of(const std::vector<T>& values, index_t inc) {
  std::mt19937_64 rng(1);
  Strided<T> x(static_cast<index_t>(values.size()), inc, rng);
  for (std::size_t i = 0; i < values.size(); ++i) x.at(static_cast<index_t>(i)) = values[i];
  return linalg::iamax<T>(x.cview());
}

TYPED_TEST(Level1, IamaxTiesAndNaN) {
  using T = TypeParam;
  using R = real_t<T>;
  const auto v = [](std::initializer_list<R> list) {
    std::vector<T> out;
    for (R r : list) out.push_back(make<T>(r));
    return out;
  };
  const R nan = kNaN<R>;
  for (index_t inc : {1, 2, -1}) {
    SCOPED_TRACE(::testing::Message() << "inc=" << inc);
    EXPECT_EQ(iamax_of(v({1, -3, 3, 2}), inc), 1);  // ties: the first
    EXPECT_EQ(iamax_of(v({nan, 5, 7}), inc), 0);    // a NaN first: nothing is larger
    EXPECT_EQ(iamax_of(v({1, nan, 3, nan, 2}), inc), 2);
    EXPECT_EQ(iamax_of(v({nan, nan, nan}), inc), 0);
    EXPECT_EQ(iamax_of(v({1, kInf<R>, -kInf<R>}), inc), 1);
    EXPECT_EQ(iamax_of(v({R(-0.0), R(0)}), inc), 0);
    // Past one block of the contiguous path: ties across blocks, NaN first, max last.
    std::vector<T> x(1000, make<T>(1));
    x[500] = make<T>(nan);
    x[700] = make<T>(5);
    x[900] = make<T>(-5);
    EXPECT_EQ(iamax_of(x, inc), 700);
    x[63] = make<T>(5);
    x[64] = make<T>(5);
    EXPECT_EQ(iamax_of(x, inc), 63);
    x[999] = make<T>(6);
    EXPECT_EQ(iamax_of(x, inc), 999);
    x[0] = make<T>(nan);
    EXPECT_EQ(iamax_of(x, inc), 0);
  }
}

TYPED_TEST(Level1, ScalByZeroKeepsNaN) {
  using T = TypeParam;
  using R = real_t<T>;
  std::vector<T> x{make<T>(kNaN<R>), make<T>(kInf<R>), make<T>(1), make<T>(-2)};
  linalg::scal<T>(T(0), {x.data(), 4, 1});
  EXPECT_TRUE(std::isnan(wide(x[0]).real()));
  EXPECT_TRUE(std::isnan(wide(x[1]).real()));  // 0 * Inf
  EXPECT_EQ(x[2], T(0));
  EXPECT_EQ(x[3], T(0));
}

template <class T>
class ComplexLevel1 : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ComplexLevel1, ComplexTypes);

TYPED_TEST(ComplexLevel1, IamaxUsesAbsRePlusAbsIm) {
  using T = TypeParam;
  using R = typename T::value_type;
  for (index_t inc : {1, 2, -1}) {
    SCOPED_TRACE(::testing::Message() << "inc=" << inc);
    EXPECT_EQ(iamax_of<T>({T(1, 2), T(2, 1), T(-3, 0), T(0, 3)}, inc), 0);
    EXPECT_EQ(iamax_of<T>({T(1, 1), T(0, -3), T(3, 0), T(-2, -1)}, inc), 1);
    EXPECT_EQ(iamax_of<T>({T(2, 2), T(0, R(3.5))}, inc), 0);  // the modulus would pick 1
    EXPECT_EQ(iamax_of<T>({T(1, kNaN<R>), T(0, 1)}, inc), 0);
  }
}

// The reference's complex products have no Inf/NaN recovery, and zscal skips alpha == 1.
TYPED_TEST(ComplexLevel1, InfAndNaNFollowTheReference) {
  using T = TypeParam;
  using R = typename T::value_type;
  const R inf = kInf<R>;
  std::vector<T> x{T(1, inf)};
  linalg::scal<T>(T(1), {x.data(), 1, 1});
  EXPECT_EQ(x[0], T(1, inf));
  linalg::scal<T>(T(2), {x.data(), 1, 1});
  EXPECT_TRUE(std::isnan(x[0].real()));
  EXPECT_EQ(x[0].imag(), inf);
  x[0] = T(1, inf);
  linalg::scal_real<T>(2, {x.data(), 1, 1});
  EXPECT_EQ(x[0], T(2, inf));
  x[0] = T(kNaN<R>, 1);
  linalg::scal<T>(T(0), {x.data(), 1, 1});
  EXPECT_TRUE(std::isnan(x[0].real()) && std::isnan(x[0].imag()));
  x[0] = T(1, inf);
  std::vector<T> y{T(1, 1)};
  linalg::rot<T>({x.data(), 1, 1}, {y.data(), 1, 1}, 1, 0);  // (1, 0) * x: 0 * Inf in re
  EXPECT_TRUE(std::isnan(x[0].real()));
  EXPECT_EQ(x[0].imag(), inf);
  EXPECT_TRUE(std::isnan(y[0].real()) && std::isnan(y[0].imag()));
}

// ---- the reference BLAS -------------------------------------------------------------------
// Debian's reference libblas3 (3.11), loaded by its path and privately: linked with -lblas, the
// name would resolve to whichever BLAS the system's alternatives select (often OpenBLAS).

void* reference_blas() {
  static void* lib = dlopen("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", RTLD_NOW | RTLD_LOCAL);
  return lib;
}

template <class F>
F reference(const std::string& name) {
  void* lib = reference_blas();
  return lib == nullptr ? nullptr : reinterpret_cast<F>(dlsym(lib, name.c_str()));
}

// Fortran's names: prefix("d", "s", "z", "c") and the complex-with-real forms ("dz", "zd").
template <class T>
std::string letter() {
  if constexpr (std::is_same_v<T, double>) return "d";
  if constexpr (std::is_same_v<T, float>) return "s";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "z";
  return "c";
}

// same(): equal bits, or both NaN (the sign of a NaN is not specified).
template <class R>
bool same(R a, R b) {
  return std::isnan(a) ? std::isnan(b) : a == b && std::signbit(a) == std::signbit(b);
}
template <class R>
bool same(std::complex<R> a, std::complex<R> b) {
  return same(a.real(), b.real()) && same(a.imag(), b.imag());
}

template <class T>
using Nrm2Fn = real_t<T> (*)(const int*, const T*, const int*);
template <class T>
using IamaxFn = int (*)(const int*, const T*, const int*);

#define TEAMLA_REFERENCE_OR_SKIP(fn) \
  if ((fn) == nullptr) GTEST_SKIP() << "reference BLAS not found"

TEST(Level1Reference, DdotAndZdotc) {
  using DotFn = double (*)(const int*, const double*, const int*, const double*, const int*);
  using Z = std::complex<double>;
  using ZdotFn = Z (*)(const int*, const Z*, const int*, const Z*, const int*);
  const auto ddot = reference<DotFn>("ddot_");
  const auto zdotc = reference<ZdotFn>("zdotc_");
  TEAMLA_REFERENCE_OR_SKIP(ddot);
  for_each_pair([&](index_t n, index_t incx, index_t incy) {
    std::mt19937_64 rng(static_cast<unsigned>(n + 100 * incx + incy));
    Strided<double> x(n, incx, rng), y(n, incy, rng);
    Strided<Z> zx(n, incx, rng), zy(n, incy, rng);
    const int nn = static_cast<int>(n), ix = static_cast<int>(incx), iy = static_cast<int>(incy);
    const double ref = ddot(&nn, x.lowest(), &ix, y.lowest(), &iy);
    const Z zref = zdotc(&nn, zx.lowest(), &ix, zy.lowest(), &iy);
    const double got = linalg::dot<double>(x.cview(), y.cview());
    const Z zgot = linalg::dot<Z>(zx.cview(), zy.cview(), true);
    if (incx == 1 && incy == 1) {  // summed in lanes: the same up to rounding
      EXPECT_NEAR(got, ref, 1e-13 * (1 + static_cast<double>(n)));
      EXPECT_NEAR(std::abs(zgot - zref), 0, 1e-13 * (1 + static_cast<double>(n)));
    } else {  // the reference's order: the same bits
      EXPECT_TRUE(same(got, ref)) << got << " vs " << ref;
      EXPECT_TRUE(same(zgot, zref)) << zgot << " vs " << zref;
    }
  });
}

// Vectors in each of Blue's ranges. Where Blue's sums run (tiny, or a huge part) the result is
// the reference's bit for bit (same order); the plain vectorized sum is within rounding.
TYPED_TEST(Level1, Nrm2MatchesTheReference) {
  using T = TypeParam;
  using R = real_t<T>;
  const std::string name = is_complex_v<T> ? (letter<R>() + letter<T>()) : letter<T>();
  const auto ref_nrm2 = reference<Nrm2Fn<T>>(name + "nrm2_");
  TEAMLA_REFERENCE_OR_SKIP(ref_nrm2);
  for_each_single([&](index_t n, index_t inc) {
    std::mt19937_64 rng(static_cast<unsigned>(n * 7 + inc));
    const int nn = static_cast<int>(n), ii = static_cast<int>(inc);
    for (int kind = 0; kind < 4; ++kind) {
      // 0: mid range; 1: tiny; 2: tiny and mid; 3: mid and a huge part.
      Strided<T> x = scaled<T>(n, inc, kind == 1 ? extreme_scales<R>()[1] : R(1), rng);
      if (kind == 2 && n > 1) x.at(n / 2) = make<T>(extreme_scales<R>()[1]);
      if (kind == 3 && n > 1) x.at(n / 2) = make<T>(-extreme_scales<R>()[0]);
      const R ref = ref_nrm2(&nn, x.lowest(), &ii);
      const R got = linalg::nrm2<T>(x.cview());
      SCOPED_TRACE(::testing::Message() << "kind=" << kind << " ref=" << ref << " got=" << got);
      if (kind == 1 || kind == 3 || inc != 1) {
        EXPECT_TRUE(same(got, ref));
      } else {
        EXPECT_LE(std::fabs(static_cast<LD>(got) - static_cast<LD>(ref)),
                  static_cast<LD>(n + 4) * kEps<T> * static_cast<LD>(ref));
      }
    }
  });
}

TYPED_TEST(Level1, IamaxMatchesTheReference) {
  using T = TypeParam;
  using R = real_t<T>;
  const auto ref_iamax = reference<IamaxFn<T>>("i" + letter<T>() + "amax_");
  TEAMLA_REFERENCE_OR_SKIP(ref_iamax);
  std::uniform_int_distribution<int> level(-3, 3);
  for (index_t n : kSizes) {
    for (index_t inc : {1, 2}) {  // the reference returns 0 for inc <= 0
      for (int nans : {0, 1, 3}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " inc=" << inc << " nans=" << nans);
        std::mt19937_64 rng(static_cast<unsigned>(n * 5 + inc + nans));
        Strided<T> x(n, inc, rng);
        for (index_t i = 0; i < n; ++i) {
          x.at(i) = make<T>(static_cast<R>(level(rng)), static_cast<R>(level(rng)));
        }
        std::uniform_int_distribution<index_t> where(0, n > 0 ? n - 1 : 0);
        for (int k = 0; k < nans && n > 0; ++k) x.at(where(rng)) = make<T>(kNaN<R>);
        const int nn = static_cast<int>(n), ii = static_cast<int>(inc);
        EXPECT_EQ(linalg::iamax<T>(x.cview()) + 1, ref_iamax(&nn, x.lowest(), &ii));
      }
    }
  }
}

// edge_values(): parts that make complex products differ between formulas: Inf, NaN, zeros of
// both signs.
template <class T>
std::vector<T> edge_values() {
  using R = typename T::value_type;
  const R inf = kInf<R>;
  const R nan = kNaN<R>;
  return {T(1, inf),     T(inf, 1),     T(nan, 1), T(1, nan),   T(-inf, R(-0.0)),
          T(0, R(-0.0)), T(R(-0.0), 0), T(2, -3),  T(inf, inf), T(R(-0.5), R(0.25))};
}

TYPED_TEST(ComplexLevel1, EdgesMatchTheReference) {
  using T = TypeParam;
  using R = typename T::value_type;
  using ScalFn = void (*)(const int*, const T*, T*, const int*);
  using ScalRealFn = void (*)(const int*, const R*, T*, const int*);
  using RotFn = void (*)(const int*, T*, const int*, T*, const int*, const R*, const R*);
  using AxpyFn = void (*)(const int*, const T*, const T*, const int*, T*, const int*);
  const std::string z = letter<T>();
  const std::string zd = z + letter<R>();  // zdscal, zdrot; csscal, csrot
  const auto ref_scal = reference<ScalFn>(z + "scal_");
  const auto ref_scal_real = reference<ScalRealFn>(zd + "scal_");
  const auto ref_rot = reference<RotFn>(zd + "rot_");
  const auto ref_axpy = reference<AxpyFn>(z + "axpy_");
  TEAMLA_REFERENCE_OR_SKIP(ref_scal);
  const std::vector<T> x0 = edge_values<T>();
  std::vector<T> y0 = x0;
  std::rotate(y0.begin(), y0.begin() + 3, y0.end());
  const int n = static_cast<int>(x0.size());
  const int one = 1;
  const auto view = [](std::vector<T>& v) { return VectorView<T>{v.data(), index_t(v.size()), 1}; };
  const auto expect_same = [](const std::vector<T>& got, const std::vector<T>& ref) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(same(got[i], ref[i])) << "element " << i << ": " << got[i] << " vs " << ref[i];
    }
  };
  for (const T alpha : edge_values<T>()) {
    for (const T a : {alpha, T(1), T(0), T(0, 1)}) {
      SCOPED_TRACE(::testing::Message() << "alpha=" << a);
      std::vector<T> got = x0, ref = x0;
      linalg::scal<T>(a, view(got));
      ref_scal(&n, &a, ref.data(), &one);
      expect_same(got, ref);
      got = y0, ref = y0;
      linalg::axpy<T>(a, VectorView<const T>{x0.data(), n, 1}, view(got));
      ref_axpy(&n, &a, x0.data(), &one, ref.data(), &one);
      expect_same(got, ref);
      const R c = a.real();
      const R s = a.imag();
      std::vector<T> gx = x0, gy = y0, rx = x0, ry = y0;
      linalg::rot<T>(view(gx), view(gy), c, s);
      ref_rot(&n, rx.data(), &one, ry.data(), &one, &c, &s);
      expect_same(gx, rx);
      expect_same(gy, ry);
      got = x0, ref = x0;
      linalg::scal_real<T>(c, view(got));
      ref_scal_real(&n, &c, ref.data(), &one);
      expect_same(got, ref);
    }
  }
}

}  // namespace
}  // namespace teamla::test
