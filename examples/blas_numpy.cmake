# SPDX-License-Identifier: Apache-2.0
# blas_numpy: numpy (Debian's /usr/bin/python3 + python3-numpy) on libteamla_blas.so through
# LD_PRELOAD. The run passes when teamla's verbose log shows it served numpy's calls and the
# script found its results correct.
if(NOT TARGET teamla_blas OR CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  return()
endif()
find_program(TEAMLA_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT TEAMLA_SYSTEM_PYTHON)
  return()
endif()
execute_process(COMMAND ${TEAMLA_SYSTEM_PYTHON} -c "import numpy"
                RESULT_VARIABLE teamla_numpy_missing OUTPUT_QUIET ERROR_QUIET)
if(teamla_numpy_missing)
  message(STATUS "teamla: numpy not found: the blas_numpy example is off")
  return()
endif()
add_test(NAME example.blas_numpy
         COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=$<TARGET_FILE:teamla_blas>
                 TEAMLA_BLAS_VERBOSE=1 ${TEAMLA_SYSTEM_PYTHON}
                 ${CMAKE_CURRENT_LIST_DIR}/blas_numpy.py)
set_tests_properties(example.blas_numpy PROPERTIES
  LABELS "examples" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "teamla_blas: cblas_dgemm served by teamla"
  FAIL_REGULAR_EXPRESSION "FAILED|Traceback|Error")
