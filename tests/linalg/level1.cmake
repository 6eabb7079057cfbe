# SPDX-License-Identifier: Apache-2.0
# BLAS level 1 (label kernels): every routine against a long-double oracle, and against the
# reference BLAS loaded by dlopen.
teamla_add_gtest(level1_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/level1_test.cpp
  LIBS teamla::linalg ${CMAKE_DL_LIBS}
  LABELS kernels)
