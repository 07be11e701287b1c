// Checking a plugin's spec when it loads, so an author's mistake is reported against the plugin (not
// against a lab file that happens to use it) before anything else sees the spec.
#pragma once

#include <string>
#include <vector>

#include "cudalab/lab.hpp"

namespace cudalab::host {

/// What is wrong with `spec`, one sentence each (empty when nothing is): the name is `expected_name`
/// (the plugin file's name) and well formed; parameter and variant names are well formed and unique;
/// there is a variant; the baseline is one of them; ranges are ordered; each default has its
/// parameter's type, lies within its range, among its allowed values and choices, and is a multiple
/// of its multiple_of; choices are unique and non-empty.
std::vector<std::string> spec_problems(const lab_spec& spec, const std::string& expected_name);

/// True for a name of lower-case letters, digits and '_' that starts with a letter (lab, parameter
/// and variant names).
bool is_identifier(const std::string& name);

}  // namespace cudalab::host
