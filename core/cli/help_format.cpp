// --help wrapped to the terminal (help_format.hpp).
#include "help_format.hpp"

#include <algorithm>

#include "results/console_text.hpp"

namespace cudalab::cli {

wrapped_help::wrapped_help(std::size_t width) : width_(width) {
  column_width(std::clamp<std::size_t>(width / 3, 26, 30));
}

std::string wrapped_help::entry(const std::string& name, const std::string& description) const {
  const std::size_t column = get_column_width();
  const std::string label = "  " + name;
  if (description.empty()) return label + "\n";
  std::vector<std::string> lines = host::wrap_lines(description, width_, column, column);
  std::string text;
  if (host::text_columns(label) < column)
    lines.front().replace(0, column, host::pad_right(label, column));
  else
    text = label + "\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string wrapped_help::make_option(const CLI::Option* opt, bool is_positional) const {
  return entry(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string wrapped_help::make_subcommand(const CLI::App* sub) const {
  return entry(sub->get_display_name(true), sub->get_description());
}

std::string wrapped_help::make_description(const CLI::App* app) const {
  std::string description = CLI::Formatter::make_description(app);
  if (description.empty()) return description;
  std::string text;
  for (const std::string& line : host::wrap_lines(description.substr(0, description.size() - 1), width_, 0, 0))
    text += line + "\n";
  return text;
}

std::string item_list(const std::string& label, const std::vector<std::string>& items, std::size_t width) {
  const std::size_t indent = host::text_columns(label) + 1;
  std::string text = label, line = label;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : ".");
    if (host::text_columns(line) + 1 + host::text_columns(item) > width && line.size() > label.size()) {
      text += "\n" + std::string(indent - 1, ' ');
      line = std::string(indent - 1, ' ');
    }
    text += " " + item;
    line += " " + item;
  }
  return text;
}

}  // namespace cudalab::cli
