// A class's grading as jobs and a merge (grade_jobs.hpp).
#include "assignment/grade_jobs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "assignment/digests.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/pseudonyms.hpp"
#include "assignment/report_signature.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/test_scoring.hpp"
#include "exit_codes.hpp"
#include "labfile/text_file.hpp"
#include "results/console_text.hpp"
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

// The files a merge writes beside the students' folders: no student may be called so.
const char* const class_files[] = {"gradebook.csv", "leaderboard.json", "leaderboard.md",
                                   "class.html",    "class-staff.html", "left-out.txt"};

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
    if (r.submission.sha256 == submission_sha256(job.submission.string()))
      return "grade.json is not signed for this student by this grader (a forgery, or of another secret, lab "
             "file or cudalab)";
    return "grade.json is of another submission (the file changed since)";
  } catch (const std::exception&) {
    return "grade.json cannot be read: cut short while it was written";
  }
}

}  // namespace

std::vector<grade_job> class_jobs(const loaded_assignment& a, const grade_request& req,
                                  std::vector<std::string>& left_out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(req.submissions, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  // A name that is no student's may hold anything a file name can: shown escaped, never obeyed.
  const auto leave_out = [&](const fs::path& entry, const std::string& why) {
    left_out.push_back(printable(entry.filename().string()) + ": " + why);
    fmt::print(stderr, "cudalab: grade: {}: {}; left out\n", printable(entry.string()), why);
  };
  std::map<std::string, std::vector<fs::path>> by_student;
  for (const fs::path& entry : entries) {
    const std::string base = entry.filename().string();
    if (base.empty() || base[0] == '.') continue;
    const std::string student = fs::is_directory(entry, ec) ? base : entry.stem().string();
    if (!usable_name(student))
      leave_out(entry, "not a student's name (letters, digits, . - _ @)");
    else if (std::find(std::begin(class_files), std::end(class_files), student) != std::end(class_files))
      leave_out(entry, "the name of a file the batch writes beside the students' folders");
    else
      by_student[student].push_back(entry);
  }
  std::vector<grade_job> jobs;
  for (const auto& [student, found] : by_student) {
    if (found.size() > 1) {  // alice/ and alice.cu: which is hers is for the staff to say
      for (const fs::path& entry : found)
        leave_out(entry,
                  fmt::format("student '{}' has {} hand-ins here; keep one and grade again", student, found.size()));
      continue;
    }
    const bool folder = fs::is_directory(found[0], ec);
    const fs::path file = folder ? found[0] / a.submission_name() : found[0];
    if (!fs::is_regular_file(file, ec)) {
      leave_out(found[0], folder ? "no " + a.submission_name() + " in it" : "not a regular file");
      continue;
    }
    jobs.push_back({student, file, fs::path(req.out_dir) / student});
  }
  return jobs;
}

std::optional<grade_report> finished_report(const loaded_assignment& a, const grade_job& job,
                                            const std::string& secret) {
  std::error_code ec;
  if (!fs::is_regular_file(job.folder / "grade.json", ec)) return std::nullopt;
  try {
    const std::string text = read_text(job.folder / "grade.json", "grade report");
    grade_report r = parse_grade_report(text);
    if (r.command == "grade" && r.complete && r.assignment.digest == sha256_hex(a.file.text) &&
        r.submission.sha256 == submission_sha256(job.submission.string()) &&
        signed_for(text, r, a, job.student, secret))
      return r;
  } catch (const std::exception&) {  // half written by a killed grader, or not ours: graded again
  }
  return std::nullopt;
}

std::vector<emit_target> emit_into(const std::vector<emit_target>& emit, const fs::path& folder) {
  std::vector<emit_target> into = emit;
  for (emit_target& t : into) t.path = folder / t.path.filename();
  return into;
}

std::vector<grade_job> pending_jobs(const loaded_assignment& a, const std::vector<grade_job>& jobs,
                                    const std::string& secret, int& kept, const std::vector<emit_target>& emit) {
  std::vector<grade_job> pending;
  for (const grade_job& job : jobs) {
    const auto done = finished_report(a, job, secret);
    if (!done) {
      pending.push_back(job);
      continue;
    }
    fmt::print("{}: graded already ({} of {} points), kept\n", job.student, points_text(done->score),
               points_text(done->max_score));
    write_file_atomically(job.folder / "feedback.html", feedback_html(*done));
    emit_renders(*done, emit_into(emit, job.folder), job.folder);
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
  if (req.no_sandbox) argv.push_back("--no-sandbox");
  return argv;
}

std::vector<std::string> job_argv(const std::string& program, const grade_request& req, const grade_job& job,
                                  int device) {
  std::vector<std::string> what = {"--submission", absolute_text(job.submission), "--student", job.student,
                                   "--out",        absolute_text(job.folder),     "--force"};
  for (const emit_target& t : emit_into(req.emit, job.folder))
    what.insert(what.end(), {"--emit", t.kind + "=" + absolute_text(t.path)});
  std::vector<std::string> argv = grade_argv(program, req, what);
  if (device >= 0) argv.insert(argv.end(), {"--device", std::to_string(device)});
  return argv;
}

int merge_class(const loaded_assignment& a, const session_settings& settings, const grade_request& req,
                const std::vector<grade_job>& jobs, int kept, const std::vector<std::string>& left_out,
                const job_note_fn& note) {
  std::vector<class_entry> all, graded;
  for (const grade_job& job : jobs) {
    if (auto done = finished_report(a, job, settings.secret)) {
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
    // Two students with one pseudonym: all but the first by id draw again, and their grade.json says so,
    // signed again.
    for (const std::size_t i : break_pseudonym_ties(settings.secret, a.file.id, graded)) {
      sign_report(graded[i].report, a, graded[i].student, settings.secret);
      write_grade_report(out / graded[i].student / "grade.json", graded[i].report);
      for (class_entry& e : all)
        if (e.student == graded[i].student) e.report = graded[i].report;
    }
    write_file_atomically(out / "gradebook.csv", gradebook_csv(all));
    const std::vector<leaderboard_row> board = class_leaderboard(graded);
    write_file_atomically(out / "leaderboard.json", leaderboard_json(a.file.id, board));
    write_file_atomically(out / "leaderboard.md", leaderboard_markdown(a.file.title, board));
    write_file_atomically(out / "class.html", class_html(a.file.title, graded, false));
    write_file_atomically(out / "class-staff.html", class_html(a.file.title, graded, true));
    std::string left;
    for (const std::string& line : left_out) left += line + "\n";
    std::error_code ec;
    if (!left.empty())
      write_file_atomically(out / "left-out.txt", left);
    else
      fs::remove(out / "left-out.txt", ec);
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  const std::size_t missing = all.size() - graded.size();
  fmt::print(
      "\n{} student(s) graded ({} kept from an earlier batch{}{}); gradebook.csv, leaderboard.md and class.html "
      "in {}\n",
      graded.size(), kept, left_out.empty() ? "" : fmt::format(", {} left out: see left-out.txt", left_out.size()),
      missing ? fmt::format(", {} not graded: run the batch again to grade just those", missing) : "", out.string());
  // Every hand-in is graded or named: a batch that graded fewer says so in its exit code.
  return missing || !left_out.empty() ? exit_not_graded : exit_ok;
}

}  // namespace cudalab::host
