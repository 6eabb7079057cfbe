# SPDX-License-Identifier: Apache-2.0
# scipy (Debian's /usr/bin/python3 and python3-scipy, installed by scripts/setup) on
# libteamla_blas.so, preloaded: cho_factor, cho_solve and solve(assume_a='pos') served by
# teamla and correct (tests/blas/scipy_served_test.py). Label blas-ref.
if(NOT TARGET teamla_blas OR CMAKE_CXX_FLAGS MATCHES "-fsanitize" OR NOT TEAMLA_SYSTEM_PYTHON)
  return()
endif()
execute_process(COMMAND ${TEAMLA_SYSTEM_PYTHON} -c "import scipy.linalg"
                RESULT_VARIABLE teamla_scipy_missing OUTPUT_QUIET ERROR_QUIET)
if(teamla_scipy_missing)
  message(STATUS "teamla: scipy not found for ${TEAMLA_SYSTEM_PYTHON}: blas_ref.scipy is off")
  return()
endif()
add_test(NAME blas_ref.scipy
         COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/scipy_served_test.py
                 $<TARGET_FILE:teamla_blas>)
set_tests_properties(blas_ref.scipy PROPERTIES LABELS "blas-ref" TIMEOUT 300)
