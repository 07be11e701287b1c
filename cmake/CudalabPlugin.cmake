# Building lab plugins and their tests, in-tree and out-of-tree alike (find_package(cudalab) includes
# this file).
#
# cudalab_add_plugin(<lab> SOURCES <files...> [LIBRARIES <targets...>] [NO_INSTALL])
#   Builds the shared-library plugin `cudalab_<lab>` that the cudalab host loads: hidden visibility
#   (only the factory and ABI symbols are exported), the shared CUDA runtime, the public cudalab API,
#   and the CUDA architectures of CUDALAB_PLUGIN_CUDA_ARCHITECTURES when set (out of tree:
#   cudalab's own, unless the project chose). In-tree plugins land in the build tree's plugin folder
#   and are installed into lib/cudalab/plugins (NO_INSTALL: not installed, for test plugins); out of
#   tree the plugin lands in the build folder's root.
#
# cudalab_add_lab_test(<lab> SOURCES <files...> [LIBRARIES <targets...>] [LABELS <labels...>])
#   Builds the test program `<lab>_test` (main() from cudalab::testing::lab_test_main) against
#   cudalab::testing and registers two CTest tests: <lab>.model (CPU only) and <lab>.gpu (label gpu,
#   skipped with exit code 77 where no GPU is usable). Both find the plugin through CUDALAB_PLUGIN_PATH.
function(cudalab_add_plugin lab)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_INSTALL" "" "SOURCES;LIBRARIES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cudalab_add_plugin(${lab}): SOURCES is required")
  endif()
  if(NOT lab MATCHES "^[a-z0-9_]+$")
    message(FATAL_ERROR "cudalab_add_plugin(${lab}): a lab name is lower-case letters, digits and '_'")
  endif()
  set(target cudalab_${lab})
  add_library(${target} MODULE ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE cudalab::api ${arg_LIBRARIES})
  if(TARGET cudalab_warnings)
    target_link_libraries(${target} PRIVATE cudalab_warnings)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CUDA_RUNTIME_LIBRARY Shared
    CUDA_SEPARABLE_COMPILATION OFF)
  if(DEFINED CUDALAB_PLUGIN_CUDA_ARCHITECTURES)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${CUDALAB_PLUGIN_CUDA_ARCHITECTURES}")
  endif()
  if(DEFINED CUDALAB_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CUDALAB_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  if(DEFINED CUDALAB_PLUGIN_DIR AND NOT arg_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION ${CUDALAB_PLUGIN_DIR})
    # The installed RUNPATH in the build tree too: else CMake pads the build tree's with empty entries,
    # which the loader takes as the current directory. The host has loaded the CUDA runtime already.
    set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON)
  endif()
endfunction()

function(cudalab_add_lab_test lab)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES;LABELS")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cudalab_add_lab_test(${lab}): SOURCES is required")
  endif()
  set(target ${lab}_test)
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE cudalab::testing ${arg_LIBRARIES})
  if(TARGET cudalab_${lab})
    add_dependencies(${target} cudalab_${lab})
    set(plugin_dir $<TARGET_FILE_DIR:cudalab_${lab}>)
  else()
    set(plugin_dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  add_test(NAME ${lab}.model COMMAND ${target} model)
  add_test(NAME ${lab}.gpu COMMAND ${target} gpu)
  set_tests_properties(${lab}.model PROPERTIES LABELS "model;${arg_LABELS}"
                       ENVIRONMENT "CUDALAB_PLUGIN_PATH=${plugin_dir}")
  set_tests_properties(${lab}.gpu PROPERTIES LABELS "gpu;${arg_LABELS}" SKIP_RETURN_CODE 77
                       ENVIRONMENT "CUDALAB_PLUGIN_PATH=${plugin_dir}")
endfunction()
