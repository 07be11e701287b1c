// Checks of command-line values that CLI11's own validators get wrong or word badly.
#include "option_checks.hpp"

#include <algorithm>
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

std::optional<std::string> isolate_value_after_space(const std::vector<std::string>& args) {
  const char* const modes[] = {"none", "file", "variant"};
  for (std::size_t i = 1; i + 1 < args.size() && args[i] != "--"; ++i) {
    const std::string& next = args[i + 1];
    if (args[i] == "--isolate" && std::find(std::begin(modes), std::end(modes), next) != std::end(modes))
      return "--isolate " + next + ": write --isolate=" + next + " (after a space, '" + next +
             "' is taken as a lab file)";
  }
  return std::nullopt;
}

}  // namespace cudalab::cli
