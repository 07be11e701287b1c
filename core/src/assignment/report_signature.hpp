// A grade report signed by its grader: an HMAC-SHA256, under a key drawn from the staff secret, of
// grade.json's text (its signature left out) and the student's id. The report carries the secret's
// fingerprint and the digest of what the grading depended on besides the submission (the assignment,
// its lab file, this cudalab). A batch keeps a report on resume only when its signature holds: written
// for this student, with this secret, for this submission, assignment, lab file and cudalab. The code
// graded never reads the secret (it runs in the sandbox), so it can neither sign a forged report nor
// alter a signed one.
#pragma once

#include <string>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"

namespace cudalab::host {

/// The fingerprint of the staff secret `secret` a report carries: 16 hex digits of a keyed hash, which
/// tell one secret from another and reveal nothing of it.
std::string secret_fingerprint(const std::string& secret);

/// The digest of what grading `a` depends on besides the submission and the secret: the assignment
/// file's text, its lab file's text, and this cudalab's version.
std::string grading_inputs_digest(const loaded_assignment& a);

/// Fills in `r`'s secret fingerprint and inputs digest, then signs it for `student` under `secret`.
/// REQUIRES: `secret` is not empty.
void sign_report(grade_report& r, const loaded_assignment& a, const std::string& student, const std::string& secret);

/// Whether `r`, read from the grade.json text `text`, is signed for `student` under `secret` and was graded
/// with the inputs `a` has now. The signature is over the text's JSON as written (compact, in its order,
/// "signature" empty): what sign_report signed, whatever wrote the file.
bool signed_for(const std::string& text, const grade_report& r, const loaded_assignment& a, const std::string& student,
                const std::string& secret);

}  // namespace cudalab::host
