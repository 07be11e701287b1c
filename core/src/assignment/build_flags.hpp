// The compiler flags an assignment file's [build] flags may hold: an allow-list, as a course kit is
// downloaded data and its flags reach nvcc and NVRTC (a host compiler wrapper, an output file, a
// response file would run or overwrite anything on the student's machine).
#pragma once

#include <string>

namespace cudalab::host {

/// True when `flag` is one of the allowed compiler flags: -O0..-O3, -lineinfo, -std=c++17|c++20,
/// -DNAME or -DNAME=VALUE (NAME an identifier, VALUE letters, digits and . + - _), -maxrregcount=N,
/// --use_fast_math (or -use_fast_math), --extra-device-vectorization, -G, --ftz= / --prec-div= /
/// --prec-sqrt= / --fmad= with true or false. Everything else is refused: -X*, -ccbin, -o, --run,
/// -odir, --keep*, @file, -I, -L, -l, -arch (cudalab sets it), ...
bool is_allowed_build_flag(const std::string& flag);

/// The allow-list in words, for the message that refuses a flag.
const char* allowed_build_flags_text();

}  // namespace cudalab::host
