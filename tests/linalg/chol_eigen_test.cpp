// SPDX-License-Identifier: Apache-2.0
// chol_eigen_test.cpp: linalg::potrf and potrs against Eigen's LLT (the one Eigen TU of the
// Cholesky tests). Eigen's factor and solution must agree with teamla's to rounding, for
// random SPD matrices built as M M^T + n I (not merely diagonally dominant), both triangles,
// double and float, through Eigen::Map views (no copies).
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <random>

#include "teamla/linalg/blas3.hpp"

namespace {

using teamla::linalg::Exec;
using teamla::linalg::index_t;
using teamla::linalg::Uplo;

template <class T>
void compare_with_eigen(index_t n, Uplo uplo) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " uplo=" << (uplo == Uplo::lower ? "L" : "U")
                                    << " bytes=" << sizeof(T));
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  std::srand(static_cast<unsigned>(n));
  const Mat m = Mat::Random(n, n);
  const Mat a = m * m.transpose() + Mat::Identity(n, n) * T(n);
  Eigen::LLT<Mat> llt(a);
  ASSERT_EQ(llt.info(), Eigen::Success);
  Mat f = a;
  Exec exec;
  ASSERT_EQ(teamla::linalg::potrf<T>(uplo, teamla::linalg::col_major(f.data(), n, n), exec), 0);
  const Mat l = uplo == Uplo::lower ? Mat(f.template triangularView<Eigen::Lower>())
                                    : Mat(f.template triangularView<Eigen::Upper>().transpose());
  const Mat eigen_l = llt.matrixL();
  const T tol = T(64) * std::numeric_limits<T>::epsilon() * T(n);
  EXPECT_LE((l - eigen_l).cwiseAbs().maxCoeff(), tol * eigen_l.cwiseAbs().maxCoeff());
  const Mat b = Mat::Random(n, 3);
  Mat x = b;
  teamla::linalg::potrs<T>(uplo, teamla::linalg::col_major<const T>(f.data(), n, n),
                           teamla::linalg::col_major(x.data(), n, 3), exec);
  const Mat eigen_x = llt.solve(b);
  EXPECT_LE((x - eigen_x).cwiseAbs().maxCoeff(), tol * eigen_x.cwiseAbs().maxCoeff());
}

TEST(CholEigen, MatchesLlt) {
  for (index_t n : {1, 2, 17, 64, 65, 200, 257, 600}) {
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      compare_with_eigen<double>(n, uplo);
      compare_with_eigen<float>(n, uplo);
    }
  }
}

}  // namespace
