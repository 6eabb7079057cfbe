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
# The bench scripts' fair-baseline rule for OpenBLAS's kernels (baseline_test.py), and that the
# Debian OpenBLAS, where installed, names the kernels it picks.
if(TEAMLA_BUILD_BENCHES)
  set(teamla_debian_openblas /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0)
  if(NOT EXISTS ${teamla_debian_openblas})
    set(teamla_debian_openblas "")
  endif()
  add_test(NAME bench_scripts_fair_baseline
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/baseline_test.py ${PROJECT_SOURCE_DIR}/scripts
            ${teamla_debian_openblas})
  set_tests_properties(bench_scripts_fair_baseline PROPERTIES LABELS bench-smoke TIMEOUT 60)
endif()
# The small-call benches run and report (one tiny shape each): form only, never speed.
if(TEAMLA_BUILD_BENCHES AND TARGET benchmark::benchmark)
  add_test(NAME bench_smoke_small_gemm
    COMMAND small_gemm --library $<TARGET_FILE:teamla_blas> --offset 16 --benchmark_filter=gemm_NN/4x4x4
            --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_small_gemm PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "dgemm_NN/4x4x4.*sgemm_NN/4x4x4")
  # Two libraries in one process (the interleaved A/B of docs/gemm.md): each benchmark is
  # named by its library; one without a name is refused.
  add_test(NAME bench_smoke_small_gemm_two_libraries
    COMMAND small_gemm --library one=$<TARGET_FILE:teamla_blas>
            --library two=$<TARGET_FILE:teamla_blas> --shapes 4x4x4
            --benchmark_filter=dgemm_NN --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_small_gemm_two_libraries PROPERTIES LABELS bench-smoke
    TIMEOUT 60 PASS_REGULAR_EXPRESSION "one/dgemm_NN/4x4x4.*two/dgemm_NN/4x4x4")
  add_test(NAME bench_smoke_small_gemm_refuses_an_unnamed_library
    COMMAND small_gemm --library $<TARGET_FILE:teamla_blas> --library two=$<TARGET_FILE:teamla_blas>)
  set_tests_properties(bench_smoke_small_gemm_refuses_an_unnamed_library PROPERTIES
    LABELS bench-smoke TIMEOUT 60 WILL_FAIL TRUE)
  # Paired runs (benches/common/pairs.hpp): each benchmark names both libraries and reports the
  # median ratio and its quartiles; --pairs needs exactly two libraries.
  add_test(NAME bench_smoke_small_gemm_pairs
    COMMAND small_gemm --library one=$<TARGET_FILE:teamla_blas>
            --library two=$<TARGET_FILE:teamla_blas> --pairs 3 --shapes 4x4x4
            --benchmark_filter=dgemm_NN)
  set_tests_properties(bench_smoke_small_gemm_pairs PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "one:two/dgemm_NN/4x4x4.*ratio=.*ratio_q1=.*ratio_q3=")
  add_test(NAME bench_smoke_small_gemm_pairs_need_two_libraries
    COMMAND small_gemm --library one=$<TARGET_FILE:teamla_blas> --pairs 3)
  set_tests_properties(bench_smoke_small_gemm_pairs_need_two_libraries PROPERTIES
    LABELS bench-smoke TIMEOUT 60 WILL_FAIL TRUE)
  add_test(NAME bench_smoke_level3_calls_pairs
    COMMAND level3_calls --library one=$<TARGET_FILE:teamla_blas>
            --library two=$<TARGET_FILE:teamla_blas> --pairs 2 --benchmark_filter=dgemm_/256)
  set_tests_properties(bench_smoke_level3_calls_pairs PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "one:two/dgemm_/256.*ratio=")
  # Paired batches (benches/batch/batch_pairs.cpp): both libraries' item 0 is checked, each row
  # reports the median ratio; exactly two named libraries.
  add_test(NAME bench_smoke_batch_pairs
    COMMAND batch_pairs --library one@1=$<TARGET_FILE:teamla_blas>
            --library two@1=$<TARGET_FILE:teamla_blas> --pairs 2 --cases 50x4,3x33)
  set_tests_properties(bench_smoke_batch_pairs PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "one:two/dgemm_batch/count:50/n:4.*ratio=.*one:two/sgemm_batch/count:3/n:33.*ratio=")
  if(OpenMP_CXX_FOUND)
    # The omp: arm: a library's cblas_dgemm in an OpenMP loop (here teamla's own, at 1 thread).
    add_test(NAME bench_smoke_batch_pairs_omp_loop
      COMMAND batch_pairs --library team@2=$<TARGET_FILE:teamla_blas>
              --library loop@2=omp:$<TARGET_FILE:teamla_blas> --pairs 2 --cases 40x8
              --benchmark_filter=dgemm)
    set_tests_properties(bench_smoke_batch_pairs_omp_loop PROPERTIES LABELS bench-smoke
      TIMEOUT 60 PASS_REGULAR_EXPRESSION "team:loop/dgemm_batch/count:40/n:8.*ratio=")
  endif()
  add_test(NAME bench_smoke_batch_pairs_need_two_named_libraries
    COMMAND batch_pairs --library $<TARGET_FILE:teamla_blas> --library two=$<TARGET_FILE:teamla_blas>)
  set_tests_properties(bench_smoke_batch_pairs_need_two_named_libraries PROPERTIES
    LABELS bench-smoke WILL_FAIL TRUE)
  add_test(NAME bench_smoke_engine_floor
    COMMAND engine_floor --benchmark_filter=/4 --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_engine_floor PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "via_engine/held/4.*via_engine/serial/4.*direct/4")
