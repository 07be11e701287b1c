// Looking things up in a lab's spec: its default parameters, and a variant by name.
#pragma once

#include <string>
#include <vector>

#include "cudalab/lab.hpp"

namespace cudalab::host {

/// Every declared parameter at its default value.
params default_params(const lab_spec& spec);

/// The parameters of `p` that differ from the spec's defaults, as "n=33 offset=1" ("" for none):
/// how messages name a point that no lab file describes.
std::string differing_text(const lab_spec& spec, const params& p);

/// True when `a` and `b` differ only in tuning parameters (param_spec::tunes()), so a point set up
/// at `a` can be retuned to `b` instead of set up again.
bool same_data(const lab_spec& spec, const params& a, const params& b);

/// The prefix of the variant a submission for a slot runs as: "student:<slot>".
inline constexpr const char* student_prefix = "student:";

/// "student:<slot>".
std::string student_variant(const std::string& slot);

/// The slot a variant name "student:<slot>" runs a submission for; nullptr for any other name (a lab
/// variant, or a slot the lab does not have).
const slot_spec* slot_of(const lab_spec& spec, const std::string& name);

/// The slot called `name` (no prefix), or nullptr.
const slot_spec* slot_named(const lab_spec& spec, const std::string& name);

/// Why `name` names no slot of the lab: "lab 'alignment' has no slot 'x'; did you mean 'y'?", else
/// the slots it has, or that it has none.
std::string no_slot_message(const lab_spec& spec, const std::string& name);

/// Every variant name the lab knows: its variants, then "student:<slot>" for each of its slots.
std::vector<std::string> variant_names(const lab_spec& spec);

/// The index of the variant called `name`: how the host names it to the lab in traffic_of, trace and
/// verify. A student variant is named by its slot's variant, whose job it does (outputs, verification,
/// traffic). Throws std::out_of_range naming the lab and the variants it has.
variant_index variant_of(const lab_spec& spec, const std::string& name);

/// The one-line summary of variant `name` (a student variant's is its slot's). REQUIRES: a name of
/// variant_names(spec).
std::string variant_summary(const lab_spec& spec, const std::string& name);

}  // namespace cudalab::host
