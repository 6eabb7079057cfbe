# SPDX-License-Identifier: Apache-2.0
# gemm_batch: linalg's batched GEMM against a loop of single gemm() calls, serially and on a
# 2-thread team; bad items and strides rejected with every C untouched.
teamla_add_gtest(gemm_batch_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_batch_test.cpp
  LIBS teamla::linalg
  LABELS unit)
# The complex batches (each item the complex product), serially and on a 2-thread team.
teamla_add_gtest(complex_gemm_batch_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/complex_gemm_batch_test.cpp
  LIBS teamla::linalg teamla_linalg_internals teamla::team
  LABELS unit)
