// Leaderboard names for students: an adjective, an animal and eight hex digits
// ("brisk-otter-3f09c2a7", 44 bits: two students of a class of 3000 share one with odds of about 1 in
// 4 million), from HMAC-SHA256 under the staff secret, so a name is stable across regrades, says
// nothing of who it is without the secret, and differs between assignments. A class batch that still
// finds two students with one name draws again for all but one of them (break_pseudonym_ties). A report
// names its student the same way, by a keyed hash of the id (student_id_hmac): a plain hash of an id that
// can be guessed (a class list) gives the name back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assignment/class_results.hpp"

namespace cudalab::host {

/// The pseudonym of `student` in assignment `assignment_id`; `attempt` > 0 draws another (a tie broken).
/// REQUIRES: `secret` is the staff secret's bytes (staff_secret.hpp).
std::string pseudonym(std::string_view secret, std::string_view assignment_id, std::string_view student,
                      std::uint64_t attempt = 0);

/// The student's id as grade.json names it: HMAC-SHA256 under the staff secret of the assignment, the
/// student and "student id" (student_seeds.hpp's framing; a test's name cannot be that: test names have no
/// spaces), 64 hex digits. Stable across regrades; without the secret it says nothing of who it is, even to
/// someone who holds the class list. REQUIRES: `secret` is the staff secret's bytes.
std::string student_id_hmac(std::string_view secret, std::string_view assignment_id, std::string_view student);

/// Gives every entry of a class a pseudonym no other entry has: of the entries that share one, the first
/// by student id keeps it, and each other draws pseudonym(..., attempt) with attempt 1, 2, ... until
/// its name is nobody else's. The same class always gets the same names. Returns the indices of the
/// entries whose pseudonym changed (their grade.json says the old one until it is written again).
std::vector<std::size_t> break_pseudonym_ties(std::string_view secret, std::string_view assignment_id,
                                              std::vector<class_entry>& entries);

}  // namespace cudalab::host
