// Checks of command-line values that CLI11's own validators get wrong or word badly.
#include "option_checks.hpp"

#include <cmath>
#include <cstdlib>

namespace cudalab::cli {

CLI::Validator seconds_above_zero() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double seconds = std::strtod(text.c_str(), &end);
        const bool whole = !text.empty() && end == text.c_str() + text.size();
        if (whole && std::isfinite(seconds) && seconds > 0) return "";
        return "'" + text + "' is not a number of seconds above 0; write e.g. --timeout 30";
      },
      "SECONDS > 0");
}

}  // namespace cudalab::cli
