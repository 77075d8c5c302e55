# `cmake --install` gives a relocatable package: find_package(tenferro CONFIG) ->
# tenferro::tenferro. Paths in the exported targets are relative to the install prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS tenferro EXPORT tenferroTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# dist.hpp belongs to the dist component (tenferro::dist, TENFERRO_WITH_MPI), installed below.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tenferro DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN "dist.hpp" EXCLUDE)
if(TARGET tenferro_dist)
  # find_package(tenferro CONFIG COMPONENTS dist) -> tenferro::dist (needs MPI where it is used).
  set_target_properties(tenferro_dist PROPERTIES EXPORT_NAME dist)
  install(TARGETS tenferro_dist EXPORT tenferroDistTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/tenferro/dist.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tenferro)
  install(EXPORT tenferroDistTargets NAMESPACE tenferro::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
endif()
install(FILES ${PROJECT_BINARY_DIR}/generated/tenferro/config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tenferro)
install(EXPORT tenferroTargets NAMESPACE tenferro:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tenferroConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tenferroConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tenferroConfig.cmake ${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
