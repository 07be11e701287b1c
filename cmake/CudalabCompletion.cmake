# Run as a script after cudalab is built (cmake -P): writes OUT, the bash completion script that
# `EXE completion bash` prints from cudalab's own commands and options, for install to
# share/bash-completion/completions/cudalab.
#   -DEXE=<the cudalab executable> -DOUT=<file>
execute_process(COMMAND ${EXE} completion bash OUTPUT_VARIABLE text RESULT_VARIABLE failed ERROR_VARIABLE errors)
if(failed)
  message(FATAL_ERROR "${EXE} completion bash failed (${failed}): ${errors}")
endif()
file(WRITE ${OUT} "${text}")
