# SPDX-License-Identifier: Apache-2.0
add_executable(example_held_vs_per_call ${CMAKE_CURRENT_LIST_DIR}/held_vs_per_call.cpp)
target_link_libraries(example_held_vs_per_call PRIVATE teamla::engine teamla_warnings)
# A short loop under ctest: the example must run, not measure.
add_test(NAME example_held_vs_per_call COMMAND example_held_vs_per_call 20)
set_tests_properties(example_held_vs_per_call PROPERTIES LABELS examples)
