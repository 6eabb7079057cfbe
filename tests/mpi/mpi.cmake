# SPDX-License-Identifier: Apache-2.0
# The distributed drivers (label mpi): ScaLAPACK over Open MPI, libteamla_blas.so preloaded in
# every rank. Without MPI or ScaLAPACK the test is registered and skipped, so the absence shows
# in every ctest summary instead of passing silently.
if(NOT TARGET teamla_blas OR CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  return()  # a sanitized library cannot be preloaded into unsanitized ranks
endif()
if(NOT TEAMLA_DISTRIBUTED)
  foreach(routine pdpotrf pdgemm)
    add_test(NAME mpi.${routine}
             COMMAND sh -c "echo 'MPI or ScaLAPACK not found at configure time (scripts/setup)'; exit 77")
    set_tests_properties(mpi.${routine} PROPERTIES LABELS mpi SKIP_RETURN_CODE 77)
  endforeach()
  return()
endif()

add_executable(scalapack_driver ${CMAKE_CURRENT_LIST_DIR}/scalapack_driver.cpp)
target_link_libraries(scalapack_driver PRIVATE PkgConfig::TEAMLA_SCALAPACK MPI::MPI_C
                                               ${CMAKE_DL_LIBS} teamla_warnings)
# The C API only: Open MPI's mpi.h otherwise pulls its deprecated C++ bindings into a C++ file.
target_compile_definitions(scalapack_driver PRIVATE OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
add_dependencies(scalapack_driver teamla_blas)

# Two ranks on a 1 x 2 grid over shared memory, one teamla thread each: the factor's residual,
# and every rank's log showing that teamla served the local BLAS 3 calls.
add_test(NAME mpi.pdpotrf
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_driver.sh ${MPIEXEC_EXECUTABLE} 2
                 $<TARGET_FILE:teamla_blas> $<TARGET_FILE:scalapack_driver>
                 --routine pdpotrf --n 600 --nb 64 --p 1 --q 2 --reps 2)
set_tests_properties(mpi.pdpotrf PROPERTIES LABELS mpi TIMEOUT 120)
# The same for pdgemm, checked against pdgemv (the system BLAS): only dgemm_ is expected.
add_test(NAME mpi.pdgemm
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_driver.sh ${MPIEXEC_EXECUTABLE} 2
                 $<TARGET_FILE:teamla_blas> $<TARGET_FILE:scalapack_driver>
                 --routine pdgemm --n 600 --nb 64 --p 1 --q 2 --reps 2)
set_tests_properties(mpi.pdgemm PROPERTIES LABELS mpi TIMEOUT 120
                                           ENVIRONMENT "TEAMLA_EXPECTED_ROUTINES=dgemm_")
