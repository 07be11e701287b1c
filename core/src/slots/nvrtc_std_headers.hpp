// The C standard's integer types for a kernel compiled with NVRTC, which has no header of them:
// <cstdint>, <stdint.h>, <cstddef> and <stddef.h>, written by cudalab, in a folder NVRTC searches last.
// A kernel that compiles with nvcc (#include <cstdint>, std::uint32_t, std::size_t) compiles as a kernel
// slot too. They depend on no other header, so an assignment's denied headers do not break them, and
// they declare each type as the toolkit's libcu++ does, so that both can be included.
#pragma once

#include <string>
#include <vector>

namespace cudalab::host {

/// The headers' names, in order.
std::vector<std::string> std_header_names();

/// The text of the header `name` (one of std_header_names()).
std::string std_header_text(const std::string& name);

/// Writes every header into `folder` (made if needed). Throws std::runtime_error when it cannot.
void write_std_headers(const std::string& folder);

}  // namespace cudalab::host
