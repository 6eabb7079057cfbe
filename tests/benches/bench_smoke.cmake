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
