# SPDX-License-Identifier: Apache-2.0
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
# teamla::blas is in the export set, so find_package(teamla) consumers can link it. Its
# static dependencies are in the set too (they appear as link-only entries of the target).
if(TARGET teamla_blas)
  install(TARGETS teamla_blas EXPORT teamlaTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The whole-ABI libblas.so.3 and liblapack.so.3, in a directory of their own (docs/blas.md,
# "libblas.so.3"): never beside other libraries, where they would shadow the system's BLAS and
# LAPACK for every program.
if(TARGET teamla_blas_system)
  install(TARGETS teamla_blas_system teamla_lapack_system
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/teamla NAMELINK_SKIP)
endif()

# pkg-config files: teamla (the C++ libraries) and teamla-blas (the ABI library, also the
# name CMake's FindBLAS takes as BLA_PKGCONFIG_BLAS). The prefix is written relative to the
# .pc file (${pcfiledir}), so the files stay right when the install is relocated
# (cmake --install --prefix, DESTDIR) as long as the relative layout is kept.
set(teamla_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(teamla_pc_prefix "${CMAKE_INSTALL_PREFIX}")
  set(teamla_pc_libdir "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(teamla_pc_includedir "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH teamla_pc_up "/root/${teamla_pc_dir}" "/root")
  string(REGEX REPLACE "/$" "" teamla_pc_up "${teamla_pc_up}")
  set(teamla_pc_prefix "\${pcfiledir}/${teamla_pc_up}")
  set(teamla_pc_libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(teamla_pc_includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/teamla.pc.in ${PROJECT_BINARY_DIR}/teamla.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/teamla.pc DESTINATION ${teamla_pc_dir})
if(TARGET teamla_blas)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/teamla-blas.pc.in ${PROJECT_BINARY_DIR}/teamla-blas.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/teamla-blas.pc DESTINATION ${teamla_pc_dir})
endif()

install(EXPORT teamlaTargets NAMESPACE teamla:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/teamlaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/teamlaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/teamlaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/teamlaConfig.cmake ${PROJECT_BINARY_DIR}/teamlaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/teamla)
