# Registering cudalab's own tests (included by the top-level CMakeLists.txt when CUDALAB_BUILD_TESTS is on,
# before plugins/ and tests/, so a lab folder registers its tests beside its code, with
# cudalab_add_lab_gtests from CudalabPlugin.cmake).
find_package(GTest REQUIRED)
# Where every test program lands, the labs' (cudalab_add_lab_gtests) included.
set(CUDALAB_TEST_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/bin)

# cudalab_cpu_tests: every test program that runs without a GPU (cudalab_add_test and, for the labs' MODEL tests,
# cudalab_add_lab_gtests add theirs), for a build that makes only those (CI's sanitized build, .ci/run).
add_custom_target(cudalab_cpu_tests)

# cudalab_add_test(<area> <name> SOURCES ... [LIBRARIES ...] [DEPENDS <targets>...] [GPU])
# Adds the CTest test <area>.<name>, built after DEPENDS (the plugins it loads). GPU tests carry the
# label `gpu` and skip (exit 77) with no device. A test of a review's finding, TEST(Suite, redteam*_fNN_...)
# in one of SOURCES, is a CTest test of its own, <area>.<name>.<its name> (so that `ctest -R f24` finds
# it), and <area>.<name> runs the others.
function(cudalab_add_test area name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "GPU" "" "SOURCES;LIBRARIES;DEPENDS")
  set(target test_${area}_${name})
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE cudalab_core GTest::gtest cudalab_warnings ${arg_LIBRARIES})
  if(arg_GPU)
    target_link_libraries(${target} PRIVATE cudalab::gpu_test_main)
  else()
    target_link_libraries(${target} PRIVATE GTest::gtest_main)
  endif()
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CUDALAB_TEST_OUTPUT_DIRECTORY})
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
  if(NOT arg_GPU)
    add_dependencies(cudalab_cpu_tests ${target})
  endif()
  target_link_libraries(${target} PRIVATE cudalab_test_paths)
  set(findings)
  foreach(source IN LISTS arg_SOURCES)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${source})
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${source} lines REGEX "^TEST(_F)?\\([A-Za-z0-9_]+, *redteam[0-9]*_f[0-9]")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^TEST(_F)?\\(([A-Za-z0-9_]+), *([A-Za-z0-9_]+)\\).*$" "\\2.\\3" case "${line}")
      list(APPEND findings ${case})
    endforeach()
  endforeach()
  set(tests ${area}.${name})
  if(findings)
    list(JOIN findings ":" filter)
    add_test(NAME ${area}.${name} COMMAND ${target} --gtest_filter=-${filter})
    foreach(case IN LISTS findings)
      string(REGEX REPLACE "^[^.]*\\." "" case_name ${case})
      add_test(NAME ${area}.${name}.${case_name} COMMAND ${target} --gtest_filter=${case})
      # A filter that selects nothing fails (the test was renamed); GTEST_SKIP is a skip.
      set_tests_properties(${area}.${name}.${case_name} PROPERTIES FAIL_REGULAR_EXPRESSION "Running 0 tests"
                           SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
      list(APPEND tests ${area}.${name}.${case_name})
    endforeach()
  else()
    add_test(NAME ${area}.${name} COMMAND ${target})
  endif()
  # cudalab::testing's lab_under_test finds plugins by name through CUDALAB_PLUGIN_PATH.
  set_tests_properties(${tests} PROPERTIES
    ENVIRONMENT "CUDALAB_PLUGIN_PATH=${CUDALAB_PLUGIN_OUTPUT_DIRECTORY}:${CMAKE_BINARY_DIR}/tests/fake_labs")
  if(arg_GPU)
    set_tests_properties(${tests} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
  else()
    set_tests_properties(${tests} PROPERTIES LABELS ${area})
  endif()
endfunction()
