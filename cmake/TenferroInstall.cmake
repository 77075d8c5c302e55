# `cmake --install` gives a relocatable package: find_package(tenferro CONFIG) ->
# tenferro::tenferro. Paths in the exported targets are relative to the install prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS tenferro EXPORT tenferroTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# dist.hpp belongs to tenferro_dist (TENFERRO_WITH_MPI), which is not installed yet.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tenferro DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN "dist.hpp" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/generated/tenferro/config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tenferro)
install(EXPORT tenferroTargets NAMESPACE tenferro:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tenferroConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tenferroConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tenferroConfig.cmake ${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
