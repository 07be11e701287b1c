// `cudalab assignment init`: a new assignment for a slot of a lab file, its tests read from the lab file
// and the plugin's spec - visible correctness tests at odd sizes in every size parameter (moving together
// when there are several) and the lab file's block shapes, hidden tests at random sizes in every size
// parameter, a performance test at the lab file's point, memcheck and racecheck at small odd sizes, and
// the census's stream policy from the slot's spec - written as an assignment file staff then edit.
#pragma once

#include <filesystem>
#include <string>

#include "plan/planning.hpp"

namespace cudalab::host {

/// A size parameter, which the template's correctness tests make odd and draw at random: an integer
/// parameter, not a tuning one nor restricted to listed values, whose unit counts data ("elements",
/// "values" or "bytes").
bool is_size_param(const param_spec& p);

/// A block-shape parameter, whose sweeps in the lab file the template's correctness and sanitizer tests
/// keep: an integer parameter whose unit is "threads".
bool is_block_shape_param(const param_spec& p);

/// The assignment file for slot `slot` of the lab file `lab` (planned), to be written at
/// `assignment_path` (its `lab` key is the lab file's path relative to that folder), with the id `id`.
/// Throws std::invalid_argument naming the slots when the lab has no slot `slot`.
std::string assignment_template(const planned_lab& lab, const std::string& slot,
                                const std::filesystem::path& assignment_path, const std::string& id);

}  // namespace cudalab::host
