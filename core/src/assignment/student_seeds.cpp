// Per-student seeds (student_seeds.hpp).
#include "assignment/student_seeds.hpp"

#include "assignment/digests.hpp"

namespace cudalab::host {

namespace {

void append_u64(std::string& out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void append_field(std::string& out, std::string_view field) {
  append_u64(out, field.size());
  out.append(field.data(), field.size());
}

}  // namespace

std::string seed_message(std::string_view assignment_id, std::string_view student_id, std::string_view test,
                         std::uint64_t i) {
  std::string m;
  append_field(m, assignment_id);
  append_field(m, student_id);
  append_field(m, test);
  append_u64(m, i);
  return m;
}

std::uint64_t student_seed(std::string_view secret, std::string_view assignment_id, std::string_view student_id,
                           std::string_view test, std::uint64_t i) {
  const digest_bytes mac = hmac_sha256(secret, seed_message(assignment_id, student_id, test, i));
  std::uint64_t seed = 0;
  for (int b = 0; b < 8; ++b) seed = (seed << 8) | mac[b];
  return seed;
}

}  // namespace cudalab::host
