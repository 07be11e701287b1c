// What the parent of an isolated run hands every child on its stdin: the texts of the run profile
// and of the lab files as the parent read and validated them when the run started. A child plans
// from these, never from the files, so that editing a file during the run changes nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// The texts a child plans from.
struct child_input {
  std::string profile_file;       ///< the run profile's name, for messages ("" without --config)
  std::string profile;            ///< its text
  std::vector<std::string> labs;  ///< each lab file's text, in the order of the command line
};

/// `input` as the bytes a child reads: a header line, then each text after a line with its size.
std::string child_input_text(const child_input& input);

/// The texts back from child_input_text's bytes; nullopt for anything else.
std::optional<child_input> parse_child_input(const std::string& text);

/// Reads descriptor `fd` to its end and parses what it holds; nullopt when that fails.
std::optional<child_input> read_child_input(int fd);

/// Reads the file `path` (written by the parent of `run --profile`) and parses what it holds; nullopt
/// when that fails.
std::optional<child_input> read_child_input_file(const std::string& path);

}  // namespace cudalab::host
