// `cudalab new NAME`: a new lab plugin folder that builds out of tree against an installed cudalab and
// passes its own tests at once (templates in core/templates/lab/, compiled into the executable).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::host {

/// Why a scaffold could not be written (a bad name, a folder in the way, a write that failed).
class scaffold_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One file of the template, its name and text with "@LAB@" standing for the lab's name.
struct template_file {
  const char* name;  ///< e.g. "lab_plugin.cpp": a leading "lab" becomes the lab's name
  const char* text;
};

/// The template files (generated from core/templates/lab/ at build time).
const std::vector<template_file>& lab_template();

/// Writes the lab `name` into `folder` (created; it must not exist or be empty) and returns the
/// files written. Throws scaffold_error: a name that is not lower-case letters, digits and '_'
/// starting with a letter, or that is a C++ keyword; a folder that holds something; a write error.
std::vector<std::filesystem::path> write_lab_scaffold(const std::string& name, const std::filesystem::path& folder);

}  // namespace cudalab::host
