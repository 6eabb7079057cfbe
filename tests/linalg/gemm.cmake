# gemm: correctness of linalg::gemm on every ISA path, and on teams (label kernels).
teamla_add_gtest(gemm_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
teamla_add_gtest(gemm_parallel_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm_parallel_test.cpp
  LIBS teamla::linalg
  LABELS kernels)
