// A class's grading as jobs and a merge (grade_jobs.hpp).
#include "assignment/grade_jobs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assignment/digests.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/pseudonyms.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/test_scoring.hpp"
#include "exit_codes.hpp"
#include "labfile/text_file.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// A student's name is a folder name of the output: letters, digits, '.', '-', '_', '@', not hidden.
bool usable_name(const std::string& s) {
  return !s.empty() && s[0] != '.' && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '@';
  });
}

// Why `job` has no finished report, from what its folder holds: what a merge's row says.
std::string why_not_graded(const loaded_assignment& a, const grade_job& job) {
  std::error_code ec;
  if (!fs::is_regular_file(job.folder / "grade.json", ec))
    return "no grade.json: its grading never started, or was killed before the build ended";
  try {
    const grade_report r = parse_grade_report(read_text(job.folder / "grade.json", "grade report"));
    if (!r.complete)
      return fmt::format(
          "grade.json incomplete: its grading was killed after {:.0f} s (a time limit, a node failure, a "
          "cancelled job, a crash)",
          r.seconds);
    if (r.assignment.digest != sha256_hex(a.file.text)) return "grade.json is of another version of the assignment";
    return "grade.json is of another submission (the file changed since)";
  } catch (const std::exception&) {
    return "grade.json cannot be read: cut short while it was written";
  }
}

}  // namespace

std::vector<grade_job> class_jobs(const loaded_assignment& a, const grade_request& req, int& left_out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(req.submissions, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  std::vector<grade_job> jobs;
  for (const fs::path& entry : entries) {
    const bool folder = fs::is_directory(entry, ec);
    const std::string student = folder ? entry.filename().string() : entry.stem().string();
    if (!usable_name(student)) {
      if (!student.empty() && student[0] != '.')
        fmt::print(stderr, "cudalab: grade: {}: not a student's name (letters, digits, . - _ @); left out\n",
                   entry.string());
      continue;
    }
    const fs::path file = folder ? entry / a.submission_name() : entry;
    if (!fs::is_regular_file(file, ec)) {
      fmt::print(stderr, "cudalab: grade: {}: no {} in it; left out\n", entry.string(), a.submission_name());
      ++left_out;
      continue;
    }
    jobs.push_back({student, file, fs::path(req.out_dir) / student});
  }
  return jobs;
}

std::optional<grade_report> finished_report(const loaded_assignment& a, const grade_job& job) {
  std::error_code ec;
  if (!fs::is_regular_file(job.folder / "grade.json", ec)) return std::nullopt;
  try {
    grade_report r = parse_grade_report(read_text(job.folder / "grade.json", "grade report"));
    if (r.command == "grade" && r.complete && r.assignment.digest == sha256_hex(a.file.text) &&
        r.submission.sha256 == submission_sha256(job.submission.string()))
      return r;
  } catch (const std::exception&) {  // half written by a killed grader, or not ours: graded again
  }
  return std::nullopt;
}

std::vector<grade_job> pending_jobs(const loaded_assignment& a, const std::vector<grade_job>& jobs, int& kept) {
  std::vector<grade_job> pending;
  for (const grade_job& job : jobs) {
    const auto done = finished_report(a, job);
    if (!done) {
      pending.push_back(job);
      continue;
    }
    fmt::print("{}: graded already ({} of {} points), kept\n", job.student, points_text(done->score),
               points_text(done->max_score));
    write_file_atomically(job.folder / "feedback.html", feedback_html(*done));
    ++kept;
  }
  return pending;
}

fs::path secret_file_of(const grade_request& req) {
  return !req.secret_file.empty() ? fs::path(req.secret_file) : req.assignment.parent_path() / staff_secret_file_name;
}

std::string absolute_text(const fs::path& path) { return fs::absolute(path).lexically_normal().string(); }

std::vector<std::string> grade_argv(const std::string& program, const grade_request& req,
                                    const std::vector<std::string>& what) {
  std::vector<std::string> argv = {program, "grade", absolute_text(req.assignment)};
  argv.insert(argv.end(), what.begin(), what.end());
  argv.insert(argv.end(), {"--secret", absolute_text(secret_file_of(req))});
  for (const fs::path& p : req.settings.search_path) argv.insert(argv.end(), {"--plugin-path", absolute_text(p)});
  if (!req.settings.colour) argv.push_back("--no-color");
  return argv;
}

std::vector<std::string> job_argv(const std::string& program, const grade_request& req, const grade_job& job,
                                  int device) {
  std::vector<std::string> what = {"--submission", absolute_text(job.submission), "--student", job.student,
                                   "--out",        absolute_text(job.folder),     "--force"};
  for (const emit_target& t : req.emit)
    what.insert(what.end(), {"--emit", t.kind + "=" + absolute_text(job.folder / t.path.filename())});
  std::vector<std::string> argv = grade_argv(program, req, what);
  if (device >= 0) argv.insert(argv.end(), {"--device", std::to_string(device)});
  return argv;
}

int merge_class(const loaded_assignment& a, const session_settings& settings, const grade_request& req,
                const std::vector<grade_job>& jobs, int kept, int left_out, const job_note_fn& note) {
  std::vector<class_entry> all, graded;
  for (const grade_job& job : jobs) {
    if (auto done = finished_report(a, job)) {
      graded.push_back({job.student, std::move(*done)});
      all.push_back(graded.back());
      continue;
    }
    class_entry missing{job.student, grade_report{}, why_not_graded(a, job)};
    missing.report.student.pseudonym = pseudonym(settings.secret, a.file.id, job.student);
    missing.report.max_score = a.file.points;
    if (note)
      if (const std::string more = note(job); !more.empty()) missing.not_graded += "; " + more;
    fmt::print(stderr, "cudalab: grade: {}: not graded: {}\n", job.student, missing.not_graded);
    all.push_back(std::move(missing));
  }
  const fs::path out(req.out_dir);
  try {
    write_file_atomically(out / "gradebook.csv", gradebook_csv(all));
    const std::vector<leaderboard_row> board = class_leaderboard(graded);
    write_file_atomically(out / "leaderboard.json", leaderboard_json(a.file.id, board));
    write_file_atomically(out / "leaderboard.md", leaderboard_markdown(a.file.title, board));
    write_file_atomically(out / "class.html", class_html(a.file.title, graded, false));
    write_file_atomically(out / "class-staff.html", class_html(a.file.title, graded, true));
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  const std::size_t missing = all.size() - graded.size();
  fmt::print(
      "\n{} student(s) graded ({} kept from an earlier batch{}{}); gradebook.csv, leaderboard.md and class.html "
      "in {}\n",
      graded.size(), kept, left_out ? fmt::format(", {} left out", left_out) : "",
      missing ? fmt::format(", {} not graded: run the batch again to grade just those", missing) : "", out.string());
  return missing ? exit_not_graded : exit_ok;
}

}  // namespace cudalab::host
