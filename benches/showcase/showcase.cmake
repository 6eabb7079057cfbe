# SPDX-License-Identifier: Apache-2.0
# showcase/: the checked demo table of scripts/demo, teamla against OpenBLAS and Eigen.
# The showcase (scripts/demo): teamla against OpenBLAS and Eigen, and the engine's modes.
# Baselines are linked here only, never into the library.
if(TARGET teamla::baseline_openblas)
  add_executable(showcase ${CMAKE_CURRENT_LIST_DIR}/showcase.cpp
                          ${CMAKE_CURRENT_LIST_DIR}/showcase_arms.cpp
                          ${CMAKE_CURRENT_LIST_DIR}/showcase_dense.cpp
                          ${CMAKE_CURRENT_LIST_DIR}/showcase_measure.cpp)
  target_link_libraries(showcase PRIVATE teamla::engine teamla::baseline_openblas teamla_warnings)
  # The Eigen arm: one executable per ISA, each wholly compiled with that ISA's flags (an Eigen
  # template compiled for AVX-512 must never be linked where an AVX2 CPU runs it); the
  # showcase runs the one the CPU has, and scripts/demo builds only that one. GCC 12 warns (maybe-uninitialized) inside its own
  # avx512fintrin.h on Eigen's code: not ours to fix, and fatal under -Werror.
  if(Eigen3_FOUND)
    foreach(isa avx2 avx512)
      add_executable(showcase_eigen_${isa} ${CMAKE_CURRENT_LIST_DIR}/showcase_eigen_arm.cpp
                                           ${CMAKE_CURRENT_LIST_DIR}/showcase_measure.cpp)
      target_link_libraries(showcase_eigen_${isa} PRIVATE teamla::team Eigen3::Eigen
                                                          teamla_warnings)
      if(OpenMP_CXX_FOUND)
        target_link_libraries(showcase_eigen_${isa} PRIVATE OpenMP::OpenMP_CXX)
      endif()
    endforeach()
    target_compile_options(showcase_eigen_avx2 PRIVATE -mavx2 -mfma)
    target_compile_options(showcase_eigen_avx512 PRIVATE -mavx512f -mavx512dq -mavx512bw
                                                         -mavx512vl -mavx2 -mfma
                                                         -Wno-maybe-uninitialized)
  endif()
  # foreign_load (benches/waits/waits.cmake, included later) makes the showcase's loaded rows;
  # add_dependencies resolves the name at generate time, so the order does not matter.
  add_dependencies(showcase foreign_load)
  if(TEAMLA_BUILD_TESTS)
    add_test(NAME showcase_smoke COMMAND showcase --rounds 1 --no-load)
    set_tests_properties(showcase_smoke PROPERTIES LABELS bench-smoke RUN_SERIAL TRUE)
    # The plausibility check itself: an arm sleeping 20 ms a product must be flagged as
    # unexplained (and the run must exit 3, which the expression's "exit 3" line shows).
    add_test(NAME showcase_flags_an_implausible_arm
             COMMAND sh -c "$<TARGET_FILE:showcase> --rounds 1 --no-load --with-test-arm; echo exit $?")
    set_tests_properties(showcase_flags_an_implausible_arm PROPERTIES LABELS bench-smoke
      RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION "! sleeper at n = 64: [^\n]*unexplained.*exit 3")
  endif()
else()
  message(STATUS "teamla: the showcase needs OpenBLAS (libopenblas-dev): it is off")
endif()
