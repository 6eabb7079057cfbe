# SPDX-License-Identifier: Apache-2.0
# Tests of libteamla_blas.so (engine/blas) and of its use by the reference test programs.
if(NOT TARGET teamla_blas)
  return()
endif()

# --- The ABI, in-process: error reporting, edges, concurrent callers, fork. ---------------
teamla_add_gtest(blas_errors_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_errors_test.cpp
  LIBS teamla_blas
  LABELS unit)
# The program's xerbla_/cblas_xerbla must be in its dynamic symbol table to win.
set_target_properties(blas_errors_test PROPERTIES ENABLE_EXPORTS ON)

# symm, trmm, syr2k, posv and their CBLAS forms: positions, INFO, edges, row-major mapping.
teamla_add_gtest(blas_level3_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_level3_test.cpp
  LIBS teamla_blas
  LABELS unit)
set_target_properties(blas_level3_test PROPERTIES ENABLE_EXPORTS ON)

# Thread control (openblas_set_num_threads and the rest), with the library linked directly.
teamla_add_gtest(blas_threads_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_threads_test.cpp
  LIBS teamla_blas Threads::Threads
  LABELS unit)

teamla_add_gtest(blas_threads_concurrency_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_threads_concurrency_test.cpp
  LIBS teamla_blas Threads::Threads
  LABELS concurrency)

teamla_add_gtest(blas_concurrency_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_concurrency_test.cpp
  LIBS teamla_blas Threads::Threads
  LABELS concurrency)

# fork() with threads running is outside what ThreadSanitizer supports.
if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
  teamla_add_gtest(blas_fork_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/blas_fork_test.cpp
    LIBS teamla_blas Threads::Threads
    LABELS unit)
endif()

# Everything below preloads or dlopens the library into programs (or checks its symbol
# table), which a sanitized build cannot do.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  return()
endif()

# --- The library's lifecycle and thread-count rule, through dlopen. -----------------------
add_executable(blas_lifecycle_probe ${CMAKE_CURRENT_LIST_DIR}/blas_lifecycle_probe.cpp)
target_link_libraries(blas_lifecycle_probe PRIVATE Threads::Threads ${CMAKE_DL_LIBS}
                                                   teamla_warnings)
add_dependencies(blas_lifecycle_probe teamla_blas)
set(teamla_blas_so $<TARGET_FILE:teamla_blas>)
foreach(mode unload exit-busy)
  add_test(NAME blas.lifecycle.${mode}
           COMMAND blas_lifecycle_probe ${teamla_blas_so} ${mode})
  set_tests_properties(blas.lifecycle.${mode} PROPERTIES LABELS "unit" TIMEOUT 60)
endforeach()

# With no handler in the process, teamla's own print the reference messages (the CBLAS one
# naming the argument as written: M is the 4th) and nothing is written.
add_test(NAME blas.default_handlers COMMAND blas_lifecycle_probe ${teamla_blas_so} illegal)
set_tests_properties(blas.default_handlers PROPERTIES
  LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION
  "On entry to DGEMM  parameter number  1 had an illegal value[\r\n]+Parameter 4 to routine cblas_dgemm was incorrect[\r\n]+outputs untouched"
  FAIL_REGULAR_EXPRESSION "Segmentation|Abort")

# Width: TEAMLA_NUM_THREADS, else OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else the
# affinity set (taskset -c 0: one CPU).
function(teamla_blas_width_test name width)
  add_test(NAME blas.width.${name} COMMAND ${ARGN} $<TARGET_FILE:blas_lifecycle_probe>
                                           ${teamla_blas_so} call)
  set_tests_properties(blas.width.${name} PROPERTIES
    LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION
    "teamla_blas: teamla ${PROJECT_VERSION}[\r\n]+teamla_blas: dgemm_ served by teamla \\(engine held, width ${width},")
endfunction()
set(teamla_blas_env ${CMAKE_COMMAND} -E env --unset=TEAMLA_NUM_THREADS
                    --unset=OPENBLAS_NUM_THREADS --unset=OMP_NUM_THREADS TEAMLA_BLAS_VERBOSE=1)
teamla_blas_width_test(teamla 3 ${teamla_blas_env} TEAMLA_NUM_THREADS=3 OPENBLAS_NUM_THREADS=1
                       OMP_NUM_THREADS=1)
