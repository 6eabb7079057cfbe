# SPDX-License-Identifier: Apache-2.0
if(TARGET Eigen3::Eigen)
  add_executable(example_spd_solve_eigen ${CMAKE_CURRENT_LIST_DIR}/spd_solve_eigen.cpp)
  target_link_libraries(example_spd_solve_eigen PRIVATE teamla::engine Eigen3::Eigen teamla_warnings)
  add_test(NAME example_spd_solve_eigen COMMAND example_spd_solve_eigen)
  set_tests_properties(example_spd_solve_eigen PROPERTIES LABELS examples)
endif()
