# SPDX-License-Identifier: Apache-2.0
# waits/: wait scenarios, per-call distributions, the faer#107 probe, the foreign-load generator.
# The wait benches (docs/waits.md): the foreign-load generator, the wait scenarios under
# teamla's policies and libgomp, and the faer#107 acquire probe.
add_executable(foreign_load ${CMAKE_CURRENT_LIST_DIR}/foreign_load.cpp)
target_link_libraries(foreign_load PRIVATE teamla_warnings)

add_executable(wait_scenarios
  ${CMAKE_CURRENT_LIST_DIR}/wait_scenarios.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wait_scenarios_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wait_scenarios_teamla.cpp)
target_link_libraries(wait_scenarios PRIVATE teamla::team teamla_warnings)
if(OpenMP_CXX_FOUND)
  # The libgomp arm is a library of its own so that -fopenmp stays on its one file.
  add_library(wait_scenarios_omp OBJECT ${CMAKE_CURRENT_LIST_DIR}/../omp/wait_scenarios_omp.cpp)
  target_link_libraries(wait_scenarios_omp PRIVATE OpenMP::OpenMP_CXX teamla_warnings)
  target_link_libraries(wait_scenarios PRIVATE wait_scenarios_omp OpenMP::OpenMP_CXX)
else()
  target_sources(wait_scenarios PRIVATE ${CMAKE_CURRENT_LIST_DIR}/wait_scenarios_no_omp.cpp)
endif()

if(TARGET teamla::baseline_openblas)
  add_executable(acquire_probe_107
    ${CMAKE_CURRENT_LIST_DIR}/acquire_probe_107.cpp
    ${CMAKE_CURRENT_LIST_DIR}/acquire_probe_107_arms.cpp)
  target_link_libraries(acquire_probe_107
    PRIVATE teamla::linalg teamla::team teamla::baseline_openblas teamla_warnings)
endif()

# The per-call distribution of dgemm_ through a BLAS library named at run time (teamla's ABI or
# a baseline's), for scripts/bench-calls.
add_executable(blas_calls ${CMAKE_CURRENT_LIST_DIR}/blas_calls.cpp)
target_link_libraries(blas_calls PRIVATE ${CMAKE_DL_LIBS} teamla_warnings)
