# SPDX-License-Identifier: Apache-2.0
# potrf benchmark (docs/perf/potrf.md): teamla against OpenBLAS's dpotrf/spotrf and Eigen's
# LLT, one arm per process, driven by scripts/bench-potrf and plotted by scripts/plot-potrf.
if(TARGET teamla::baseline_openblas AND Eigen3_FOUND AND OpenMP_CXX_FOUND)
  add_library(potrf_bench_eigen OBJECT ${CMAKE_CURRENT_LIST_DIR}/potrf_bench_eigen.cpp)
  target_compile_options(potrf_bench_eigen PRIVATE
    -mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma)
  target_link_libraries(potrf_bench_eigen PRIVATE Eigen3::Eigen OpenMP::OpenMP_CXX)
  add_executable(potrf_bench ${CMAKE_CURRENT_LIST_DIR}/potrf_bench.cpp)
  target_link_libraries(potrf_bench PRIVATE potrf_bench_eigen teamla::linalg teamla::team
                                            teamla::baseline_openblas OpenMP::OpenMP_CXX
                                            teamla_warnings)
endif()
