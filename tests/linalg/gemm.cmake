# SPDX-License-Identifier: Apache-2.0
# gemm: correctness of linalg::gemm on every ISA path, and on teams (label kernels).
teamla_add_gtest(gemm_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
teamla_add_gtest(gemm_tiles_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_tiles_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
teamla_add_gtest(gemm_parallel_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_parallel_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
teamla_add_gtest(learned_width_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/learned_width_test.cpp
  LIBS teamla::linalg
  LABELS kernels SERIAL)
# The width cap: affinity set and cgroup quota (it changes the test thread's affinity and
# forks a child into a cgroup of its own).
teamla_add_gtest(width_cap_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/width_cap_test.cpp
  LIBS teamla::linalg teamla::team
  LABELS kernels)
target_include_directories(width_cap_test PRIVATE ${PROJECT_SOURCE_DIR}/team/src)
# The complex products (1m method) on every ISA and on teams.
teamla_add_gtest(complex_gemm_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/complex_gemm_test.cpp
  LIBS teamla::linalg teamla_linalg_internals teamla::team
  LABELS kernels)
add_test(NAME complex_gemm_team_under_concurrency
  COMMAND complex_gemm_test --gtest_filter=Widths/ComplexGemmOnTeam.*)
set_tests_properties(complex_gemm_team_under_concurrency PROPERTIES LABELS concurrency)
