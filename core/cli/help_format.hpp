// --help wrapped to the terminal: CLI11's formatter with its texts broken at spaces to a width.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace cudalab::cli {

/// CLI11's help formatter (2.1 cannot wrap) with every text wrapped to `width` columns: an option's
/// or a command's description beside its name, from a column a third of the width in (26 to 30),
/// its further lines under its first; a name too long for that column has its description start on
/// the next line. The programme's and each command's description are wrapped as paragraphs.
class wrapped_help final : public CLI::Formatter {
 public:
  explicit wrapped_help(std::size_t width);

  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;

 private:
  std::string entry(const std::string& name, const std::string& description) const;

  std::size_t width_;
};

/// `items` after `label`, joined by ", " and wrapped to `width`, each item whole on its line and the
/// lines after the first indented under the first item: the footer's exit codes.
std::string item_list(const std::string& label, const std::vector<std::string>& items, std::size_t width);

}  // namespace cudalab::cli
