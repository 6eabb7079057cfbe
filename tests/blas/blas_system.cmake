# SPDX-License-Identifier: Apache-2.0
# libblas.so.3 (engine/blas/system): the whole BLAS ABI, found by the dynamic loader through
# LD_LIBRARY_PATH as update-alternatives would make it found, with no LD_PRELOAD. The
# reference programs run every routine (none switched off): teamla's from teamla, the rest
# forwarded. Label blas-ref.
if(NOT TARGET teamla_blas_system)
  return()
endif()
set(teamla_blas_system_dir $<TARGET_FILE_DIR:teamla_blas_system>)
set(teamla_blas_system_work ${CMAKE_CURRENT_BINARY_DIR}/blas_system)
file(MAKE_DIRECTORY ${teamla_blas_system_work})

# teamla_blas_system_test(<name> <program> <input> <summary> <pattern>...)
function(teamla_blas_system_test name program input summary)
  add_test(NAME blas_system.${name}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_reference.sh
                   ${teamla_blas_system_work}/${name} ${program} ${input} ${summary} ${ARGN})
  set_tests_properties(blas_system.${name} PROPERTIES
    LABELS "blas-ref" TIMEOUT 300
    ENVIRONMENT "LD_LIBRARY_PATH=${teamla_blas_system_dir};TEAMLA_BLAS_VERBOSE=1")
endfunction()

foreach(p d s)
  string(TOUPPER ${p} P)
  if(EXISTS ${teamla_blas_ref_dir}/xblat1${p})
    teamla_blas_system_test(xblat1${p} ${teamla_blas_ref_dir}/xblat1${p} /dev/null -
                            "routine(s) forwarded to")
  endif()
  if(EXISTS ${teamla_blas_ref_dir}/xblat2${p})
    teamla_blas_system_test(xblat2${p} ${teamla_blas_ref_dir}/xblat2${p}
                            ${teamla_blas_ref_dir}/${p}blat2.in ${p}blat2.out
                            "${P}GEMV  PASSED THE COMPUTATIONAL TESTS")
  endif()
  if(EXISTS ${teamla_blas_ref_dir}/xblat3${p})
    set(patterns)
    foreach(routine ${P}GEMM ${P}SYMM ${P}TRMM ${P}TRSM ${P}SYRK ${P}SYR2K)
      string(SUBSTRING "${routine}      " 0 6 padded)  # the report's CHARACTER*6 names
      list(APPEND patterns "${padded} PASSED THE COMPUTATIONAL TESTS")
    endforeach()
    teamla_blas_system_test(xblat3${p} ${teamla_blas_ref_dir}/xblat3${p}
                            ${teamla_blas_ref_dir}/${p}blat3.in ${p}blat3.out ${patterns}
                            "teamla_blas: ${p}gemm_ served by teamla")
  endif()
endforeach()

# Its identity: the SONAME that update-alternatives' libblas.so.3 link needs.
add_test(NAME blas_system.soname
         COMMAND sh -c "readelf -d '$<TARGET_FILE:teamla_blas_system>' | grep -F '[libblas.so.3]'")
set_tests_properties(blas_system.soname PROPERTIES LABELS "unit")
add_test(NAME blas_system.no_static_guards
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_no_static_guards.sh
                 $<TARGET_FILE:teamla_blas_system>)
set_tests_properties(blas_system.no_static_guards PROPERTIES LABELS "unit")

# A routine that no backend has stops the program, by name, instead of returning garbage.
if(EXISTS ${teamla_blas_ref_dir}/xblat1d)
  add_test(NAME blas_system.missing_routine_stops_by_name
           COMMAND sh -c "${teamla_blas_ref_dir}/xblat1d < /dev/null > /dev/null; echo exit $?")
  set_tests_properties(blas_system.missing_routine_stops_by_name PROPERTIES
    LABELS "blas-ref"
    ENVIRONMENT
      "LD_LIBRARY_PATH=${teamla_blas_system_dir};TEAMLA_BLAS_BACKEND=/nonexistent;TEAMLA_BLAS_COMPLETION="
    PASS_REGULAR_EXPRESSION "[a-z_0-9]+ is not served by teamla and no backend has it.*exit 134")
endif()

# numpy on it with no LD_PRELOAD: Debian's numpy links libblas.so.3.
if(TEAMLA_SYSTEM_PYTHON AND NOT teamla_numpy_missing)
  add_test(NAME blas_system.numpy
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/numpy_system_test.py
                   ${teamla_blas_system_dir})
  set_tests_properties(blas_system.numpy PROPERTIES LABELS "blas-ref" TIMEOUT 300)
endif()

# threadpoolctl (Debian python3-threadpoolctl) limits teamla, preloaded and as libblas.so.3.
if(TEAMLA_SYSTEM_PYTHON AND NOT teamla_numpy_missing)
  execute_process(COMMAND ${TEAMLA_SYSTEM_PYTHON} -c "import threadpoolctl"
                  RESULT_VARIABLE teamla_threadpoolctl_missing OUTPUT_QUIET ERROR_QUIET)
  if(NOT teamla_threadpoolctl_missing)
    add_test(NAME blas_system.threadpoolctl
             COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/threadpoolctl_test.py
                     $<TARGET_FILE:teamla_blas> ${teamla_blas_system_dir})
    set_tests_properties(blas_system.threadpoolctl PROPERTIES
      LABELS "blas-ref" TIMEOUT 300 SKIP_RETURN_CODE 77)
  else()
    message(STATUS "teamla: threadpoolctl not found: blas_system.threadpoolctl is off")
  endif()
endif()

# One pool in the process: numpy's eigh and svd, preloaded and on libblas.so.3, leave every
# thread but the caller and teamla's pool idle (one_pool_test.py reads their CPU times).
if(TEAMLA_SYSTEM_PYTHON AND NOT teamla_numpy_missing)
  add_test(NAME blas_system.one_pool_preloaded
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/one_pool_test.py preload
                   $<TARGET_FILE:teamla_blas>)
  add_test(NAME blas_system.one_pool_libblas
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/one_pool_test.py system
                   ${teamla_blas_system_dir})
  # RUN_SERIAL: a CPU time read beside other tests' threads is still the process's own, but
  # the calls must not be starved into running inline for the whole test.
  set_tests_properties(blas_system.one_pool_preloaded blas_system.one_pool_libblas PROPERTIES
    LABELS "blas-ref" TIMEOUT 300 RUN_SERIAL TRUE)
endif()
