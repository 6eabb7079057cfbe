# SPDX-License-Identifier: Apache-2.0
# faults/: one BLAS call under refused threads or memory; it checks, it times nothing.
# fault_calls: one BLAS call under refused threads or memory, for scripts/fault-table.
if(NOT TARGET teamla_fault_injection)
  return()
endif()
add_executable(fault_calls ${CMAKE_CURRENT_LIST_DIR}/fault_calls.cpp)
target_link_libraries(fault_calls PRIVATE teamla_fault_injection ${CMAKE_DL_LIBS} teamla_warnings)
# The interposers must be in the dynamic symbol table for the loaded library to bind to them.
set_target_properties(fault_calls PROPERTIES ENABLE_EXPORTS ON)
