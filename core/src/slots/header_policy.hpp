// An assignment's header policy: the headers a submission may not include, as globs ("cub/*", "cuda/*"),
// decided from what the compiler says it opened - NVRTC's include trace, gcc's -H tree under nvcc - never
// from the text: a header named through a macro, an absolute path or a line splice is seen as the file
// it is, and a directive the preprocessor skips (#if 0) is no include. A header counts when the
// student's file includes it itself; one that an allowed toolkit header includes for its own use (the
// libcu++ that <cooperative_groups.h> is built on) does not.
#pragma once

#include <string>
#include <vector>

#include "slots/compile_diagnostic.hpp"

namespace cudalab::host {

/// A header the compiler opened.
struct opened_header {
  std::string path;  ///< as the compiler gave it ("/usr/local/cuda/include/cub/cub.cuh")
  int depth = 1;     ///< 1: the student's file includes it itself; 2: a header of depth 1 does; ...
};

/// The headers of NVRTC's include trace (the option -Xcudafe --trace_includes, written to its stderr):
/// a line per #include directive it processed, a space of indentation per level below depth 1, in
/// order. NVRTC's built-in entries (names without a '/': __nv_nvrtc_builtin_header.h) are left out.
std::vector<opened_header> parse_include_trace(const std::string& trace);

/// The headers of gcc's -H tree in `output` (nvcc -Xcompiler -H; other lines are left alone): a line
/// per header opened, its depth as that many '.'s, a space, its path. gcc does not list a header
/// again that an include guard makes empty: each is listed under whichever file included it first.
std::vector<opened_header> parse_header_tree(const std::string& output);

/// Whether `header` (a path) matches `pattern` (a glob such as "cub/*") from one of its folders on,
/// counting only from its first "include" folder (when it has one), after resolving "..":
/// "/usr/local/cuda/include/cccl/cub/cub.cuh" matches "cub/*"; "/usr/local/cuda/bin/../include/x.h"
/// does not match "cuda/*".
bool header_matches(const std::string& header, const std::string& pattern);

/// The policy's verdict on a build: a "denied" diagnostic of `file_name` for each header of `opened`
/// at depth 1 that a glob of `deny` matches (header_matches, on the path as given or as it resolves
/// through links). It is located at the #include line of `source` that names that header, when one
/// does ("#include <cub/cub.cuh>: the assignment does not allow headers matching cub/*"); one reached
/// otherwise (a macro, a path of the student's own) is named by its path.
std::vector<compile_diagnostic> denied_headers(const std::vector<opened_header>& opened, const std::string& source,
                                               const std::string& file_name, const std::vector<std::string>& deny);

/// `found` with each compiler message that it could not open a header matching one of `deny`
/// (NVRTC's and nvcc's front end: cannot open source file "X"; the host compiler's: X: No such file or
/// directory) made a "denied" diagnostic that says which pattern denies it.
std::vector<compile_diagnostic> mark_denied(std::vector<compile_diagnostic> found,
                                            const std::vector<std::string>& deny);

}  // namespace cudalab::host
