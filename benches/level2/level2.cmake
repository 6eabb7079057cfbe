# SPDX-License-Identifier: Apache-2.0
# level2/: BLAS level 2 through the CBLAS ABI, OpenBLAS linked and teamla preloaded over it.
# BLAS level 2 through the CBLAS ABI (scripts/bench-level2): one program linked against OpenBLAS;
# libteamla_blas.so preloaded over it is teamla's arm.
if(TARGET benchmark::benchmark AND TARGET teamla::baseline_openblas)
  add_executable(level2_bench ${CMAKE_CURRENT_LIST_DIR}/level2_bench.cpp)
  target_link_libraries(level2_bench PRIVATE teamla::baseline_openblas benchmark::benchmark
                                             teamla_warnings)
endif()
