# Install rules: a relocatable tree (bin/, lib/, lib/cudalab/plugins/, include/, share/cudalab/) and
# the CMake package that lets out-of-tree plugins use find_package(cudalab) + cudalab_add_plugin().
include(CMakePackageConfigHelpers)

install(DIRECTORY core/include/cudalab DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS cudalab_api EXPORT cudalabTargets)
install(EXPORT cudalabTargets NAMESPACE cudalab:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cudalab)

set(CUDALAB_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/cudalab)
configure_package_config_file(cmake/cudalabConfig.cmake.in ${PROJECT_BINARY_DIR}/cudalabConfig.cmake
  INSTALL_DESTINATION ${CUDALAB_CMAKE_INSTALL_DIR}
  PATH_VARS CUDALAB_PLUGIN_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cudalabConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cudalabConfig.cmake ${PROJECT_BINARY_DIR}/cudalabConfigVersion.cmake
              cmake/CudalabPlugin.cmake
        DESTINATION ${CUDALAB_CMAKE_INSTALL_DIR})

install(DIRECTORY labs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cudalab/labs FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cudalab/configs FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cudalab/docs)
