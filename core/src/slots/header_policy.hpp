// An assignment's header policy: the headers a submission may not include, as globs ("cub/*", "cuda/*"),
// found in what it writes (#include lines), in what the compiler says it could not open, and in the
// toolkit's folders (to hide there from a sandboxed compiler: build_sandbox.hpp).
#pragma once

#include <string>
#include <vector>

#include "slots/compile_diagnostic.hpp"

namespace cudalab::host {

/// The #include directives of `source` that name a header matching one of `deny` (fnmatch globs, '*'
/// crossing '/'), as "denied" diagnostics for `file_name`. Only directives written out are seen; a
/// header reached otherwise (a macro) is hidden from the compiler (denied_header_paths), whose "cannot
/// open" message mark_denied then turns into a denial.
std::vector<compile_diagnostic> denied_includes(const std::string& source, const std::string& file_name,
                                                const std::vector<std::string>& deny);

/// Whether `header` (a path) matches `pattern` (a glob such as "cub/*") from one of its folders on,
/// counting only from its first "include" folder (when it has one), after resolving "..":
/// "/usr/local/cuda/include/cccl/cub/cub.cuh" matches "cub/*"; "/usr/local/cuda/bin/../include/x.h"
/// does not match "cuda/*".
bool header_matches(const std::string& header, const std::string& pattern);

/// `found` with each compiler message that it could not open a header matching one of `deny`
/// (NVRTC's and nvcc's front end: cannot open source file "X"; the host compiler's: X: No such file or
/// directory) made a "denied" diagnostic that says which pattern denies it.
std::vector<compile_diagnostic> mark_denied(std::vector<compile_diagnostic> found,
                                            const std::vector<std::string>& deny);

/// The files and folders under `roots` that a glob of `deny` matches (header_matches), fewest first: a
/// folder whose every file matches is one entry, not its files. A root inside another is walked with it.
std::vector<std::string> denied_header_paths(const std::vector<std::string>& roots,
                                             const std::vector<std::string>& deny);

}  // namespace cudalab::host
