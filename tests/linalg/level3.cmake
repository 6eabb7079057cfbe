# SYMM, TRMM, SYR2K (label kernels): every combination against a long-double oracle.
foreach(routine symm trmm syr2k)
  teamla_add_gtest(${routine}_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/${routine}_test.cpp
    LIBS teamla::linalg
    LABELS kernels)
endforeach()
