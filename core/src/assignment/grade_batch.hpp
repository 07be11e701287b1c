// `cudalab grade ASSIGNMENT --submissions DIR --out GRADES`: a class in one batch. Each entry of DIR
// (a file, or a folder holding the assignment's submission file) is one student, named by it, graded
// one after another (timing stays fair: one GPU, nothing beside it) into GRADES/<student>/. A student
// whose complete grade.json there is of the same assignment and submission is skipped, so a batch
// stopped by anything (kill -9 included) resumes where it was; a half-graded folder is graded again.
// At the end, gradebook.csv, the leaderboard and the class's pages (class_results.hpp) over every student.
#pragma once

#include <filesystem>

#include "assignment/grade.hpp"

namespace cudalab::host {

/// Grades the class `request.submissions` as above; returns the exit code (grade_command's).
int grade_class(const loaded_assignment& a, const session_settings& settings, const grade_request& request);

/// Removes `folder` when it holds only what a grading writes there (grade.json, renders, build/,
/// tests/, run/, perf-*/, sanitizer-*/, the files named in `emitted` and those an earlier grading's
/// --emit wrote there (emitted_in), a temporary file of a write that was killed: .NAME.tmp-XXXXXX);
/// anything else keeps it (and the grading then refuses it).
void remove_graded_folder(const std::filesystem::path& folder, const std::vector<std::string>& emitted = {});

}  // namespace cudalab::host
