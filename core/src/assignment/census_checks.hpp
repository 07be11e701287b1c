// The integrity checks on a result's kernel census (results/census.hpp), under the assignment's
// [anti_cheat] census policy: work on a stream the timing does not see, host<->device copies in a lab whose
// bytes never cross the host bus (a CPU fallback), kernels whose names a deny pattern matches (a library
// called instead of written, even one loaded with dlopen), and too few or too many kernels.
#pragma once

#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "assignment/grade_report.hpp"
#include "results/result.hpp"

namespace cudalab::host {

/// True when `text` matches the glob `pattern`: '*' any run of characters (none included), '?' one
/// character, anything else itself (case-sensitive). A kernel's name is its demangled name.
bool glob_match(const std::string& pattern, const std::string& text);

/// The integrity findings of `r`'s census under `policy`, each a grade_flag whose `check` is
///   census.stream       blocking: a kernel or copy on a stream other than the session stream (policy
///                       stream "session"), or, under "session" and "joined", still running when the
///                       session stream had finished (work the timing's events do not see)
///   census.host_copies  blocking: an H2D, D2H, H2A, A2H or H2H copy while a lab whose traffic is device
///                       memory ran (r.bytes.path == device), unless host_copies is "allow"
///   census.deny         blocking: a kernel whose name matches a deny pattern
///   census.kernels      blocking: fewer than min_kernels, or more than max_kernels, kernels ran
///   census              warning: CUPTI dropped records (the census is short; the checks saw what it kept);
///                       info: the census could not be taken, and why
/// and whose message says what ran ("2 kernels on streams other than the session stream: ..."), without
/// the test's name (the caller prefixes it). None when no census was taken (measure.census off).
std::vector<grade_flag> census_flags(const variant_result& r, const census_policy& policy);

}  // namespace cudalab::host
