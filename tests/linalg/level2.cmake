# The matrix-vector routines (label kernels): every routine, op, triangle, layout and stride
# against a long-double oracle, on every ISA path; the team variant (teams of 2 and 3) again
# under the concurrency label.
teamla_add_gtest(level2_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/level2_test.cpp
  LIBS teamla::linalg teamla::team
  LABELS kernels)
add_test(NAME level2_team_under_concurrency
  COMMAND level2_test --gtest_filter=Widths/Level2OnTeam.*)
set_tests_properties(level2_team_under_concurrency PROPERTIES LABELS concurrency)
