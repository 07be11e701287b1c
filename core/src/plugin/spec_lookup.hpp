// Looking things up in a lab's spec: its default parameters, and a variant by name.
#pragma once

#include <string>

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

/// The index of the variant called `name`: how the host names it to the lab. Throws
/// std::out_of_range naming the lab and the variants it has.
variant_index variant_of(const lab_spec& spec, const std::string& name);

}  // namespace cudalab::host
