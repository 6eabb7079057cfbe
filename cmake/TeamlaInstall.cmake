include(CMakePackageConfigHelpers)

install(TARGETS teamla_team teamla_linalg teamla_engine
        EXPORT teamlaTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(module team linalg engine)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${module}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/include/teamla/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/teamla)
if(TARGET teamla_blas)
  install(TARGETS teamla_blas LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

install(EXPORT teamlaTargets NAMESPACE teamla:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/teamlaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/teamlaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/teamlaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/teamlaConfig.cmake ${PROJECT_BINARY_DIR}/teamlaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
