# SPDX-License-Identifier: Apache-2.0
add_executable(example_readme_example ${CMAKE_CURRENT_LIST_DIR}/readme_example.cpp)
target_link_libraries(example_readme_example PRIVATE teamla::engine teamla_warnings)
add_test(NAME example_readme_example COMMAND example_readme_example)
set_tests_properties(example_readme_example PROPERTIES LABELS examples)
# The README quotes readme_example.cpp verbatim: keep the two in sync.
add_test(NAME example_readme_in_sync
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/readme_sync.sh ${PROJECT_SOURCE_DIR}/README.md
          ${CMAKE_CURRENT_LIST_DIR}/readme_example.cpp)
set_tests_properties(example_readme_in_sync PROPERTIES LABELS examples)