endif()
# The dense benches, one per arm, run one tiny benchmark of each routine they register (form
# only, never speed): the JSON names the benchmarks and carries the flop-rate counter. The
# benches are defined after the tests, so each arm's condition is its dense.cmake one. The arms
# with an LU (teamla's, OpenBLAS's) must also name dgetrf.
function(teamla_dense_smoke arm)
  set(pattern "\"name\": \"dgemm/threads:1/m:32/n:32/k:32/real_time\".*\"flops\": [0-9]")
  if(arm STREQUAL "teamla" OR arm STREQUAL "openblas")
    string(APPEND pattern ".*\"name\": \"dgetrf/threads:1/n:64/manual_time\"")
  endif()
  add_test(NAME bench_smoke_dense_${arm}
    COMMAND dense_bench_${arm} --benchmark_min_time=0.001 --benchmark_format=json
            "--benchmark_filter=^[ds](gemm/threads:1/m:32/|trsm/threads:1/n:64/nrhs:64|\
syrk/threads:1/n:64/k:64|potrf/threads:1/n:64/|potrs/threads:1/n:64/nrhs:1/|\
getrf/threads:1/n:64/|gesv/threads:1/n:500/)")
  set_tests_properties(bench_smoke_dense_${arm} PROPERTIES LABELS bench-smoke TIMEOUT 120
    PASS_REGULAR_EXPRESSION "${pattern}")
endfunction()
if(TEAMLA_BUILD_BENCHES AND TARGET benchmark::benchmark)
  teamla_dense_smoke(teamla)
  if(TARGET teamla::baseline_openblas)
    teamla_dense_smoke(openblas)
  endif()
  if(TARGET teamla::baseline_blis)
    teamla_dense_smoke(blis)
  endif()
  if(Eigen3_FOUND AND OpenMP_CXX_FOUND)
    teamla_dense_smoke(eigen_avx2)
  endif()
endif()
# The dispatch costs, teamla's sections and libgomp's regions: the hot ones at every width run
# and report (form only).
if(TEAMLA_BUILD_BENCHES AND TARGET benchmark::benchmark)
  add_test(NAME bench_smoke_gemm_dispatch_cost
    COMMAND gemm_dispatch_cost --benchmark_filter=section/hot/ --benchmark_min_time=0.001)
  set_tests_properties(bench_smoke_gemm_dispatch_cost PROPERTIES LABELS bench-smoke TIMEOUT 60
    PASS_REGULAR_EXPRESSION "section/hot/width:2/manual_time")
  if(OpenMP_CXX_FOUND)
    add_test(NAME bench_smoke_omp_dispatch_cost
      COMMAND omp_dispatch_cost --benchmark_filter=omp_parallel/hot/ --benchmark_min_time=0.001)
    set_tests_properties(bench_smoke_omp_dispatch_cost PROPERTIES LABELS bench-smoke TIMEOUT 60
      PASS_REGULAR_EXPRESSION "omp_parallel/hot/width:2/manual_time")
  endif()
endif()
