# SPDX-License-Identifier: Apache-2.0
# Engine tests. The concurrency test runs under tsan in CI. The allocation test interposes the
# C allocator, which the sanitizers also do, so it is only built without them.
set(teamla_engine_test_dir ${CMAKE_CURRENT_LIST_DIR})
set(teamla_engine_internal ${PROJECT_SOURCE_DIR}/engine/src)

teamla_add_gtest(engine_ops_test SOURCES ${teamla_engine_test_dir}/engine_ops_test.cpp
  LIBS teamla::engine LABELS unit)
teamla_add_gtest(engine_level3_test SOURCES ${teamla_engine_test_dir}/engine_level3_test.cpp
  LIBS teamla::engine LABELS unit)
teamla_add_gtest(engine_errors_test SOURCES ${teamla_engine_test_dir}/engine_errors_test.cpp
  LIBS teamla::engine LABELS unit)
target_include_directories(engine_errors_test PRIVATE ${teamla_engine_internal})
teamla_add_gtest(engine_config_test SOURCES ${teamla_engine_test_dir}/engine_config_test.cpp
  LIBS teamla::engine LABELS unit)
teamla_add_gtest(engine_width_limit_test
  SOURCES ${teamla_engine_test_dir}/engine_width_limit_test.cpp
  LIBS teamla::engine LABELS unit)
target_include_directories(engine_width_limit_test PRIVATE ${teamla_engine_internal})
teamla_add_gtest(engine_concurrency_test
  SOURCES ${teamla_engine_test_dir}/engine_concurrency_test.cpp
  LIBS teamla::engine LABELS concurrency)
target_include_directories(engine_concurrency_test PRIVATE ${teamla_engine_internal})

if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  teamla_add_gtest(engine_alloc_test SOURCES ${teamla_engine_test_dir}/engine_alloc_test.cpp
    LIBS teamla::engine LABELS unit SERIAL)
  target_include_directories(engine_alloc_test PRIVATE ${teamla_engine_internal})
endif()

if(TARGET Eigen3::Eigen)
  teamla_add_gtest(engine_eigen_test SOURCES ${teamla_engine_test_dir}/engine_eigen_test.cpp
    LIBS teamla::engine Eigen3::Eigen LABELS unit)
endif()
