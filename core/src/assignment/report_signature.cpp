// A grade report signed by its grader (report_signature.hpp).
#include "assignment/report_signature.hpp"

#include <nlohmann/json.hpp>

#include "assignment/digests.hpp"

namespace cudalab::host {

namespace {

// The signing key: the secret itself never signs anything, so that a key for reports and the seeds of
// hidden tests (student_seeds.hpp) are independent.
std::string signing_key(const std::string& secret) {
  const digest_bytes key = hmac_sha256(secret, "cudalab grade.json signing key 1");
  return std::string(key.begin(), key.end());
}

// The signature of the report `j` (its "signature" left empty), compact JSON in its written order.
std::string signature_of(nlohmann::ordered_json j, const std::string& student, const std::string& secret) {
  j["signature"] = "";
  return hex_text(hmac_sha256(signing_key(secret), student + '\n' + j.dump()));
}

// Equal, in time that does not depend on where two signatures first differ.
bool same(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string secret_fingerprint(const std::string& secret) {
  return hex_text(hmac_sha256(secret, "cudalab secret fingerprint 1")).substr(0, 16);
}

std::string grading_inputs_digest(const loaded_assignment& a) {
  const std::string assignment = sha256_hex(a.file.text);
  const std::string lab = sha256_hex(a.base.text);
  return sha256_hex("assignment " + assignment + "\nlab " + lab + "\ncudalab " + CUDALAB_VERSION + "\n");
}

void sign_report(grade_report& r, const loaded_assignment& a, const std::string& student, const std::string& secret) {
  r.secret_fingerprint = secret_fingerprint(secret);
  r.inputs_digest = grading_inputs_digest(a);
  r.signature.clear();
  nlohmann::ordered_json j;
  to_json(j, r);
  r.signature = signature_of(j, student, secret);
}

bool signed_for(const std::string& text, const grade_report& r, const loaded_assignment& a, const std::string& student,
                const std::string& secret) {
  if (secret.empty() || r.signature.empty()) return false;
  if (r.secret_fingerprint != secret_fingerprint(secret) || r.inputs_digest != grading_inputs_digest(a)) return false;
  try {
    return same(r.signature, signature_of(nlohmann::ordered_json::parse(text), student, secret));
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace cudalab::host
