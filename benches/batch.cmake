# SPDX-License-Identifier: Apache-2.0
# Batched GEMM: teamla's gemm_batch at 1 and 2 threads against an OpenMP loop over 1-thread
# OpenBLAS calls, driven by scripts/bench-batch. OpenBLAS and OpenMP are linked here only.
if(TARGET teamla::baseline_openblas AND OpenMP_CXX_FOUND)
  add_executable(batch_bench ${CMAKE_CURRENT_LIST_DIR}/batch_bench.cpp)
  target_link_libraries(batch_bench PRIVATE teamla::engine teamla::baseline_openblas
                                            OpenMP::OpenMP_CXX teamla_warnings)
endif()