teamla_blas_width_test(openblas 3 ${teamla_blas_env} OPENBLAS_NUM_THREADS=3 OMP_NUM_THREADS=1)
teamla_blas_width_test(omp 3 ${teamla_blas_env} OMP_NUM_THREADS=3,1)
# At exit the verbose log carries the engine's counters, the members' own included.
add_test(NAME blas.verbose_exit_counters
         COMMAND ${teamla_blas_env} TEAMLA_NUM_THREADS=2 $<TARGET_FILE:blas_lifecycle_probe>
                 ${teamla_blas_so} call)
set_tests_properties(blas.verbose_exit_counters PROPERTIES
  LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION
  "teamla_blas: engine at exit: [0-9]+ calls, [^\r\n]+ member parks, [^\r\n]+[\r\n]+teamla_blas: members: [0-9]+ left out of a claimed section, [0-9]+ late joins, [0-9]+ idle arrivals, [0-9]+ stacked waits, [0-9]+ CPU moves, [0-9]+ wakes ahead")
find_program(TEAMLA_TASKSET taskset)
if(TEAMLA_TASKSET)
  teamla_blas_width_test(affinity 1 ${teamla_blas_env} ${TEAMLA_TASKSET} -c 0)
endif()

# --- Thread control from C, linked ahead of the system OpenBLAS, whose pool obeys too. -----
add_executable(blas_threads_c_test ${CMAKE_CURRENT_LIST_DIR}/blas_threads_c_test.c)
target_link_libraries(blas_threads_c_test PRIVATE teamla_blas ${CMAKE_DL_LIBS})
if(TARGET teamla_baseline_openblas)
  # After teamla_blas, as LD_PRELOAD orders them; kept although no OpenBLAS symbol is
  # referenced, since the test reaches OpenBLAS through dlopen.
  target_link_libraries(blas_threads_c_test PRIVATE -Wl,--no-as-needed teamla_baseline_openblas)
