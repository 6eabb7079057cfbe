# SPDX-License-Identifier: Apache-2.0
# Fault injection for the batched GEMM (label faults): memory refused to CpuEngine::gemm_batch.
# Not under tsan, whose runtime must create the threads it tracks (faults.cmake).
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
  return()
endif()
teamla_add_gtest(batch_faults_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/batch_faults_test.cpp
  LIBS teamla::engine teamla_fault_injection LABELS faults)
