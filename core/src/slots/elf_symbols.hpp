// Reading what a compiled submission holds, from its ELF file: the shared libraries a launcher needs
// (DT_NEEDED) and whether a CUBIN or shared library defines the slot's entry function, so that a
// submission missing it is told so when it is built, before any GPU sees it.
#pragma once

#include <string>
#include <vector>

namespace cudalab::host {

/// The DT_NEEDED entries of the 64-bit ELF shared library `path`. Throws std::runtime_error when it
/// cannot be read or is no such file.
std::vector<std::string> needed_libraries(const std::string& path);

/// Whether the 64-bit ELF image `bytes` (a CUBIN, a shared library; `name` for messages) defines a
/// function symbol called `symbol` in its symbol tables (.symtab or .dynsym), not merely refers to it.
/// Throws std::runtime_error for bytes that are no 64-bit ELF file.
bool defines_function(const std::string& bytes, const std::string& name, const std::string& symbol);

/// The whole file at `path`, for defines_function. Throws std::runtime_error when it cannot be read.
std::string file_bytes(const std::string& path);

}  // namespace cudalab::host
