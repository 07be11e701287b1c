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

CLI::Validator percentage() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string number = text;
        if (!number.empty() && number.back() == '%') number.pop_back();
        char* end = nullptr;
        const double pct = std::strtod(number.c_str(), &end);
        const bool whole = !number.empty() && end == number.c_str() + number.size();
        if (!whole || !std::isfinite(pct) || pct < 0)
          return "'" + text + "' is not a percentage of at least 0; write e.g. --threshold 5";
        text = number;
        return "";
      },
      "PCT >= 0");
}

std::optional<std::vector<int>> parse_device_list(const std::string& text) {
  std::vector<int> devices;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string entry = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (entry.empty() || entry.size() > 4 ||
        !std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    const int ordinal = std::stoi(entry);
    if (ordinal > 1023) return std::nullopt;
    devices.push_back(ordinal);
    if (comma == std::string::npos) return devices;
    start = comma + 1;
  }
}

CLI::Validator device_list() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (parse_device_list(text)) return "";
        return "'" + text + "' is not a list of GPUs; write CUDA ordinals counted from 0, e.g. --devices 0,1";
      },
      "LIST");
}

CLI::Validator device_ordinal() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto one = parse_device_list(text);
        if (one && one->size() == 1) return "";
        return "'" + text + "' is not a GPU; write one CUDA ordinal counted from 0, e.g. --device 1" +
               (one ? " (--devices spreads a run over several)" : "");
      },
      "");
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
