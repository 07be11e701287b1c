// An assignment ready to use: its file parsed (assignment/assignment_file.hpp), its lab file planned
// with the lab's plugin loaded, its slot found, and each test's lab file checked against the lab -
// parameter names with did-you-mean, values typed and in range - with every problem located in the
// assignment file. CPU only: `validate`, `assignment starter`, `check` and `grade` start here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "plan/planning.hpp"

namespace cudalab::host {

struct loaded_assignment {
  assignment_file file;
  lab_file base;  ///< its lab file, parsed
  const loaded_plugin* plugin = nullptr;
  const slot_spec* slot = nullptr;
  /// The submission's file name: [submission] file, else the slot's.
  std::string submission_name() const { return file.submission_file.empty() ? slot->file_name : file.submission_file; }
  /// Test `t`'s lab file (test_lab_text with the student variant).
  std::string test_lab(const assignment_test& t) const;
};

/// Loads and checks the assignment at `path`, its lab's plugin found on `search_path`. Throws
/// lab_file_error with every problem (the assignment's, its lab file's, each test's), or
/// plugin_error when the lab's plugin cannot be loaded.
loaded_assignment load_assignment(const std::filesystem::path& path,
                                  const std::vector<std::filesystem::path>& search_path);

/// load_assignment for a command: `out` loaded and exit_ok, or the problems printed on stderr and
/// exit_bad_lab_file (the assignment or its lab file) or exit_plugin (the lab's plugin).
int load_assignment_for_command(const std::filesystem::path& path,
                                const std::vector<std::filesystem::path>& search_path, loaded_assignment& out);

}  // namespace cudalab::host
