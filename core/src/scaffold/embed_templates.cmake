# Writes a C++ file that holds the lab template's files as string literals (scaffold.hpp's
# lab_template()). Run by core/CMakeLists.txt at configure time; editing a template re-runs it.
# cudalab_embed_lab_template(<template-dir> <output.cpp>)
function(cudalab_embed_lab_template dir output)
  set(files CMakeLists.txt README.md lab.toml lab_kernels.cuh lab.hpp lab.cu lab_trace.cpp lab_plugin.cpp
            lab_trace_test.cpp lab_gpu_test.cpp)
  set(body "")
  foreach(f IN LISTS files)
    file(READ ${dir}/${f} text)
    string(FIND "${text}" ")cudalab_template\"" clash)
    if(NOT clash EQUAL -1)
      message(FATAL_ERROR "${dir}/${f} holds the raw-string delimiter )cudalab_template\"")
    endif()
    string(APPEND body "    {\"${f}\", R\"cudalab_template(${text})cudalab_template\"},\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${dir}/${f})
  endforeach()
  # Written through configure_file(COPYONLY) so the file changes (and rebuilds) only when a template does;
  # file(CONFIGURE) would replace the templates' @LAB@ placeholders.
  file(WRITE ${output}.new
"// Generated from core/templates/lab/ by core/src/scaffold/embed_templates.cmake. Do not edit.
#include \"scaffold/scaffold.hpp\"

namespace cudalab::host {

const std::vector<template_file>& lab_template() {
  static const std::vector<template_file> files = {
${body}  };
  return files;
}

}  // namespace cudalab::host
")
  configure_file(${output}.new ${output} COPYONLY)
endfunction()
