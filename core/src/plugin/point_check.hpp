// The lab's check_params() as the lab-file validator asks it: a rejection is a message, a failure is
// the lab's bug.
#pragma once

#include "labfile/lab_file.hpp"
#include "plugin/loader.hpp"

namespace cudalab::host {

/// A point_check that calls `plugin`'s check_params(): std::invalid_argument is a rejection (its
/// message is returned, reported against the lab file); any other exception is a failure of the lab,
/// thrown as lab_call_error naming check_params and the point.
point_check check_params_of(const loaded_plugin& plugin);

}  // namespace cudalab::host
