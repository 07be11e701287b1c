// Bytes as lower-case hexadecimal text and back: digests and HMACs (assignment/digests), CUDA IPC handles on the
// wire between a harness and a submission's process (isolation/submission_wire).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cudalab::host {

/// Lower-case hex of `bytes` ("e3b0c442...").
std::string hex_text(const std::uint8_t* bytes, std::size_t size);

/// The bytes `hex` spells (two digits a byte, either case); nullopt for an odd length or a character that is no
/// hexadecimal digit.
std::optional<std::string> bytes_of_hex(const std::string& hex);

}  // namespace cudalab::host
