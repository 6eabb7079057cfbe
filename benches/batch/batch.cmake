# SPDX-License-Identifier: Apache-2.0
# batch/: batched GEMM, gemm_batch against an OpenMP loop over OpenBLAS; processes and pairs.
# Batched GEMM on Google Benchmark: teamla's gemm_batch against an OpenMP loop over 1-thread
# OpenBLAS calls, one executable per arm, driven by scripts/bench-batch. OpenBLAS and OpenMP
# are linked here only.
if(TARGET benchmark::benchmark)
  # Two libraries' batches in one process, paired (A/Bs of two builds; teamla against an
  # OpenMP loop over OpenBLAS): dlopen'ed, so no BLAS is linked.
  add_executable(batch_pairs ${CMAKE_CURRENT_LIST_DIR}/batch_pairs.cpp)
  target_link_libraries(batch_pairs PRIVATE benchmark::benchmark ${CMAKE_DL_LIBS} teamla_warnings)
  if(OpenMP_CXX_FOUND)  # the omp: arm, batch_bench_openblas's loop in the same process
    target_link_libraries(batch_pairs PRIVATE OpenMP::OpenMP_CXX)
  endif()
  add_executable(batch_bench_teamla ${CMAKE_CURRENT_LIST_DIR}/batch_bench_teamla.cpp)
  target_link_libraries(batch_bench_teamla PRIVATE teamla::engine benchmark::benchmark
                                                   teamla_warnings)
  if(TARGET teamla::baseline_openblas AND OpenMP_CXX_FOUND)
    add_executable(batch_bench_openblas ${CMAKE_CURRENT_LIST_DIR}/batch_bench_openblas.cpp)
    target_link_libraries(batch_bench_openblas PRIVATE teamla::baseline_openblas
                                                       OpenMP::OpenMP_CXX benchmark::benchmark
                                                       teamla_warnings)
  endif()
endif()
