# SPDX-License-Identifier: Apache-2.0
# CpuEngine::gemm_batch and gemm_batch_strided against a loop of engine.gemm() calls.
teamla_add_gtest(engine_batch_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/engine_batch_test.cpp
  LIBS teamla::engine LABELS unit)
