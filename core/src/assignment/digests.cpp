// SHA-256 and HMAC-SHA256 (digests.hpp), one-shot calls into libcrypto.
#include "assignment/digests.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace cudalab::host {

digest_bytes sha256(std::string_view data) {
  digest_bytes out{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(), nullptr) != 1 || size != out.size())
    throw std::runtime_error("OpenSSL: SHA-256 failed");
  return out;
}

digest_bytes hmac_sha256(std::string_view key, std::string_view message) {
  digest_bytes out{};
  unsigned int size = 0;
  // HMAC() with a caller's buffer: no context to free, and libcrypto's own key handling (a key
  // longer than the block is hashed first, RFC 2104).
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), out.data(), &size) ||
      size != out.size())
    throw std::runtime_error("OpenSSL: HMAC-SHA256 failed");
  return out;
}

}  // namespace cudalab::host
