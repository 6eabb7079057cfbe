# SPDX-License-Identifier: Apache-2.0
# Every dependency comes from a Debian package (scripts/setup installs them).
# The library itself needs only threads. Baselines are linked into benches and tests only;
# a missing baseline disables what uses it, with a message, and never fails the build.
find_package(Threads REQUIRED)

if(TEAMLA_BUILD_TESTS OR TEAMLA_BUILD_BENCHES)
  find_package(GTest)
  find_package(benchmark)
  find_package(Eigen3 3.4 NO_MODULE)
  find_package(OpenMP COMPONENTS CXX C)

  # Debian's OpenBLAS config sets variables but no imported target: wrap it.
  find_package(OpenBLAS CONFIG)
  if(OpenBLAS_FOUND AND EXISTS "${OpenBLAS_LIBRARIES}")
    add_library(teamla_baseline_openblas INTERFACE)
    target_include_directories(teamla_baseline_openblas SYSTEM INTERFACE ${OpenBLAS_INCLUDE_DIRS})
    target_link_libraries(teamla_baseline_openblas INTERFACE ${OpenBLAS_LIBRARIES})
    add_library(teamla::baseline_openblas ALIAS teamla_baseline_openblas)
    message(STATUS "teamla: OpenBLAS baseline ${OpenBLAS_VERSION}: ${OpenBLAS_LIBRARIES}")
  else()
    message(STATUS "teamla: OpenBLAS not found (libopenblas-dev): its baseline benches are off")
  endif()

  # BLIS (openmp build) installs into a private directory with no CMake config.
  find_path(TEAMLA_BLIS_INCLUDE blis.h PATHS /usr/include/x86_64-linux-gnu/blis-openmp
            /usr/include/blis NO_DEFAULT_PATH)
  find_library(TEAMLA_BLIS_LIBRARY NAMES blis PATHS /usr/lib/x86_64-linux-gnu/blis-openmp
               NO_DEFAULT_PATH)
  if(TEAMLA_BLIS_INCLUDE AND TEAMLA_BLIS_LIBRARY)
    add_library(teamla_baseline_blis INTERFACE)
    target_include_directories(teamla_baseline_blis SYSTEM INTERFACE ${TEAMLA_BLIS_INCLUDE})
    target_link_libraries(teamla_baseline_blis INTERFACE ${TEAMLA_BLIS_LIBRARY})
    add_library(teamla::baseline_blis ALIAS teamla_baseline_blis)
    message(STATUS "teamla: BLIS baseline: ${TEAMLA_BLIS_LIBRARY}")
  else()
    message(STATUS "teamla: BLIS not found (libblis-dev): its baseline benches are off")
  endif()

  # libxsmm 1.17 (libxsmm-dev): static archives only, built position-independent; the small
  # GEMM benches load it through a shim (benches/small_gemm/xsmm_blas.cpp) as a further anchor.
  find_path(TEAMLA_XSMM_INCLUDE libxsmm.h)
  find_library(TEAMLA_XSMM_LIBRARY NAMES libxsmm.a)
  if(TEAMLA_XSMM_INCLUDE AND TEAMLA_XSMM_LIBRARY)
    add_library(teamla_baseline_xsmm INTERFACE)
    target_include_directories(teamla_baseline_xsmm SYSTEM INTERFACE ${TEAMLA_XSMM_INCLUDE})
    target_link_libraries(teamla_baseline_xsmm INTERFACE ${TEAMLA_XSMM_LIBRARY} Threads::Threads
                                                         ${CMAKE_DL_LIBS} rt m)
    add_library(teamla::baseline_xsmm ALIAS teamla_baseline_xsmm)
    message(STATUS "teamla: libxsmm baseline: ${TEAMLA_XSMM_LIBRARY}")
  else()
    message(STATUS "teamla: libxsmm not found (libxsmm-dev): its small-GEMM arm is off")
  endif()

  if(NOT Eigen3_FOUND)
    message(STATUS "teamla: Eigen 3.4 not found (libeigen3-dev): Eigen tests and benches are off")
  endif()
  if(NOT OpenMP_CXX_FOUND)
    message(STATUS "teamla: OpenMP not found: the libgomp arms of the benches are off")
  endif()

  # MPI and ScaLAPACK (libopenmpi-dev, libscalapack-openmpi-dev) for the distributed drivers
  # (tests/mpi). ScaLAPACK is found through pkg-config: Debian 12's CMake config for it names
  # /usr/lib/libscalapack-openmpi.so.2.2.1, which the package does not ship, and that is a
  # fatal configure error. The Open MPI build is the one that matches the MPI found here.
  find_package(MPI COMPONENTS C)
  find_package(PkgConfig)
  if(PkgConfig_FOUND)
    pkg_check_modules(TEAMLA_SCALAPACK IMPORTED_TARGET scalapack-openmpi)
  endif()
  if(MPI_C_FOUND AND MPIEXEC_EXECUTABLE AND TEAMLA_SCALAPACK_FOUND)
    set(TEAMLA_DISTRIBUTED ON)
    message(STATUS "teamla: ScaLAPACK ${TEAMLA_SCALAPACK_VERSION} over MPI ${MPI_C_VERSION} "
                   "(${MPIEXEC_EXECUTABLE}): the distributed drivers are on")
  else()
    set(TEAMLA_DISTRIBUTED OFF)
    message(STATUS "teamla: MPI or ScaLAPACK not found (libopenmpi-dev, openmpi-bin, "
                   "libscalapack-openmpi-dev): the distributed drivers are off")
  endif()

  find_path(TEAMLA_RELACY_INCLUDE relacy/relacy.hpp)
  if(TEAMLA_RELACY_INCLUDE)
    message(STATUS "teamla: Relacy found: model checks are on")
  else()
    message(STATUS "teamla: Relacy not found (relacy-dev): model checks are off")
  endif()
endif()
