// Problems found in lab files, profiles and --set overrides: where each is, what is wrong, and the
// error that carries all of them at once.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::host {

/// Where something was written: "file:line:column" (line/column 0 when unknown, e.g. --set).
struct source_location {
  std::string file;
  int line = 0;
  int column = 0;
  std::string text() const;  ///< "file:line:column", "file:line" or "file"
};

/// One problem found in a lab file, a profile or an override.
struct lab_problem {
  source_location where;
  std::string message;  ///< what is wrong, and the nearest valid name where one fits
};

/// A lab file (or profile, or --set) that cannot be run. what() is the problems, one per line, as
/// "file:line:column: message": all of them, not just the first, but at most 50 of one file (then
/// "file: … and N more problems"), and each line at most about 1000 bytes (its middle left out).
class lab_file_error : public std::runtime_error {
 public:
  explicit lab_file_error(std::vector<lab_problem> problems);
  const std::vector<lab_problem>& problems() const noexcept { return problems_; }

 private:
  std::vector<lab_problem> problems_;
};

/// Orders problems as a reader meets them: by line and column within a file; problems without a
/// line (--set, unreadable files) after them, in the order of `set_order` (their file names), then
/// in the order found.
void sort_problems(std::vector<lab_problem>& problems, const std::vector<std::string>& set_order = {});

}  // namespace cudalab::host
