// ptxas's messages, in NVRTC's log or nvcc's output ("ptxas error   : Entry function '_Z3fooPf' uses too
// much shared data (0x11000 bytes, 0xc000 max)"), as diagnostics about the student's file: ptxas names a
// function, never a line, so each is placed at the line of the source that defines the function it
// names, the name demangled; "too much shared data" is said in bytes with what to do about it.
#pragma once

#include <string>
#include <vector>

#include "slots/compile_diagnostic.hpp"

namespace cudalab::host {

/// The ptxas lines of `output` ("ptxas error : ...", "ptxas fatal : ...", "ptxas warning : ..."; its
/// info lines are left out), each a diagnostic of `file_name` at the first line of `source` that names
/// the function the message names (0: none does, or it names none).
std::vector<compile_diagnostic> parse_ptxas_messages(const std::string& output, const std::string& source,
                                                     const std::string& file_name);

/// The name a function is written with in the source, from the symbol ptxas gives ("_Z12partial_sumsPKfPf"
/// or an extern "C" name): demangled, without its namespaces, template arguments and parameters
/// ("partial_sums").
std::string source_name_of(const std::string& symbol);

}  // namespace cudalab::host
