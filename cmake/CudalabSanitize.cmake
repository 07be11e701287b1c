# Sanitizers for cudalab's own host code, carried by the INTERFACE target cudalab_sanitize that cudalab_warnings
# links (so every target with cudalab's warnings gets them): -DCUDALAB_SANITIZE=address,undefined builds and links
# with -fsanitize=address -fsanitize=undefined, errors fatal (-fno-sanitize-recover=all). Empty by default. nvcc
# hands the flags to the host compiler, so a .cu file's host code is instrumented and its device code is not.
# CI builds the CPU tests so in a second build folder (.ci/run).
set(CUDALAB_SANITIZE "" CACHE STRING "Sanitizers for cudalab's own host code (-fsanitize=...), e.g. address,undefined")
if(NOT TARGET cudalab_sanitize)
  add_library(cudalab_sanitize INTERFACE)
  if(CUDALAB_SANITIZE)
    # One -fsanitize= per sanitizer: nvcc's -Xcompiler splits its value at commas.
    string(REPLACE "," ";" _cudalab_sanitizers "${CUDALAB_SANITIZE}")
    list(TRANSFORM _cudalab_sanitizers PREPEND "-fsanitize=")
    # -Wno-maybe-uninitialized: GCC 12's flow analysis under -fsanitize=address reports std::variant's string
    # alternative as "may be used uninitialized" in code it does not flag without the instrumentation (the
    # normal build keeps the warning, an error in CI); the sanitizers themselves look at what is really read.
    set(_cudalab_sanitize_flags ${_cudalab_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer
        -Wno-maybe-uninitialized)
    list(TRANSFORM _cudalab_sanitize_flags PREPEND "-Xcompiler=" OUTPUT_VARIABLE _cudalab_sanitize_cuda_flags)
    target_compile_options(cudalab_sanitize INTERFACE
      $<$<COMPILE_LANGUAGE:CXX>:${_cudalab_sanitize_flags}>
      $<$<COMPILE_LANGUAGE:CUDA>:${_cudalab_sanitize_cuda_flags}>)
    # --as-needed again: Debian's gcc drops it when linking with a sanitizer, and every library linked would then
    # be needed at run time (libcuda.so.1 through NVRTC's imported target, on a machine without a driver).
    target_link_options(cudalab_sanitize INTERFACE ${_cudalab_sanitizers} LINKER:--as-needed)
    message(STATUS "cudalab: host code built with ${_cudalab_sanitizers}")
  endif()
endif()
