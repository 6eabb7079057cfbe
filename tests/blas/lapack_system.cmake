# SPDX-License-Identifier: Apache-2.0
# liblapack.so.3 (engine/blas/system): the whole LAPACK ABI beside libblas.so.3, both found by
# the dynamic loader through LD_LIBRARY_PATH as update-alternatives would make them found, with
# no LD_PRELOAD. teamla's factorizations serve where the libblas.so.3 beneath is teamla's, the
# reference LAPACK everything else, on teamla's BLAS. Label blas-ref (unit for the SONAME).
if(NOT TARGET teamla_lapack_system)
  return()
endif()
set(teamla_lapack_system_dir $<TARGET_FILE_DIR:teamla_lapack_system>)
set(teamla_lapack_alternatives "${teamla_lapack_system_dir}:$<TARGET_FILE_DIR:teamla_blas_system>")

# Its identity: the SONAME of the liblapack.so.3 link, and libblas.so.3 needed as the
# reference's is (programs that link liblapack.so.3 alone find BLAS through it).
add_test(NAME lapack_system.soname
         COMMAND sh -c "readelf -d '$<TARGET_FILE:teamla_lapack_system>' > soname.txt && \
grep -F 'Library soname: [liblapack.so.3]' soname.txt && grep -F 'Shared library: [libblas.so.3]' soname.txt")
set_tests_properties(lapack_system.soname PROPERTIES LABELS "unit")

# The reference LAPACK test programs, on both libraries: the LU, Cholesky and QR paths and the
# symmetric eigenproblem pass, teamla's factorizations serve the programs' direct calls and the
# LAPACK routines around them, and liblapack.so.3 says it took teamla's routines.
function(teamla_lapack_system_test name program input)
  add_test(NAME lapack_system.${name}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_reference.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/lapack_system/${name} ${program} ${input} - ${ARGN})
  set_tests_properties(lapack_system.${name} PROPERTIES
    LABELS "blas-ref" TIMEOUT 300
    ENVIRONMENT "LD_LIBRARY_PATH=${teamla_lapack_alternatives};TEAMLA_BLAS_VERBOSE=1")
endfunction()
foreach(p d s)
  string(TOUPPER ${p} P)
  set(taken "routine(s) served by teamla's libblas.so.3")
  if(EXISTS ${teamla_lapack_ref_dir}/xlintst${p})
    foreach(path ge po)
      string(TOUPPER ${path} PATH)
      teamla_lapack_system_test(xlintst${p}_${path} ${teamla_lapack_ref_dir}/xlintst${p}
                                ${teamla_blas_work}/${p}test_${path}_large.in
                                "All tests for ${P}${PATH} routines passed the threshold"
                                "All tests for ${P}${PATH} drivers  passed the threshold"
                                "teamla_blas: ${p}${path}trf_ served by teamla" "${taken}")
    endforeach()
    teamla_lapack_system_test(xlintst${p}_qr ${teamla_lapack_ref_dir}/xlintst${p}
                              ${teamla_blas_work}/${p}test_qr.in
                              "All tests for ${P}QR routines passed the threshold"
                              "All tests for ${P}LS drivers  passed the threshold"
                              "teamla_blas: ${p}gemv_ served by teamla" "${taken}")
  endif()
  if(EXISTS ${teamla_lapack_ref_dir}/xeigtst${p})
    teamla_lapack_system_test(xeigtst${p}_sep ${teamla_lapack_ref_dir}/xeigtst${p}
                              ${teamla_lapack_ref_dir}/sep.in
                              "All tests for ${P}ST drivers  passed the threshold"
                              "teamla_blas: ${p}symv_ served by teamla" "${taken}")
  endif()
endforeach()

# A backend that is liblapack.so.3 itself (the alternative link pointing back here) is refused:
# nothing is left to serve a LAPACK routine, and the program stops naming it, without looping.
if(EXISTS ${teamla_lapack_ref_dir}/xlintstd)
  add_test(NAME lapack_system.refuses_itself_as_backend
           COMMAND sh -c "${teamla_lapack_ref_dir}/xlintstd < ${teamla_blas_work}/dtest_po.in \
> /dev/null; echo exit $?")
  set_tests_properties(lapack_system.refuses_itself_as_backend PROPERTIES
    LABELS "blas-ref"
    ENVIRONMENT "LD_LIBRARY_PATH=${teamla_lapack_alternatives};\
TEAMLA_LAPACK_BACKEND=$<TARGET_FILE:teamla_lapack_system>"
    PASS_REGULAR_EXPRESSION
      "liblapack.so.3: [a-z_0-9]+ is not served by teamla and no backend has it.*exit 134")
endif()

# numpy and scipy on both libraries, and with a libblas.so.3 that is not teamla's.
if(TEAMLA_SYSTEM_PYTHON AND NOT teamla_numpy_missing)
  add_test(NAME lapack_system.numpy
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lapack_system_test.py teamla
                   $<TARGET_FILE_DIR:teamla_blas_system> ${teamla_lapack_system_dir})
  add_test(NAME lapack_system.numpy_foreign_blas
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lapack_system_test.py
                   foreign-blas ${teamla_lapack_system_dir})
  # One pool: eigh and svd leave every thread but the caller and teamla's idle.
  add_test(NAME lapack_system.one_pool
           COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/one_pool_test.py system
                   ${teamla_lapack_alternatives})
  set_tests_properties(lapack_system.numpy lapack_system.numpy_foreign_blas PROPERTIES
    LABELS "blas-ref" TIMEOUT 300)
  set_tests_properties(lapack_system.one_pool PROPERTIES LABELS "blas-ref" TIMEOUT 300
                                                         RUN_SERIAL TRUE)
endif()
