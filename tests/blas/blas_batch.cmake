# SPDX-License-Identifier: Apache-2.0
# The batched CBLAS GEMMs of libteamla_blas.so against loops of single calls, and their
# error reports.
if(NOT TARGET teamla_blas)
  return()
endif()
teamla_add_gtest(blas_batch_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_batch_test.cpp
  LIBS teamla_blas
  LABELS unit)
# The program's cblas_xerbla must be in its dynamic symbol table to win.
set_target_properties(blas_batch_test PROPERTIES ENABLE_EXPORTS ON)
