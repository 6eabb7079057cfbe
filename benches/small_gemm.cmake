# SPDX-License-Identifier: Apache-2.0
# Small GEMM calls through a BLAS library's ABI, on Google Benchmark (docs/perf/small.md),
# driven by scripts/bench-small. The library is dlopen'ed, so no baseline is linked here.
if(TARGET benchmark::benchmark)
  add_executable(small_gemm ${CMAKE_CURRENT_LIST_DIR}/small_gemm.cpp)
  target_link_libraries(small_gemm PRIVATE benchmark::benchmark ${CMAKE_DL_LIBS} teamla_warnings)
  target_include_directories(small_gemm PRIVATE ${CMAKE_CURRENT_LIST_DIR})
endif()
