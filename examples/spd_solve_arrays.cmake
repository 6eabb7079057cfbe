# SPDX-License-Identifier: Apache-2.0
add_executable(example_spd_solve_arrays ${CMAKE_CURRENT_LIST_DIR}/spd_solve_arrays.cpp)
target_link_libraries(example_spd_solve_arrays PRIVATE teamla::engine teamla_warnings)
add_test(NAME example_spd_solve_arrays COMMAND example_spd_solve_arrays)
set_tests_properties(example_spd_solve_arrays PROPERTIES LABELS examples)
