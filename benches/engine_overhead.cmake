# What CpuEngine adds per call (docs/engine.md, "Cost of a call").
add_executable(engine_overhead ${CMAKE_CURRENT_LIST_DIR}/engine_overhead.cpp)
target_link_libraries(engine_overhead PRIVATE teamla::engine teamla_warnings)
