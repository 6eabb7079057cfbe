# SPDX-License-Identifier: Apache-2.0
# Fault injection (label faults): teamla refused threads and memory, through CpuEngine and the
# BLAS ABI. The interposers forward to the next definition, so they also run under asan; not
# under tsan, whose runtime must create the threads it tracks.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
  return()
endif()
add_library(teamla_fault_injection STATIC ${CMAKE_CURRENT_LIST_DIR}/fault_injection.cpp)
target_link_libraries(teamla_fault_injection PRIVATE ${CMAKE_DL_LIBS} teamla_warnings)
target_include_directories(teamla_fault_injection PUBLIC ${PROJECT_SOURCE_DIR}/tests)

teamla_add_gtest(engine_faults_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/engine_faults_test.cpp
  LIBS teamla::engine teamla_fault_injection LABELS faults)

if(TARGET teamla_blas)
  teamla_add_gtest(blas_faults_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_faults_test.cpp
    LIBS teamla_blas teamla_fault_injection LABELS faults)
endif()

teamla_add_gtest(machine_change_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/machine_change_test.cpp
  LIBS teamla::engine LABELS faults SERIAL)
