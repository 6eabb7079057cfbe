# SPDX-License-Identifier: Apache-2.0
# TRSM, SYRK, POTRF, POTRS (label kernels). potrf_test loads reference LAPACK with dlopen to
# compare failed factorizations; chol_eigen_test is the one Eigen translation unit.
teamla_add_gtest(potrf_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/potrf_test.cpp
  LIBS teamla::linalg ${CMAKE_DL_LIBS}
  LABELS kernels)
teamla_add_gtest(trsm_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/trsm_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
teamla_add_gtest(syrk_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/syrk_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
if(Eigen3_FOUND)
  teamla_add_gtest(chol_eigen_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/chol_eigen_test.cpp
    LIBS teamla::linalg Eigen3::Eigen
    LABELS kernels)
endif()
# The Cholesky step on a team (potrf_step.cpp: a barrier, tiles claimed from an atomic
# counter, the lookahead factorization by whichever participant finishes the priority tiles)
# runs again under the concurrency label, so that the tsan preset checks it for races.
add_test(NAME potrf_team_under_concurrency
  COMMAND potrf_test --gtest_filter=Potrf.ResidualOnTeams:Potrf.InfoExactOnTeam)
set_tests_properties(potrf_team_under_concurrency PROPERTIES LABELS concurrency)
# LU (getrf, getrs, gesv, getri, laswp); compares with reference LAPACK loaded by dlopen.
teamla_add_gtest(lu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/lu_test.cpp
  LIBS teamla::linalg teamla_linalg_internals ${CMAKE_DL_LIBS}
  LABELS kernels)
add_test(NAME lu_team_under_concurrency
  COMMAND lu_test --gtest_filter=Getrf.ResidualOnTeams:Getrf.OnATeamWhoseMemberNeverStarted)
set_tests_properties(lu_team_under_concurrency PROPERTIES LABELS concurrency)
# Complex LU (getrf, getrs, gesv, getri, laswp); compares with reference LAPACK by dlopen.
teamla_add_gtest(complex_lu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/complex_lu_test.cpp
  LIBS teamla::linalg teamla_linalg_internals ${CMAKE_DL_LIBS}
  LABELS kernels)
add_test(NAME complex_lu_team_under_concurrency
  COMMAND complex_lu_test --gtest_filter=Widths/ComplexLuOnTeam.*)
set_tests_properties(complex_lu_team_under_concurrency PROPERTIES LABELS concurrency)
# Complex Cholesky (potrf, potrs of Hermitian positive definite matrices).
teamla_add_gtest(complex_cholesky_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/complex_cholesky_test.cpp
  LIBS teamla::linalg teamla::team
  LABELS kernels)
add_test(NAME complex_cholesky_team_under_concurrency
  COMMAND complex_cholesky_test --gtest_filter=Widths/ComplexCholeskyOnTeam.*)
set_tests_properties(complex_cholesky_team_under_concurrency PROPERTIES LABELS concurrency)
