// `cudalab assignment init`: a new assignment for a slot of a lab file - visible correctness tests at
// odd sizes, hidden tests at random sizes from the size parameter's range, a performance test at the
// lab file's point, memcheck and racecheck - written as an assignment file staff then edit.
#pragma once

#include <filesystem>
#include <string>

#include "plan/planning.hpp"

namespace cudalab::host {

/// The assignment file for slot `slot` of the lab file `lab` (planned: `lab_plan`), to be written at
/// `assignment_path` (its `lab` key is the lab file's path relative to that folder). Throws
/// std::invalid_argument naming the slots when the lab has no slot `slot`.
std::string assignment_template(const planned_lab& lab, const std::string& slot,
                                const std::filesystem::path& assignment_path);

}  // namespace cudalab::host
