# The showcase (scripts/demo): teamla against OpenBLAS and Eigen, and the engine's modes.
# Baselines are linked here only, never into the library.
if(TARGET teamla::baseline_openblas)
  add_executable(showcase ${CMAKE_CURRENT_LIST_DIR}/showcase.cpp
                          ${CMAKE_CURRENT_LIST_DIR}/showcase_arms.cpp)
  target_link_libraries(showcase PRIVATE teamla::engine teamla::baseline_openblas teamla_warnings)
  if(Eigen3_FOUND)
    target_sources(showcase PRIVATE ${CMAKE_CURRENT_LIST_DIR}/showcase_eigen.cpp)
    # Eigen gets the ISA flags of teamla's AVX-512 kernels, on its own file only; the showcase
    # runs this arm only where the CPU has them. GCC 12 warns (maybe-uninitialized) inside its
    # own avx512fintrin.h on Eigen's code: not ours to fix, and fatal under -Werror.
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/showcase_eigen.cpp PROPERTIES
      COMPILE_OPTIONS "-mavx512f;-mavx512dq;-mavx512bw;-mavx512vl;-mavx2;-mfma;-Wno-maybe-uninitialized")
    target_link_libraries(showcase PRIVATE Eigen3::Eigen)
    if(OpenMP_CXX_FOUND)
      target_link_libraries(showcase PRIVATE OpenMP::OpenMP_CXX)
    endif()
  else()
    target_sources(showcase PRIVATE ${CMAKE_CURRENT_LIST_DIR}/showcase_no_eigen.cpp)
  endif()
  # foreign_load (benches/waits.cmake, included later) makes the showcase's loaded rows;
  # add_dependencies resolves the name at generate time, so the order does not matter.
  add_dependencies(showcase foreign_load)
  if(TEAMLA_BUILD_TESTS)
    add_test(NAME showcase_smoke COMMAND showcase --rounds 1 --no-load)
    set_tests_properties(showcase_smoke PROPERTIES LABELS bench-smoke RUN_SERIAL TRUE)
  endif()
else()
  message(STATUS "teamla: the showcase needs OpenBLAS (libopenblas-dev): it is off")
endif()
