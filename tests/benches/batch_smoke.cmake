# SPDX-License-Identifier: Apache-2.0
# batch_bench's smoke run (label bench-smoke): one tiny round of every arm, checked for form
# (the JSON's results are printed), never for speed.
if(TEAMLA_BUILD_BENCHES AND OpenMP_CXX_FOUND AND TARGET teamla::baseline_openblas)
  add_test(NAME bench_smoke_batch
    COMMAND ${CMAKE_BINARY_DIR}/benches/batch_bench --cases 200x8,20x32 --types d,s --rounds 1
            --min-ms 1)
  set_tests_properties(bench_smoke_batch PROPERTIES
    LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "\"results\": \\[.*\"omp_openblas_2\": {\"median_ns\": [0-9]")
endif()
