// One verified execution of a variant (poison -> run -> synchronise -> verify), and default params.
#pragma once

#include "cudalab/lab.hpp"
#include "host_session.hpp"

namespace cudalab::host {

/// Every declared parameter at its default value.
params default_params(const lab_spec& spec);

/// Finds a variant by name. Throws std::out_of_range naming the lab and the variants it has.
const variant_spec& find_variant(const lab_spec& spec, const std::string& name);

/// Poisons the session's registered outputs, enqueues one run of `v`, waits for it, and verifies.
/// REQUIRES: lab.setup() has been called with `session`. Throws cuda_error on a CUDA failure.
check run_and_verify(lab& l, const variant_spec& v, host_session& session);

}  // namespace cudalab::host
