# tests/team: the thread-team runtime. Labels: unit, concurrency (run under tsan in CI),
# model (Relacy), stress (timing-sensitive, serial).
set(teamla_team_test_sources
  ${CMAKE_CURRENT_LIST_DIR}/section_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pool_test.cpp)
teamla_add_gtest(team_runtime_test
  SOURCES ${teamla_team_test_sources}
  LIBS teamla::team
  LABELS unit concurrency)
target_include_directories(team_runtime_test PRIVATE ${PROJECT_SOURCE_DIR}/team/src)

# The same tests against the runtime built with the portable (mutex+condvar) wait forced.
teamla_add_gtest(team_runtime_portable_test
  SOURCES ${teamla_team_test_sources}
  LIBS teamla_team_portable
  LABELS unit concurrency)

# Relacy models of the wait protocols (the production templates, bound to rl::atomic).
if(TEAMLA_RELACY_INCLUDE)
  add_executable(team_model_test ${CMAKE_CURRENT_LIST_DIR}/model_test.cpp)
  target_include_directories(team_model_test SYSTEM PRIVATE ${TEAMLA_RELACY_INCLUDE})
  target_include_directories(team_model_test PRIVATE ${PROJECT_SOURCE_DIR}/team/src)
  target_compile_features(team_model_test PRIVATE cxx_std_20)
  add_test(NAME team_model_test COMMAND team_model_test)
  set_tests_properties(team_model_test PROPERTIES LABELS model TIMEOUT 600)
endif()
