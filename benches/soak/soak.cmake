# SPDX-License-Identifier: Apache-2.0
# soak/: minutes of checked calls under forks, affinity changes and foreign load.
# The soak (docs/perf/soak.md): checked calls from several threads on a shared CpuEngine and
# through libteamla_blas.so (dlopen'ed, so the library is found by its build path), with
# forks and affinity changes; scripts/soak runs it for minutes under foreign_load.
if(NOT TARGET teamla_blas)
  return()
endif()
add_executable(soak
  ${CMAKE_CURRENT_LIST_DIR}/soak.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_backends.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_blas3_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_chol_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_draw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/soak_report.cpp)
target_compile_definitions(soak PRIVATE TEAMLA_SOAK_BLAS="$<TARGET_FILE:teamla_blas>")
target_link_libraries(soak PRIVATE teamla::engine Threads::Threads ${CMAKE_DL_LIBS}
                                   teamla_warnings)
add_dependencies(soak teamla_blas foreign_load)

# The CI version: 20 s under a light foreign load (one process at 10 %), forks and affinity
# changes on; any failure, wrong result, hang or RSS growth fails it. Labels: soak, and
# bench-smoke as the other bench programs' smoke runs (in the default selection; not a
# sanitizer's: the library is dlopen'ed, and benches are off there anyway). fork() with
# threads running is outside what ThreadSanitizer supports.
if(TEAMLA_BUILD_TESTS AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  add_test(NAME soak_20s
    COMMAND foreign_load --load 1:10 --
            $<TARGET_FILE:soak> --seconds 20 --json ${CMAKE_CURRENT_BINARY_DIR}/soak_20s.json)
  set_tests_properties(soak_20s PROPERTIES LABELS "soak;bench-smoke" TIMEOUT 120)
endif()
