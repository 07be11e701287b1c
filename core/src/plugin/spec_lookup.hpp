// Looking things up in a lab's spec: its default parameters, and a variant by name.
#pragma once

#include <string>

#include "cudalab/lab.hpp"

namespace cudalab::host {

/// Every declared parameter at its default value.
params default_params(const lab_spec& spec);

/// Finds a variant by name. Throws std::out_of_range naming the lab and the variants it has.
const variant_spec& find_variant(const lab_spec& spec, const std::string& name);

}  // namespace cudalab::host
