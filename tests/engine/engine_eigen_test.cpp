// SPDX-License-Identifier: Apache-2.0
// engine_eigen_test.cpp: CpuEngine on Eigen matrices.
//
// Contract covered: CpuEngine works on Eigen matrices in place, without copies: Matrix, Map
// (with an outer stride), Ref, Block and transpose(), column- and row-major and mixed, double
// and float; the view aliases the Eigen storage; an inner stride other than 1 is an
// InvalidArgument; results match Eigen's own products and LLT. The complex products run too.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>
#include <vector>

#include "teamla/engine/eigen.hpp"

namespace teamla::engine {
namespace {

using ColD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using RowD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ColF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using RowF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

CpuEngine& engine() {
  static CpuEngine shared(EngineConfig{.threads = 2, .mode = Mode::held});
  return shared;
}

template <class M>
M spd(Eigen::Index n) {
  M g = M::Random(n, n);
  M a = g * g.transpose() / double(n);
  a.diagonal().array() += 1;
  return a;
}

TEST(EngineEigen, ViewsAliasTheStorage) {
  ColD a = ColD::Random(6, 5);
  RowD r = RowD::Random(6, 5);
  auto va = as_view(a);
  EXPECT_EQ(va.data, a.data());
  EXPECT_EQ(va.ld, 6);
  EXPECT_EQ(va.layout, Layout::col_major);
  auto vr = as_view(r);
  EXPECT_EQ(vr.data, r.data());
  EXPECT_EQ(vr.ld, 5);
  EXPECT_EQ(vr.layout, Layout::row_major);
  auto block = as_view(a.block(1, 2, 3, 2));
  EXPECT_EQ(block.data, &a(1, 2));
  EXPECT_EQ(block.ld, 6);
  EXPECT_EQ(block.rows, 3);
  const ColD& constant = a;
  static_assert(std::is_same_v<decltype(as_view(constant).data), const double*>);
}

template <class MA, class MB, class MC>
void check_gemm(double tolerance) {
  MA a = MA::Random(130, 90);
  MB b = MB::Random(90, 110);
  MC c = MC::Random(130, 110);
  const MC expected = 2 * (a * b).eval() + 0.5 * c;
  engine().gemm(Op::none, Op::none, 2, a, b, 0.5, c);
  EXPECT_LE((c - expected).cwiseAbs().maxCoeff(), tolerance);
}

TEST(EngineEigen, GemmInEveryLayoutCombination) {
  check_gemm<ColD, ColD, ColD>(1e-11);
  check_gemm<RowD, RowD, RowD>(1e-11);
  check_gemm<RowD, ColD, ColD>(1e-11);
  check_gemm<ColD, RowD, RowD>(1e-11);
  check_gemm<ColF, ColF, ColF>(1e-3);
  check_gemm<RowF, RowF, ColF>(1e-3);
}

TEST(EngineEigen, OutputsCanBeBlocksMapsAndRefs) {
  ColD a = ColD::Random(40, 30), b = ColD::Random(30, 20);
  ColD big = ColD::Zero(50, 30);
  engine().gemm(Op::none, Op::none, 1.0, a, b, 0.0, big.block(5, 7, 40, 20));
  EXPECT_LE((big.block(5, 7, 40, 20) - a * b).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(big.block(0, 0, 5, 30).cwiseAbs().maxCoeff(), 0.0) << "outside the block untouched";

  std::vector<double> storage(45 * 20, 0.0);  // outer stride 45 > 40 rows
  Eigen::Map<ColD, 0, Eigen::OuterStride<>> mapped(storage.data(), 40, 20,
                                                   Eigen::OuterStride<>(45));
  Eigen::Ref<const ColD> a_ref(a);
  engine().gemm(Op::none, Op::none, 1.0, a_ref, b, 0.0, mapped);
  EXPECT_LE((mapped - a * b).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(storage[40], 0.0) << "the padding of the map is untouched";

  ColD c = ColD::Zero(40, 20);
  Eigen::Ref<ColD> c_ref(c);
  engine().gemm(Op::none, Op::none, 1.0, a, b, 0.0, c_ref);
  EXPECT_LE((c - a * b).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(EngineEigen, TransposedExpressionsAreViewsToo) {
  ColD a = ColD::Random(70, 50), b = ColD::Random(70, 40);
  ColD c = ColD::Zero(50, 40);
  // a.transpose() has direct access: a row-major view of a's storage, no copy.
  EXPECT_EQ(as_view(a.transpose()).data, a.data());
  engine().gemm(Op::none, Op::none, 1.0, a.transpose(), b, 0.0, c);
  EXPECT_LE((c - a.transpose() * b).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(EngineEigen, NonUnitInnerStrideIsRejected) {
  std::vector<double> storage(2 * 16, 1.0);
  Eigen::Map<ColD, 0, Eigen::Stride<8, 2>> strided(storage.data(), 4, 4);
  ColD b = ColD::Random(4, 4), c = ColD::Zero(4, 4);
  try {
    engine().gemm(Op::none, Op::none, 1.0, strided, b, 0.0, c);
    ADD_FAILURE() << "an inner stride of 2 was accepted";
  } catch (const linalg::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("inner stride 2"), std::string::npos) << error.what();
  }
}

template <class M>
void check_cholesky(double tolerance) {
  const Eigen::Index n = 150;
  const M a = spd<M>(n);
  M factor = a;
  ASSERT_EQ(engine().potrf(Uplo::lower, factor), 0);
  const M lower = factor.template triangularView<Eigen::Lower>();
  EXPECT_LE((lower * lower.transpose() - a).cwiseAbs().maxCoeff(), tolerance);

  M b = M::Random(n, 3);
  M x = b;
  M work = a;
  engine().solve_spd(work, x);
  EXPECT_LE((a * x - b).cwiseAbs().maxCoeff(), tolerance * 10);
  const M eigen_x = a.llt().solve(b);
  EXPECT_LE((x - eigen_x).cwiseAbs().maxCoeff(), tolerance * 10);
}

TEST(EngineEigen, CholeskyAndSolveInBothLayouts) {
  check_cholesky<ColD>(1e-11);
  check_cholesky<RowD>(1e-11);
  check_cholesky<ColF>(1e-3);
  check_cholesky<RowF>(1e-3);
}

template <class M>
void check_lu(double tolerance) {
  const Eigen::Index n = 140;
  M a = M::Random(n, n);
  a.diagonal().array() += 4;
  const M b = M::Random(n, 3);
  M factors = a;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ASSERT_EQ(engine().getrf(factors, std::span<int>(ipiv)), 0);
  M x = b;
  engine().getrs(Op::none, factors, std::span<const int>(ipiv), x);
  EXPECT_LE((a * x - b).cwiseAbs().maxCoeff(), tolerance);
  M xt = b;
  engine().getrs(Op::transpose, factors, std::span<const int>(ipiv), xt);
  EXPECT_LE((a.transpose() * xt - b).cwiseAbs().maxCoeff(), tolerance);
  // Eigen's PartialPivLU pivots the same way: the same solution.
  EXPECT_LE((x - a.partialPivLu().solve(b)).cwiseAbs().maxCoeff(), tolerance);
  M inverse = factors;
  ASSERT_EQ(engine().getri(inverse, std::span<const int>(ipiv)), 0);
  EXPECT_LE((a * inverse - M::Identity(n, n)).cwiseAbs().maxCoeff(), tolerance * 10);
  M work = a;
  M y = b;
  engine().solve(work, y);
  EXPECT_LE((a * y - b).cwiseAbs().maxCoeff(), tolerance);
}

TEST(EngineEigen, LuAndSolveInBothLayouts) {
  check_lu<ColD>(1e-11);
  check_lu<RowD>(1e-11);
  check_lu<ColF>(2e-3);
  check_lu<RowF>(2e-3);
}

TEST(EngineEigen, TrsmAndSyrkOnEigen) {
  const Eigen::Index n = 80;
  RowD l = RowD::Random(n, n);
  l.diagonal().array() = 10;
  ColD b = ColD::Random(n, 6);
  ColD x = b;
  engine().trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, l, x);
  const RowD tri = l.triangularView<Eigen::Lower>();
  EXPECT_LE((tri * x - b).cwiseAbs().maxCoeff(), 1e-11);

  ColF a = ColF::Random(n, 30);
  RowF c = RowF::Zero(n, n);
  engine().syrk(Uplo::upper, Op::none, 1.0f, a, 0.0f, c);
  const RowF expected = a * a.transpose();
  const RowF upper = c.triangularView<Eigen::Upper>();
  const RowF expected_upper = expected.triangularView<Eigen::Upper>();
  EXPECT_LE((upper - expected_upper).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_EQ(c(n - 1, 0), 0.0f) << "the lower triangle is untouched";
}

TEST(EngineEigen, ComplexRoutines) {
  using ColZ = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic>;
  using RowC = Eigen::Matrix<std::complex<float>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::complex<double> alpha(0.5, -2), beta(1, 1);
  ColZ a = ColZ::Random(90, 130);
  ColZ b = ColZ::Random(110, 90);
  ColZ c = ColZ::Random(130, 110);
  const ColZ expected = alpha * (a.adjoint() * b.transpose()).eval() + beta * c;
  engine().gemm(Op::conj_transpose, Op::transpose, alpha, a, b, beta, c);
  EXPECT_LE((c - expected).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_EQ(engine().last_call().routine, "gemm");

  // herk and trsm: C's lower triangle is A A^H, and the solve undoes a triangular product.
  ColZ h = ColZ::Zero(90, 90);
  engine().herk(Uplo::lower, Op::none, 1.0, a, 0.0, h);
  const ColZ gram = a * a.adjoint();
  EXPECT_LE((ColZ(h.triangularView<Eigen::Lower>()) - ColZ(gram.triangularView<Eigen::Lower>()))
                .cwiseAbs()
                .maxCoeff(),
            1e-11);
  ColZ l = ColZ::Random(90, 90) / 90.0;
  l.diagonal().array() += 2.0;
  ColZ rhs = ColZ::Random(90, 7);
  ColZ sol = rhs;
  engine().trsm(Side::left, Uplo::lower, Op::conj_transpose, Diag::non_unit,
                std::complex<double>(1), l, sol);
  EXPECT_LE((ColZ(l.triangularView<Eigen::Lower>().adjoint()) * sol - rhs).cwiseAbs().maxCoeff(),
            1e-11);

  RowC x = RowC::Random(70, 40);
  RowC y = RowC::Random(40, 50);
  RowC z = RowC::Zero(70, 50);
  engine().gemm(Op::none, Op::none, std::complex<float>(1), x, y, std::complex<float>(0), z);
  EXPECT_LE((z - x * y).cwiseAbs().maxCoeff(), 1e-4);
}

// The rest of complex level 3 and LU on Eigen matrices, against Eigen's own arithmetic.
TEST(EngineEigen, ComplexLevel3AndLu) {
  using ColZ = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic>;
  using RowC = Eigen::Matrix<std::complex<float>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::complex<double> alpha(0.5, -1), beta(0, 1);
  const ColZ a = ColZ::Random(80, 80);
  const ColZ b = ColZ::Random(80, 60);
  // hemm reads A's lower triangle as a Hermitian matrix.
  ColZ herm = ColZ(a.triangularView<Eigen::Lower>());
  herm.diagonal() = herm.diagonal().real().cast<std::complex<double>>();
  herm += ColZ(herm.triangularView<Eigen::StrictlyLower>()).adjoint();
  ColZ c = ColZ::Random(80, 60);
  ColZ expected = alpha * herm * b + beta * c;
  engine().hemm(Side::left, Uplo::lower, alpha, a, b, beta, c);
  EXPECT_LE((c - expected).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_EQ(engine().last_call().routine, "hemm");

  ColZ d = ColZ::Random(80, 80);
  const ColZ d0 = d;
  engine().her2k(Uplo::upper, Op::none, alpha, b, b, 0.5, d);
  ColZ want = alpha * b * b.adjoint() + std::conj(alpha) * b * b.adjoint() + 0.5 * d0;
  want.diagonal() = want.diagonal().real().cast<std::complex<double>>();
  EXPECT_LE((ColZ(d.triangularView<Eigen::Upper>()) - ColZ(want.triangularView<Eigen::Upper>()))
                .cwiseAbs()
                .maxCoeff(),
            1e-11);
  EXPECT_EQ(d(79, 0), d0(79, 0)) << "the lower triangle is untouched";

  ColZ t = b;
  engine().trmm(Side::left, Uplo::upper, Op::transpose, Diag::unit, alpha, a, t);
  const ColZ unit_upper = a.triangularView<Eigen::UnitUpper>();
  EXPECT_LE((t - alpha * unit_upper.transpose() * b).cwiseAbs().maxCoeff(), 1e-11);

  // solve(): LU with partial pivoting, A X = B.
  RowC m = RowC::Random(60, 60);
  const RowC m0 = m;
  RowC rhs = RowC::Random(60, 3);
  const RowC rhs0 = rhs;
  engine().solve(m, rhs);
  EXPECT_LE((m0 * rhs - rhs0).cwiseAbs().maxCoeff(), 1e-3);
  EXPECT_EQ(engine().last_call().routine, "getrs");
}

}  // namespace
}  // namespace teamla::engine
