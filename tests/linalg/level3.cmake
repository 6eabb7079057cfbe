# SYMM, TRMM, SYR2K (label kernels): every combination against a long-double oracle.
foreach(routine symm trmm syr2k)
  teamla_add_gtest(${routine}_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/${routine}_test.cpp
    LIBS teamla::linalg
    LABELS kernels)
endforeach()
# Complex trsm and herk.
teamla_add_gtest(complex_level3_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/complex_level3_test.cpp
  LIBS teamla::linalg teamla::team
  LABELS kernels)
add_test(NAME complex_level3_team_under_concurrency
  COMMAND complex_level3_test --gtest_filter=Widths/ComplexLevel3OnTeam.*)
set_tests_properties(complex_level3_team_under_concurrency PROPERTIES LABELS concurrency)
