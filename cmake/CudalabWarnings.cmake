# Warnings for cudalab's own targets, carried by an INTERFACE target rather than global flags.
if(NOT TARGET cudalab_warnings)
  add_library(cudalab_warnings INTERFACE)
  target_compile_options(cudalab_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --extended-lambda -lineinfo>)
endif()
