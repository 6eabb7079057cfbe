# SPDX-License-Identifier: Apache-2.0
add_executable(example_counters ${CMAKE_CURRENT_LIST_DIR}/counters.cpp)
target_link_libraries(example_counters PRIVATE teamla::engine teamla_warnings)
add_test(NAME example_counters COMMAND example_counters)
set_tests_properties(example_counters PROPERTIES LABELS examples)
