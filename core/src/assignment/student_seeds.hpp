// Per-student seeds for hidden tests: HMAC-SHA256(secret, assignment_id ‖ student_id ‖ test ‖ i)
// truncated to 64 bits. Regrades draw the same inputs, students cannot predict them without the staff
// secret, and two students (or two tests, or two draws of one test) get different ones.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cudalab::host {

/// The message the seed is the HMAC of: each text as its length (8 bytes, big-endian) and its bytes,
/// then `i` as 8 bytes big-endian. Length prefixes keep the framing unambiguous: ("ab", "c") and
/// ("a", "bc") give different messages.
std::string seed_message(std::string_view assignment_id, std::string_view student_id, std::string_view test,
                         std::uint64_t i);

/// The i-th seed of `test` for `student_id`: the first 8 bytes (big-endian) of
/// HMAC-SHA256(secret, seed_message(...)). REQUIRES: `secret` is the staff secret's bytes
/// (staff_secret.hpp), not its hex text.
std::uint64_t student_seed(std::string_view secret, std::string_view assignment_id, std::string_view student_id,
                           std::string_view test, std::uint64_t i);

}  // namespace cudalab::host
