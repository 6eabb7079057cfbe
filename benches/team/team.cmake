# SPDX-License-Identifier: Apache-2.0
# team/: the runtime alone: section dispatch cost beside libgomp, the yield study, start-up costs.
# team_dispatch: empty-section dispatch cost beside libgomp, and the yield-phase study
# (docs/team.md). -fopenmp is on this one file only.
add_executable(team_dispatch ${CMAKE_CURRENT_LIST_DIR}/team_dispatch.cpp)
target_link_libraries(team_dispatch PRIVATE teamla::team teamla_warnings)
if(OpenMP_CXX_FOUND)
  target_link_libraries(team_dispatch PRIVATE OpenMP::OpenMP_CXX)
endif()

# What the runtime measures at start (spin poll cost, section cost per width): scripts/device-calls.
add_executable(section_cost ${CMAKE_CURRENT_LIST_DIR}/section_cost.cpp)
target_link_libraries(section_cost PRIVATE teamla::team teamla_warnings)

# The section dispatch costs behind linalg/src/width.cpp's table, and libgomp's empty region
# beside them, on Google Benchmark: one executable per runtime (dispatch_cost.hpp).
if(TARGET benchmark::benchmark)
  add_executable(gemm_dispatch_cost ${CMAKE_CURRENT_LIST_DIR}/gemm_dispatch_cost.cpp)
  target_link_libraries(gemm_dispatch_cost PRIVATE teamla::team benchmark::benchmark
                                                   teamla_warnings)
  if(OpenMP_CXX_FOUND)
    add_executable(omp_dispatch_cost ${CMAKE_CURRENT_LIST_DIR}/omp_dispatch_cost.cpp)
    target_link_libraries(omp_dispatch_cost PRIVATE OpenMP::OpenMP_CXX benchmark::benchmark
                                                    teamla_warnings)
  endif()
endif()