endif()
add_test(NAME blas.threads_from_c COMMAND blas_threads_c_test)
set_tests_properties(blas.threads_from_c PROPERTIES LABELS "unit" TIMEOUT 60
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1;TEAMLA_NUM_THREADS=1")

# --- Exactly the documented symbols are exported. -----------------------------------------
add_test(NAME blas.exports
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_exports.sh ${teamla_blas_so})
set_tests_properties(blas.exports PROPERTIES LABELS "unit")

# --- No guarded function-local static a fork() could copy taken. ---------------------------
add_test(NAME blas.no_static_guards
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_no_static_guards.sh ${teamla_blas_so}
                 $<TARGET_FILE:teamla_team> $<TARGET_FILE:teamla_linalg>
                 $<TARGET_FILE:teamla_engine>)
set_tests_properties(blas.no_static_guards PROPERTIES LABELS "unit")

# --- The reference test programs (Debian libblas-test, liblapack-test), preloaded. --------
# Each runs from a copy of its input in which the routines teamla does not export are
# switched off (F) and everything else, error exits included, stays on. teamla exports every
# real level-3 routine, so the level-3 inputs run whole.
set(teamla_blas_ref_dir /usr/lib/x86_64-linux-gnu/blas)
set(teamla_lapack_ref_dir /usr/lib/x86_64-linux-gnu/lapack)
set(teamla_blas_work ${CMAKE_CURRENT_BINARY_DIR}/blas_reference)
file(MAKE_DIRECTORY ${teamla_blas_work})

# teamla_blas_reference_input(<source> <copy> <routine>...): the copy with <routine>'s flag F.
function(teamla_blas_reference_input source copy)
  file(READ ${source} text)
  foreach(routine IN LISTS ARGN)
    string(REGEX REPLACE "(${routine} +)T PUT" "\\1F PUT" text "${text}")
  endforeach()
  file(WRITE ${copy} "${text}")
endfunction()

# teamla_blas_reference_test(<name> <program> <input> <summary> <env> <pattern>...)
function(teamla_blas_reference_test name program input summary env)
  add_test(NAME blas_ref.${name}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_reference.sh ${teamla_blas_work}/${name}
                   ${program} ${input} ${summary} ${ARGN})
  set_tests_properties(blas_ref.${name} PROPERTIES
    LABELS "blas-ref" TIMEOUT 300
    ENVIRONMENT "LD_PRELOAD=${teamla_blas_so};TEAMLA_BLAS_VERBOSE=1;${env}")
endfunction()

# teamla_lapack_reference_tests(<p> <path>...): the LAPACK linear-equation tests of precision
# <p>, restricted to the paths teamla serves: PO (Cholesky: potrf, potrs, posv, and the
# system's potri/pocon/porfs/posvx around them) and GE (LU: getrf, getrs, gesv, getri, and the
# system's gecon/gerfs/gesvx/geequ around them): the header of <p>test.in, then one line.
function(teamla_lapack_reference_tests p)
  set(paths ${ARGN})
  string(TOUPPER ${p} P)
  if(EXISTS ${teamla_lapack_ref_dir}/xlintst${p} AND EXISTS ${teamla_lapack_ref_dir}/${p}test.in)
    file(STRINGS ${teamla_lapack_ref_dir}/${p}test.in lines)
    list(SUBLIST lines 0 16 header)
    list(GET header 15 last_header_line)
    if(NOT last_header_line MATCHES "error exits")
      message(WARNING "teamla: unexpected ${p}test.in layout; blas_ref.xlintst${p} is off")
    else()
      # The standard sizes (N up to 50), and a run at the largest the program allows
      # (NMAX = 132), where teamla's blocked factorizations and its team take part.
      set(large_header ${header})
      list(REMOVE_AT large_header 1 2 3 4)
      list(INSERT large_header 1 "4                      Number of values of M"
                                 "0 33 100 132           Values of M (row dimension)"
                                 "4                      Number of values of N"
                                 "0 33 100 132           Values of N (column dimension)")
      foreach(path ${paths})
        if(path STREQUAL "PO")
          set(path_line "${P}PO    9               List types on next line if 0 < NTYPES <  9")
          set(served potrf potrs posv)
        else()
          set(path_line "${P}GE   11               List types on next line if 0 < NTYPES < 11")
          set(served getrf getrs gesv getri)
        endif()
        set(served_patterns)
        foreach(routine ${served})
          list(APPEND served_patterns "teamla_blas: ${p}${routine}_ served by teamla")
        endforeach()
        string(TOLOWER ${path} suffix)
        foreach(variant "" _large)
          if(variant STREQUAL "")
            list(JOIN header "\n" text)
          else()
            list(JOIN large_header "\n" text)
          endif()
          file(WRITE ${teamla_blas_work}/${p}test_${suffix}${variant}.in "${text}\n${path_line}\n")
          # The PO tests keep their historical names (xlintstd, xlintstd_large).
          set(name xlintst${p}${variant})
          if(path STREQUAL "GE")
            set(name xlintst${p}_ge${variant})
          endif()
          teamla_blas_reference_test(${name} ${teamla_lapack_ref_dir}/xlintst${p}
                                     ${teamla_blas_work}/${p}test_${suffix}${variant}.in - ""
                                     "${P}${path} routines passed the tests of the error exits"
                                     "All tests for ${P}${path} routines passed the threshold"
                                     "${P}${path} drivers passed the tests of the error exits"
                                     "All tests for ${P}${path} drivers  passed the threshold"
                                     ${served_patterns})
        endforeach()
      endforeach()
    endif()
  endif()
endfunction()

foreach(p d s)
  string(TOUPPER ${p} P)
  # Fortran BLAS: xblat3d / xblat3s, summary in [ds]blat3.out.
  if(EXISTS ${teamla_blas_ref_dir}/xblat3${p} AND EXISTS ${teamla_blas_ref_dir}/${p}blat3.in)
    teamla_blas_reference_input(${teamla_blas_ref_dir}/${p}blat3.in
                                ${teamla_blas_work}/${p}blat3.in)
    set(patterns)
    # The report pads names to 6 characters ("DGEMM  PASSED", "DSYR2K PASSED").
    foreach(routine "${P}GEMM " "${P}SYMM " "${P}TRMM " "${P}TRSM " "${P}SYRK " "${P}SYR2K")
      string(STRIP "${routine}" symbol)
      string(TOLOWER ${symbol} symbol)
      list(APPEND patterns "${routine} PASSED THE TESTS OF ERROR-EXITS"
                           "${routine} PASSED THE COMPUTATIONAL TESTS"
                           "teamla_blas: ${symbol}_ served by teamla")
    endforeach()
    teamla_blas_reference_test(xblat3${p} ${teamla_blas_ref_dir}/xblat3${p}
                               ${teamla_blas_work}/${p}blat3.in ${p}blat3.out "" ${patterns})
  endif()
  # CBLAS: x[ds]cblat3, report on stdout. These programs take RowMajorStrg from the
  # reference libblas.so.3 (OpenBLAS has none), so the reference BLAS directory goes first
  # on the library path; teamla, preloaded, still comes before both.
  if(EXISTS ${teamla_blas_ref_dir}/x${p}cblat3 AND EXISTS ${teamla_blas_ref_dir}/${p}in3)
    teamla_blas_reference_input(${teamla_blas_ref_dir}/${p}in3 ${teamla_blas_work}/${p}in3)
    set(patterns)
    # Names padded to 12 characters, as the report writes them.
    foreach(routine "cblas_${p}gemm " "cblas_${p}symm " "cblas_${p}trmm " "cblas_${p}trsm "
                    "cblas_${p}syrk " "cblas_${p}syr2k")
      string(STRIP "${routine}" symbol)
      list(APPEND patterns "${routine} PASSED THE TESTS OF ERROR-EXITS"
                           "${routine} PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS"
                           "${routine} PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"
                           "teamla_blas: ${symbol} served by teamla")
    endforeach()
    teamla_blas_reference_test(x${p}cblat3 ${teamla_blas_ref_dir}/x${p}cblat3
                               ${teamla_blas_work}/${p}in3 - "LD_LIBRARY_PATH=${teamla_blas_ref_dir}"
                               ${patterns})
  endif()
  teamla_lapack_reference_tests(${p} PO GE)
endforeach()

# The complex level-3 programs (xblat3z/xblat3c, x[zc]cblat3) run whole, every routine served by
# teamla.
foreach(p z c)
  string(TOUPPER ${p} P)
  if(EXISTS ${teamla_blas_ref_dir}/xblat3${p} AND EXISTS ${teamla_blas_ref_dir}/${p}blat3.in)
    set(patterns)
    foreach(routine "${P}GEMM " "${P}HEMM " "${P}SYMM " "${P}TRMM " "${P}TRSM " "${P}HERK "
                    "${P}SYRK " "${P}HER2K" "${P}SYR2K")
      string(STRIP "${routine}" symbol)
      string(TOLOWER ${symbol} symbol)
      list(APPEND patterns "${routine} PASSED THE TESTS OF ERROR-EXITS"
                           "${routine} PASSED THE COMPUTATIONAL TESTS"
                           "teamla_blas: ${symbol}_ served by teamla")
    endforeach()
    teamla_blas_reference_test(xblat3${p} ${teamla_blas_ref_dir}/xblat3${p}
                               ${teamla_blas_ref_dir}/${p}blat3.in ${p}blat3.out "" ${patterns})
  endif()
  if(EXISTS ${teamla_blas_ref_dir}/x${p}cblat3 AND EXISTS ${teamla_blas_ref_dir}/${p}in3)
    set(patterns)
    foreach(routine "cblas_${p}gemm " "cblas_${p}hemm " "cblas_${p}symm " "cblas_${p}trmm "
                    "cblas_${p}trsm " "cblas_${p}herk " "cblas_${p}syrk " "cblas_${p}her2k"
                    "cblas_${p}syr2k")
      string(STRIP "${routine}" symbol)
      list(APPEND patterns "${routine} PASSED THE TESTS OF ERROR-EXITS"
                           "${routine} PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS"
                           "${routine} PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"
                           "teamla_blas: ${symbol} served by teamla")
    endforeach()
    teamla_blas_reference_test(x${p}cblat3 ${teamla_blas_ref_dir}/x${p}cblat3
                               ${teamla_blas_ref_dir}/${p}in3 - "LD_LIBRARY_PATH=${teamla_blas_ref_dir}"
                               ${patterns})
  endif()
  teamla_lapack_reference_tests(${p} PO GE)
endforeach()

# The level-1 and level-2 programs run whole, in every precision: teamla serves the level-1
# routines LAPACK calls and the dense level-2 ones (docs/blas.md, "What is exported"); the
# rotation generators and the banded and packed routines reach the system BLAS beneath the
# preload. Each served routine must show in teamla's log.
foreach(p d s z c)
  string(TOUPPER ${p} P)
  if(p STREQUAL "d" OR p STREQUAL "s")
    set(level2 gemv symv ger syr syr2 trmv trsv)
    set(level1 dot axpy rot copy swap nrm2 asum scal)
    set(index i${p}amax)
  else()
    set(level2 gemv hemv geru gerc her her2 trmv trsv)
    set(level1 dotc dotu axpy copy swap scal)
    set(index i${p}amax)
  endif()
  set(fortran_served)
  set(cblas_served)
  foreach(routine ${level1})
    list(APPEND fortran_served "teamla_blas: ${p}${routine}_ served by teamla")
    if(routine MATCHES "^dot[cu]$")
      list(APPEND cblas_served "teamla_blas: cblas_${p}${routine}_sub served by teamla")
    elseif(p STREQUAL "c" AND routine STREQUAL "scal")
      # xccblat1's CSCAL test calls cscal_, not cblas_cscal (the reference program's own).
      list(APPEND cblas_served "teamla_blas: cscal_ served by teamla")
    else()
      list(APPEND cblas_served "teamla_blas: cblas_${p}${routine} served by teamla")
    endif()
  endforeach()
  list(APPEND fortran_served "teamla_blas: ${index}_ served by teamla")
  list(APPEND cblas_served "teamla_blas: cblas_${index} served by teamla")
  if(EXISTS ${teamla_blas_ref_dir}/xblat1${p})
    teamla_blas_reference_test(xblat1${p} ${teamla_blas_ref_dir}/xblat1${p} /dev/null - ""
                               "----- PASS -----" ${fortran_served})
  endif()
  if(EXISTS ${teamla_blas_ref_dir}/x${p}cblat1)
    teamla_blas_reference_test(x${p}cblat1 ${teamla_blas_ref_dir}/x${p}cblat1 /dev/null -
                               "LD_LIBRARY_PATH=${teamla_blas_ref_dir}" "----- PASS -----"
                               ${cblas_served})
  endif()
  set(level2_fortran)
  set(level2_cblas)
  foreach(routine ${level2})
    string(TOUPPER "${P}${routine}     " padded)
    string(SUBSTRING "${padded}" 0 6 padded)
    list(APPEND level2_fortran "${padded} PASSED THE TESTS OF ERROR-EXITS"
                               "${padded} PASSED THE COMPUTATIONAL TESTS"
                               "teamla_blas: ${p}${routine}_ served by teamla")
    set(padded "cblas_${p}${routine}     ")
    string(SUBSTRING "${padded}" 0 12 padded)
    # The CBLAS program reports gerc's error exits under geru's name.
    if(NOT routine STREQUAL "gerc")
      list(APPEND level2_cblas "${padded} PASSED THE TESTS OF ERROR-EXITS")
    endif()
    # The real programs name the layout in the line, the complex ones do not.
    if(p STREQUAL "d" OR p STREQUAL "s")
      list(APPEND level2_cblas "${padded} PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS"
                               "${padded} PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS")
    else()
      list(APPEND level2_cblas "${padded} PASSED THE COMPUTATIONAL TESTS")
    endif()
    list(APPEND level2_cblas "teamla_blas: cblas_${p}${routine} served by teamla")
  endforeach()
  if(EXISTS ${teamla_blas_ref_dir}/xblat2${p} AND EXISTS ${teamla_blas_ref_dir}/${p}blat2.in)
    teamla_blas_reference_test(xblat2${p} ${teamla_blas_ref_dir}/xblat2${p}
                               ${teamla_blas_ref_dir}/${p}blat2.in ${p}blat2.out ""
                               ${level2_fortran})
  endif()
  if(EXISTS ${teamla_blas_ref_dir}/x${p}cblat2 AND EXISTS ${teamla_blas_ref_dir}/${p}in2)
    teamla_blas_reference_test(x${p}cblat2 ${teamla_blas_ref_dir}/x${p}cblat2
                               ${teamla_blas_ref_dir}/${p}in2 - "LD_LIBRARY_PATH=${teamla_blas_ref_dir}"
                               ${level2_cblas})
  endif()
endforeach()

# LAPACK's own drivers on teamla's BLAS: the symmetric eigenproblem (sep.in) and the SVD
# (svd.in) paths of xeigtst[ds], and the QR, RQ, LQ, QL, QP, TZ and LS paths of xlintst[ds]
# (the header of [ds]test.in, then those path lines), preloaded: every test passes and the
# level-1 and level-2 routines their algorithms call are served by teamla.
foreach(p d s)
  string(TOUPPER ${p} P)
  set(level2_served "teamla_blas: ${p}gemv_ served by teamla" "teamla_blas: ${p}ger_ served by teamla"
                    "teamla_blas: ${p}nrm2_ served by teamla")
  if(EXISTS ${teamla_lapack_ref_dir}/xeigtst${p} AND EXISTS ${teamla_lapack_ref_dir}/sep.in)
    teamla_blas_reference_test(xeigtst${p}_sep ${teamla_lapack_ref_dir}/xeigtst${p}
                               ${teamla_lapack_ref_dir}/sep.in - ""
                               "All tests for ${P}ST passed the threshold"
                               "All tests for ${P}ST drivers  passed the threshold"
                               "teamla_blas: ${p}symv_ served by teamla"
                               "teamla_blas: ${p}syr2_ served by teamla" ${level2_served})
  endif()
  if(EXISTS ${teamla_lapack_ref_dir}/xeigtst${p} AND EXISTS ${teamla_lapack_ref_dir}/svd.in)
    teamla_blas_reference_test(xeigtst${p}_svd ${teamla_lapack_ref_dir}/xeigtst${p}
                               ${teamla_lapack_ref_dir}/svd.in - ""
                               "All tests for ${P}BD routines passed the threshold"
                               "All tests for ${P}BD drivers  passed the threshold"
                               "${P}GESDD passed the tests of the error exits" ${level2_served})
  endif()
  if(EXISTS ${teamla_lapack_ref_dir}/xlintst${p} AND EXISTS ${teamla_lapack_ref_dir}/${p}test.in)
    file(STRINGS ${teamla_lapack_ref_dir}/${p}test.in lines)
    list(SUBLIST lines 0 16 header)
    set(paths)
    foreach(line IN LISTS lines)
      if(line MATCHES "^${P}(QR|RQ|LQ|QL|QP|TZ|LS) ")
        list(APPEND paths "${line}")
      endif()
    endforeach()
    list(JOIN header "\n" text)
    list(JOIN paths "\n" path_text)
    file(WRITE ${teamla_blas_work}/${p}test_qr.in "${text}\n${path_text}\n")
    teamla_blas_reference_test(xlintst${p}_qr ${teamla_lapack_ref_dir}/xlintst${p}
                               ${teamla_blas_work}/${p}test_qr.in - ""
                               "All tests for ${P}QR routines passed the threshold"
                               "All tests for ${P}LQ routines passed the threshold"
                               "All tests for ${P}LS drivers  passed the threshold" ${level2_served})
  endif()
endforeach()

# --- numpy (Debian's /usr/bin/python3 and python3-numpy), preloaded. ----------------------
find_program(TEAMLA_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(TEAMLA_SYSTEM_PYTHON)
  execute_process(COMMAND ${TEAMLA_SYSTEM_PYTHON} -c "import numpy"
                  RESULT_VARIABLE teamla_numpy_missing OUTPUT_QUIET ERROR_QUIET)
  if(NOT teamla_numpy_missing)
    add_test(NAME blas_ref.numpy
             COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/numpy_served_test.py
                     ${teamla_blas_so})
    set_tests_properties(blas_ref.numpy PROPERTIES LABELS "blas-ref" TIMEOUT 300)
    # openblas_set_num_threads from numpy through ctypes.
    add_test(NAME blas_ref.numpy_threads
             COMMAND ${TEAMLA_SYSTEM_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/numpy_threads_test.py
                     ${teamla_blas_so})
    set_tests_properties(blas_ref.numpy_threads PROPERTIES LABELS "blas-ref" TIMEOUT 300)
  else()
    message(STATUS "teamla: numpy not found for ${TEAMLA_SYSTEM_PYTHON}: blas_ref.numpy is off")
  endif()
endif()
