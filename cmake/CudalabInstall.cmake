# Install rules: a relocatable tree (bin/, lib/, lib/cudalab/plugins/, include/, share/cudalab/) and
# the CMake package that lets out-of-tree plugins use find_package(cudalab) + cudalab_add_plugin().
include(CMakePackageConfigHelpers)

install(DIRECTORY core/include/cudalab DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CUDALAB_GENERATED_INCLUDE_DIR}/cudalab/abi_hash.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cudalab)
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

# Debian ships Google Benchmark only as libbenchmark.so.1debian: carry it (the executable's RUNPATH
# is $ORIGIN/../lib).
get_target_property(_cudalab_benchmark_lib benchmark::benchmark LOCATION)
if(_cudalab_benchmark_lib)
  file(REAL_PATH ${_cudalab_benchmark_lib} _cudalab_benchmark_real)
  # Install under the library's soname (what the executable asks the loader for).
  get_target_property(_cudalab_benchmark_name benchmark::benchmark IMPORTED_SONAME_NONE)
  if(NOT _cudalab_benchmark_name)
    get_filename_component(_cudalab_benchmark_name ${_cudalab_benchmark_lib} NAME)
  endif()
  install(FILES ${_cudalab_benchmark_real} DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME ${_cudalab_benchmark_name})
endif()
