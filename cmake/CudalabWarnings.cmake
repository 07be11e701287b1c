# Warnings for cudalab's own targets, carried by an INTERFACE target rather than global flags.
# CUDALAB_WERROR=ON (CI turns it on) makes every warning an error, host and device code alike.
option(CUDALAB_WERROR "Treat warnings as errors in cudalab's own targets" OFF)
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
endif()
