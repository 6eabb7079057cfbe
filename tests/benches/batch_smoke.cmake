# SPDX-License-Identifier: Apache-2.0
# The batched GEMM benches' smoke run (label bench-smoke): the smallest case of each arm in both
# types, checked for form (the JSON names the benchmarks and their flop rate), never for speed.
if(TEAMLA_BUILD_BENCHES AND TARGET benchmark::benchmark)
  set(teamla_batch_arms teamla)
  if(OpenMP_CXX_FOUND AND TARGET teamla::baseline_openblas)
    list(APPEND teamla_batch_arms openblas)
  endif()
  foreach(arm IN LISTS teamla_batch_arms)
    add_test(NAME bench_smoke_batch_${arm}
      COMMAND batch_bench_${arm} --benchmark_min_time=0.001 --benchmark_format=json
              "--benchmark_filter=^[ds]gemm_batch/threads:[12]/count:100/")
    set_tests_properties(bench_smoke_batch_${arm} PROPERTIES LABELS bench-smoke TIMEOUT 60
      PASS_REGULAR_EXPRESSION
      "\"name\": \"dgemm_batch/threads:1/count:100/n:128/real_time\".*\"flops\": [0-9]")
  endforeach()
endif()
