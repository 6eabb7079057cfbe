# SPDX-License-Identifier: Apache-2.0
# dense/: gemm, trsm, syrk, potrf, potrs, getrf, gesv on Google Benchmark, one program per arm.
# The dense-routine benchmarks on Google Benchmark (gemm, trsm, syrk, potrf, potrs), one
# executable per arm (see dense_bench.hpp for why), driven by scripts/bench-gemm and
# scripts/bench-potrf and rendered by scripts/plot-gemm and scripts/plot-potrf.
if(TARGET benchmark::benchmark)
  add_executable(dense_bench_teamla ${CMAKE_CURRENT_LIST_DIR}/dense_bench_teamla.cpp)
  target_link_libraries(dense_bench_teamla PRIVATE teamla::linalg teamla_linalg_internals teamla::team
                                                   benchmark::benchmark teamla_warnings)
  if(TARGET teamla::baseline_openblas)
    add_executable(dense_bench_openblas ${CMAKE_CURRENT_LIST_DIR}/dense_bench_openblas.cpp)
    target_link_libraries(dense_bench_openblas PRIVATE teamla::baseline_openblas
                                                       benchmark::benchmark teamla_warnings)
  endif()
  if(TARGET teamla::baseline_blis)
    add_executable(dense_bench_blis ${CMAKE_CURRENT_LIST_DIR}/dense_bench_blis.cpp)
    target_link_libraries(dense_bench_blis PRIVATE teamla::baseline_blis benchmark::benchmark
                                                   teamla_warnings)
  endif()
  # The Eigen arm: one executable per ISA, each wholly compiled with that ISA's flags (an Eigen
  # template compiled for AVX-512 must never run on an AVX2 CPU); the scripts run the one the
  # CPU has. GCC 12 warns (maybe-uninitialized) inside its own avx512fintrin.h on Eigen's
  # code: not ours to fix, and fatal under -Werror.
  if(Eigen3_FOUND AND OpenMP_CXX_FOUND)
    foreach(isa avx2 avx512)
      add_executable(dense_bench_eigen_${isa} ${CMAKE_CURRENT_LIST_DIR}/dense_bench_eigen.cpp)
      target_link_libraries(dense_bench_eigen_${isa} PRIVATE Eigen3::Eigen OpenMP::OpenMP_CXX
                                                             benchmark::benchmark teamla_warnings)
    endforeach()
    target_compile_options(dense_bench_eigen_avx2 PRIVATE -mavx2 -mfma)
    target_compile_options(dense_bench_eigen_avx512 PRIVATE -mavx512f -mavx512dq -mavx512bw
                                                            -mavx512vl -mavx2 -mfma
                                                            -Wno-maybe-uninitialized)
  endif()
else()
  message(STATUS "teamla: the dense benchmarks need Google Benchmark (libbenchmark-dev): off")
endif()

