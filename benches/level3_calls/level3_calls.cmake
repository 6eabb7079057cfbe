# SPDX-License-Identifier: Apache-2.0
# level3_calls/: SYMM, TRMM, SYR2K and GEMM through a dlopen'ed BLAS library's ABI.
# SYMM, TRMM, SYR2K (and GEMM for scale) through a BLAS library's ABI, on Google Benchmark
# (docs/level3.md). The library is dlopen'ed, so no baseline is linked here.
if(TARGET benchmark::benchmark)
  add_executable(level3_calls ${CMAKE_CURRENT_LIST_DIR}/level3_calls.cpp)
  target_link_libraries(level3_calls PRIVATE benchmark::benchmark ${CMAKE_DL_LIBS} teamla_warnings)
endif()
