# SPDX-License-Identifier: Apache-2.0
# The wait benches' smoke run (label bench-smoke): a one-round, tiny bench-ab run whose outputs
# are checked for form (every arm, load and row present, numbers finite), never for speed; and
# the foreign-load generator's contract (exit status, signals, no leftover children).
if(TEAMLA_BUILD_BENCHES AND OpenMP_CXX_FOUND)
  add_test(NAME bench_smoke_waits
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/run_waits_smoke.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/waits-smoke)
  set_tests_properties(bench_smoke_waits PROPERTIES LABELS bench-smoke RUN_SERIAL TRUE TIMEOUT 180)
endif()
if(TEAMLA_BUILD_BENCHES)
  add_test(NAME foreign_load_contract
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/foreign_load_test.sh ${CMAKE_BINARY_DIR}/benches/foreign_load)
  set_tests_properties(foreign_load_contract PROPERTIES LABELS bench-smoke TIMEOUT 60)
endif()
# The small-call benches run and report (one tiny shape each): form only, never speed.
if(TEAMLA_BUILD_BENCHES AND TARGET benchmark::benchmark)
  add_test(NAME bench_smoke_small_gemm
    COMMAND small_gemm --library $<TARGET_FILE:teamla_blas> --benchmark_filter=gemm_NN/4x4x4
            --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_small_gemm PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "dgemm_NN/4x4x4.*sgemm_NN/4x4x4")
  add_test(NAME bench_smoke_engine_floor
    COMMAND engine_floor --benchmark_filter=/4 --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_engine_floor PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "via_engine/held/4.*via_engine/serial/4.*direct/4")
endif()
