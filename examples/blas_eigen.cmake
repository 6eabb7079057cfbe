# SPDX-License-Identifier: Apache-2.0
# blas_eigen: an EIGEN_USE_BLAS program linked to the system BLAS, run on libteamla_blas.so
# through LD_PRELOAD. It checks its own result and which library its dgemm_ comes from; the
# test also requires teamla's verbose log line. (Not under a sanitizer: no LD_PRELOAD there.)
if(NOT TARGET teamla_blas OR NOT TARGET Eigen3::Eigen OR CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  return()
endif()
find_library(TEAMLA_SYSTEM_BLAS NAMES libblas.so.3 blas)
if(NOT TEAMLA_SYSTEM_BLAS)
  message(STATUS "teamla: no system libblas: the blas_eigen example is off")
  return()
endif()
add_executable(blas_eigen ${CMAKE_CURRENT_LIST_DIR}/blas_eigen.cpp)
target_link_libraries(blas_eigen PRIVATE Eigen3::Eigen ${TEAMLA_SYSTEM_BLAS} ${CMAKE_DL_LIBS})
add_dependencies(blas_eigen teamla_blas)
add_test(NAME example.blas_eigen
         COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=$<TARGET_FILE:teamla_blas>
                 TEAMLA_BLAS_VERBOSE=1 $<TARGET_FILE:blas_eigen>)
set_tests_properties(example.blas_eigen PROPERTIES
  LABELS "examples" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "teamla_blas: dgemm_ served by teamla"
  FAIL_REGULAR_EXPRESSION "FAILED")
