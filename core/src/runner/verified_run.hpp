// One verified execution of a variant: poison the outputs, run, synchronise, verify.
#pragma once

#include "cudalab/lab.hpp"
#include "runner/host_session.hpp"

namespace cudalab::host {

/// Poisons the session's registered outputs, enqueues one run of `v`, waits for it, and verifies.
/// REQUIRES: lab.setup() has been called with `session`. Throws cuda_error on a CUDA failure.
check run_and_verify(lab& l, const variant_spec& v, host_session& session);

}  // namespace cudalab::host
