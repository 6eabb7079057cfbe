# SPDX-License-Identifier: Apache-2.0
# Fault injection for the level-2 routines (label faults): memory refused to every routine of
# blas2.hpp, serially and on a team. Not under tsan, whose runtime must create the threads it
# tracks (faults.cmake).
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
  return()
endif()
teamla_add_gtest(level2_faults_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/level2_faults_test.cpp
  LIBS teamla::linalg teamla::team teamla_fault_injection LABELS faults)
