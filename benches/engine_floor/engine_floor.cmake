# SPDX-License-Identifier: Apache-2.0
# engine_floor/: the fixed cost of a small call through CpuEngine and linalg.
# The record: docs/engine.md, "Cost of a call".
if(TARGET benchmark::benchmark)
  add_executable(engine_floor ${CMAKE_CURRENT_LIST_DIR}/engine_floor.cpp)
  target_link_libraries(engine_floor PRIVATE teamla::engine benchmark::benchmark teamla_warnings)
endif()
