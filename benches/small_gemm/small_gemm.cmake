# SPDX-License-Identifier: Apache-2.0
# small_gemm/: small and concurrent GEMM calls through a dlopen'ed BLAS, and the libxsmm shim.
# Small GEMM calls through a BLAS library's ABI, on Google Benchmark (docs/perf/small.md),
# driven by scripts/bench-small. The library is dlopen'ed, so no baseline is linked here.
if(TARGET benchmark::benchmark)
  add_executable(small_gemm ${CMAKE_CURRENT_LIST_DIR}/small_gemm.cpp)
  target_link_libraries(small_gemm PRIVATE benchmark::benchmark ${CMAKE_DL_LIBS} teamla_warnings)
endif()

# libteamla_bench_xsmm.so: libxsmm's JIT kernels behind dgemm_/sgemm_, OpenBLAS for the calls
# libxsmm has no kernel for (reported on stderr), so that small_gemm can load it.
if(TARGET teamla::baseline_xsmm AND TARGET teamla::baseline_openblas)
  add_library(teamla_bench_xsmm SHARED ${CMAKE_CURRENT_LIST_DIR}/xsmm_blas.cpp)
  set_target_properties(teamla_bench_xsmm PROPERTIES CXX_VISIBILITY_PRESET hidden
                                                     OUTPUT_NAME teamla_bench_xsmm)
  target_link_libraries(teamla_bench_xsmm PRIVATE teamla::baseline_xsmm
                                                  teamla::baseline_openblas)
endif()

# Several OpenMP threads of an application calling dgemm_ at once (docs/perf/concurrent.md),
# driven by scripts/bench-concurrent; the library is dlopen'ed.
if(TARGET benchmark::benchmark AND OpenMP_CXX_FOUND)
  add_executable(concurrent_calls ${CMAKE_CURRENT_LIST_DIR}/concurrent_calls.cpp)
  target_link_libraries(concurrent_calls PRIVATE benchmark::benchmark OpenMP::OpenMP_CXX
                                                 ${CMAKE_DL_LIBS} teamla_warnings)
endif()
