# cudalab_add_plugin(<lab> SOURCES <files...> [LIBRARIES <targets...>] [NO_INSTALL])
#
# Builds the shared-library plugin `cudalab_<lab>` that the cudalab host loads: hidden visibility
# (only the factory and ABI symbols are exported), the shared CUDA runtime, the public cudalab API.
# The same function serves in-tree plugins and out-of-tree ones built against an installed cudalab
# (find_package(cudalab)); in-tree plugins land in the build tree's plugin folder and are installed
# into lib/cudalab/plugins (NO_INSTALL: not installed, for test plugins).
function(cudalab_add_plugin lab)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_INSTALL" "" "SOURCES;LIBRARIES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cudalab_add_plugin(${lab}): SOURCES is required")
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
  if(DEFINED CUDALAB_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CUDALAB_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  if(DEFINED CUDALAB_PLUGIN_DIR AND NOT arg_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION ${CUDALAB_PLUGIN_DIR})
  endif()
endfunction()
