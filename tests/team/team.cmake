# SPDX-License-Identifier: Apache-2.0
# tests/team: the thread-team runtime. Labels: concurrency (runs under tsan in CI), model
# (Relacy), stress (timing-sensitive, serial). One label per test (see teamla_add_gtest).
set(teamla_team_test_sources
  ${CMAKE_CURRENT_LIST_DIR}/section_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/budget_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/claimed_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pool_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pressure_test.cpp)
teamla_add_gtest(team_runtime_test
  SOURCES ${teamla_team_test_sources}
  LIBS teamla::team
  LABELS concurrency)
target_include_directories(team_runtime_test PRIVATE ${PROJECT_SOURCE_DIR}/team/src)

# The same tests against the runtime built with the portable (mutex+condvar) wait forced;
# prefixed so that the test names stay unique.
add_executable(team_runtime_portable_test ${teamla_team_test_sources})
target_link_libraries(team_runtime_portable_test
  PRIVATE teamla_team_portable GTest::gtest GTest::gtest_main teamla_warnings)
gtest_discover_tests(team_runtime_portable_test TEST_PREFIX "portable:" DISCOVERY_TIMEOUT 60
  PROPERTIES LABELS concurrency)

# Relacy models of the wait protocols (the production templates, bound to rl::atomic).
if(TEAMLA_RELACY_INCLUDE)
  add_executable(team_model_test ${CMAKE_CURRENT_LIST_DIR}/model_test.cpp)
  target_include_directories(team_model_test SYSTEM PRIVATE ${TEAMLA_RELACY_INCLUDE})
  target_include_directories(team_model_test PRIVATE ${PROJECT_SOURCE_DIR}/team/src)
  target_compile_features(team_model_test PRIVATE cxx_std_20)
  add_test(NAME team_model_test COMMAND team_model_test)
  set_tests_properties(team_model_test PROPERTIES LABELS model TIMEOUT 600)
endif()

# Timing-sensitive: the stacked (faer#107) situations and the idle-CPU bound. Serial.
teamla_add_gtest(team_stacked_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/stacked_test.cpp
  LIBS teamla::team
  LABELS stress
  SERIAL)

# fork(): the idle-pool reservoir and process-wide values (label faults: a process-level
# contract, kept out of the tsan run, which does not follow a forked child).
teamla_add_gtest(team_fork_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/fork_test.cpp
  LIBS teamla::team
  LABELS faults)
# The same on the portable wait: the parent's idle workers wait on its buckets' condvars when
# it forks, and the child waits on buckets of its own.
add_executable(team_fork_portable_test ${CMAKE_CURRENT_LIST_DIR}/fork_test.cpp)
target_link_libraries(team_fork_portable_test
  PRIVATE teamla_team_portable GTest::gtest GTest::gtest_main teamla_warnings)
gtest_discover_tests(team_fork_portable_test TEST_PREFIX "portable:" DISCOVERY_TIMEOUT 60
  PROPERTIES LABELS faults)

# The home-first hand-out of a claimed section's units (racing claims: run under tsan too).
teamla_add_gtest(home_units_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/home_units_test.cpp
  LIBS teamla::team
  LABELS concurrency)
