# Warnings for cudalab's own targets, carried by an INTERFACE target rather than global flags.
# CUDALAB_WERROR=ON makes every warning an error, host and device code alike. Its default comes from the
# environment variable of the same name, so CI (.ci/run) turns it on around the README's own commands.
set(_cudalab_werror_default OFF)
if(DEFINED ENV{CUDALAB_WERROR})
  set(_cudalab_werror_default $ENV{CUDALAB_WERROR})
endif()
option(CUDALAB_WERROR "Treat warnings as errors in cudalab's own targets" ${_cudalab_werror_default})
if(NOT TARGET cudalab_warnings)
  add_library(cudalab_warnings INTERFACE)
  target_compile_options(cudalab_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --extended-lambda -lineinfo>)
  if(CUDALAB_WERROR)
    target_compile_options(cudalab_warnings INTERFACE
      $<$<COMPILE_LANGUAGE:CXX>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Werror --Werror all-warnings>)
  endif()
  # CUDALAB_SANITIZE (cmake/CudalabSanitize.cmake) rides along: every target with these warnings gets it.
  include(CudalabSanitize)
  target_link_libraries(cudalab_warnings INTERFACE cudalab_sanitize)
endif()
