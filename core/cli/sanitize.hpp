// `cudalab run --sanitize=TOOL ...`: the same command again, under NVIDIA compute-sanitizer.
#pragma once

#include <string>

#include "command.hpp"

namespace cudalab::cli {

/// Executes `how`'s command line without --sanitize under compute-sanitizer --tool `tool` (errors it
/// finds exit with 7, a CUDA error). Returns only when it cannot: exit 2 when there is no sanitizer,
/// 1 when it cannot be executed.
int rerun_under_sanitizer(const invocation& how, const std::string& tool);

}  // namespace cudalab::cli
