# Run as a script at every build (cmake -P): writes OUT, a header defining CUDALAB_GIT_REVISION (the
# source tree's short commit, "-dirty" when tracked files differ from it, "unknown" without git),
# only when that changes, so that `cudalab --version` names the commit it was built from without
# rebuilding anything when nothing changed.
#   -DSOURCE_DIR=<the source tree> -DOUT=<header>
find_package(Git QUIET)
set(revision "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE head_failed ERROR_QUIET)
  if(NOT head_failed AND head)
    set(revision ${head})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} diff --quiet HEAD --
                    RESULT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      set(revision "${revision}-dirty")
    endif()
  endif()
endif()
set(text "// Written by cmake/CudalabBuildInfo.cmake at build time.\n#pragma once\n#define CUDALAB_GIT_REVISION \"${revision}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
