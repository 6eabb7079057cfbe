# SPDX-License-Identifier: Apache-2.0
# gemm benchmarks: one executable per arm (see gemm_bench_driver.hpp for why), driven by
# scripts/bench-gemm and rendered by scripts/plot-gemm.
add_library(gemm_bench_driver STATIC ${CMAKE_CURRENT_LIST_DIR}/gemm_bench_driver.cpp)
target_link_libraries(gemm_bench_driver PRIVATE teamla_warnings)

add_executable(gemm_bench_teamla ${CMAKE_CURRENT_LIST_DIR}/gemm_bench_teamla.cpp)
target_link_libraries(gemm_bench_teamla PRIVATE gemm_bench_driver teamla::linalg teamla_warnings)

if(TARGET teamla::baseline_openblas)
  add_executable(gemm_bench_openblas ${CMAKE_CURRENT_LIST_DIR}/gemm_bench_openblas.cpp)
  target_link_libraries(gemm_bench_openblas PRIVATE gemm_bench_driver teamla::baseline_openblas)
endif()
if(TARGET teamla::baseline_blis)
  add_executable(gemm_bench_blis ${CMAKE_CURRENT_LIST_DIR}/gemm_bench_blis.cpp)
  target_link_libraries(gemm_bench_blis PRIVATE gemm_bench_driver teamla::baseline_blis)
endif()
if(Eigen3_FOUND AND OpenMP_CXX_FOUND)
  add_executable(gemm_bench_eigen ${CMAKE_CURRENT_LIST_DIR}/gemm_bench_eigen.cpp)
  target_compile_options(gemm_bench_eigen PRIVATE
    -mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma)
  target_link_libraries(gemm_bench_eigen PRIVATE gemm_bench_driver Eigen3::Eigen
                                                 OpenMP::OpenMP_CXX)
endif()

# The section dispatch costs behind linalg/src/width.cpp's table.
add_executable(gemm_dispatch_cost ${CMAKE_CURRENT_LIST_DIR}/gemm_dispatch_cost.cpp)
target_link_libraries(gemm_dispatch_cost PRIVATE teamla::team teamla_warnings)
