// Golden-file checks for the host's own tests: an output compared byte for byte with a file under
// tests/fixtures; CUDALAB_UPDATE_GOLDEN=1 rewrites the file instead (after a deliberate change).
#pragma once

#include <filesystem>
#include <string>

namespace cudalab::host::testing {

/// Expects `got` to equal the file `golden`, or rewrites it (and skips) with CUDALAB_UPDATE_GOLDEN=1.
void expect_golden_file(const std::filesystem::path& golden, const std::string& got);

}  // namespace cudalab::host::testing
