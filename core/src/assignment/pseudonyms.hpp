// Leaderboard names for students: an adjective, an animal and two hex digits ("brisk-otter-3f"),
// from HMAC-SHA256 under the staff secret, so a name is stable across regrades, says nothing of who
// it is without the secret, and differs between assignments.
#pragma once

#include <string>
#include <string_view>

namespace cudalab::host {

/// The pseudonym of `student` in assignment `assignment_id`. REQUIRES: `secret` is the staff
/// secret's bytes (staff_secret.hpp).
std::string pseudonym(std::string_view secret, std::string_view assignment_id, std::string_view student);

}  // namespace cudalab::host
