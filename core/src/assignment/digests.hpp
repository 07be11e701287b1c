// SHA-256 and HMAC-SHA256 through OpenSSL's libcrypto: the digests a grade report carries (the
// assignment file, the submission, the student's id) and the keyed hash per-student seeds come from.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "results/hex_text.hpp"

namespace cudalab::host {

/// A SHA-256 or HMAC-SHA256 value: 32 bytes.
using digest_bytes = std::array<std::uint8_t, 32>;

/// SHA-256 of `data` (FIPS 180-4).
digest_bytes sha256(std::string_view data);

/// HMAC-SHA256 of `message` under `key` (RFC 2104; test vectors in RFC 4231). Any key length.
digest_bytes hmac_sha256(std::string_view key, std::string_view message);

inline std::string hex_text(const digest_bytes& d) { return hex_text(d.data(), d.size()); }

/// SHA-256 of `data` as lower-case hex.
inline std::string sha256_hex(std::string_view data) { return hex_text(sha256(data)); }

}  // namespace cudalab::host
