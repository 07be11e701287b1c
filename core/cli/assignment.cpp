// `cudalab assignment init|starter` (course staff) and `cudalab check` (students): core/src/assignment.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "assignment/assignment.hpp"
#include "assignment/assignment_template.hpp"
#include "assignment/check.hpp"
#include "assignment/grade.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/starter_kit.hpp"
#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "results/safe_file.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::cli {

namespace fs = std::filesystem;

namespace {

// Loads the assignment, printing why not; nullopt then, with `code` set.
std::optional<host::loaded_assignment> load(const std::vector<std::string>& plugin_paths, const std::string& file,
                                            int& code) {
  try {
    return host::load_assignment(file, search_path(plugin_paths));
  } catch (const host::lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    code = host::exit_bad_lab_file;
  } catch (const host::plugin_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    code = host::exit_plugin;
  }
  return std::nullopt;
}

struct init_options {
  std::vector<std::string> plugin_paths;
  std::string lab;      ///< --lab
  std::string slot;     ///< --slot
  std::string out_dir;  ///< --out
};

struct starter_options {
  std::vector<std::string> plugin_paths;
  std::string assignment;
  std::string out_dir;
};

struct check_options {
  std::vector<std::string> plugin_paths;
  std::string assignment;
  std::string submission;  ///< --submission ("": the kit's file beside the assignment)
  bool no_gpu = false;
  std::string arch;  ///< --arch (what --no-gpu builds for)
  std::string out_dir;
  bool force = false;
  bool no_color = false;
};

struct grade_options {
  std::vector<std::string> plugin_paths;
  std::string assignment;
  std::string submission;         ///< --submission PATH (one)
  std::string submissions;        ///< --submissions DIR (a class)
  std::string student;            ///< --student ID
  std::string secret;             ///< --secret FILE
  std::vector<std::string> emit;  ///< --emit KIND=PATH
  std::string out_dir;
  bool force = false;
  bool no_color = false;
};

int assignment_init(const init_options& o) {
  int code = host::exit_ok;
  lab_options lab;
  lab.plugin_paths = o.plugin_paths;
  lab.files = {o.lab};
  const auto plans = plan(plan_request_of(lab, nullptr), code);
  if (!plans) return code;
  const fs::path folder = o.out_dir, file = folder / "assignment.toml", secret = folder / host::staff_secret_file_name;
  try {
    const std::string text = host::assignment_template(plans->front(), o.slot, file);
    host::make_empty_folder(folder);
    host::write_file_atomically(file, text);
    host::create_staff_secret(secret);
    // The folder is new: a .gitignore keeps the secret out of a course repository it is committed to.
    host::write_file_atomically(folder / ".gitignore",
                                "# the staff secret: per-student seeds of hidden tests; never commit it\n" +
                                    std::string(host::staff_secret_file_name) + "\n");
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "cudalab: assignment init: {}\n", e.what());
    return host::exit_usage;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "cudalab: assignment init: {}\n", e.what());
    return host::exit_write_error;
  }
  if (!load(o.plugin_paths, file.string(), code)) {
    fmt::print(stderr, "cudalab: assignment init: the template written to {} does not validate (a bug)\n",
               file.string());
    return host::exit_internal;
  }
  fmt::print(
      "cudalab: wrote {}; edit its tests, check it with `cudalab validate {}`, then make the students' kit "
      "with `cudalab assignment starter {} --out KIT`\n",
      file.string(), file.string(), file.string());
  fmt::print(
      "cudalab: wrote {} (mode 0600): the staff secret the hidden tests' per-student seeds are drawn with. Keep it "
      "on the grader, out of version control (the .gitignore beside it names it); `assignment starter` never "
      "copies it into a kit\n",
      secret.string());
  return host::exit_ok;
}

int assignment_starter(const starter_options& o) {
  int code = host::exit_ok;
  const auto a = load(o.plugin_paths, o.assignment, code);
  if (!a) return code;
  try {
    const auto files = host::write_starter_kit(*a, o.out_dir);
    fmt::print("cudalab: wrote the starter kit of {} into {}:\n", a->file.id, o.out_dir);
    for (const fs::path& f : files) fmt::print("  {}\n", f.filename().string());
    fmt::print("Students run: cudalab check {}/assignment.toml --submission {}/{}\n", o.out_dir, o.out_dir,
               a->submission_name());
    return host::exit_ok;
  } catch (const host::solution_markers_error& e) {
    fmt::print(stderr, "cudalab: assignment starter: the slot's reference: {}\n", e.what());
    return host::exit_plugin;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "cudalab: assignment starter: {}\n", e.what());
    return host::exit_usage;
  }
}

int check(const check_options& o, const invocation& how) {
  host::check_request r;
  r.assignment = o.assignment;
  r.submission = o.submission;
  r.search_path = search_path(o.plugin_paths);
  r.no_gpu = o.no_gpu;
  if (!o.arch.empty()) r.arch = o.arch;
  r.out_dir = o.out_dir;
  r.force = o.force;
  r.colour = !o.no_color;
  r.program = how.program();
  return host::check_submission(r);
}

int grade(const grade_options& o, const invocation& how) {
  host::grade_request r;
  r.assignment = o.assignment;
  r.submission = o.submission;
  r.submissions = o.submissions;
  if (r.submission.empty() && r.submissions.empty()) {
    fmt::print(stderr, "cudalab: grade: give --submission PATH (one) or --submissions DIR (a class)\n");
    return host::exit_usage;
  }
  r.student = o.student;
  r.secret_file = o.secret;
  r.out_dir = o.out_dir;
  r.force = o.force;
  for (const std::string& e : o.emit) {
    const auto eq = e.find('=');
    const std::string kind = e.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == e.size() ||
        (kind != "gradescope" && kind != "prairielearn" && kind != "junit" && kind != "md")) {
      fmt::print(stderr,
                 "cudalab: grade: --emit {}: write KIND=FILE, KIND one of gradescope, prairielearn, junit, md\n", e);
      return host::exit_usage;
    }
    r.emit.push_back({kind, e.substr(eq + 1)});
  }
  r.settings.search_path = search_path(o.plugin_paths);
  r.settings.colour = !o.no_color;
  r.settings.program = how.program();
  return host::grade_command(r);
}

}  // namespace

std::vector<command> add_assignment(CLI::App& app) {
  auto* assignment =
      app.add_subcommand("assignment", "Course staff: make an assignment for a lab's slot, and its starter kit");
  assignment->require_subcommand(1);
  auto init = std::make_shared<init_options>();
  auto* init_cmd = assignment->add_subcommand("init",
                                              "Write a new assignment file for a slot of a lab file (visible, hidden, "
                                              "performance and sanitizer tests to edit)");
  add_plugin_path(*init_cmd, init->plugin_paths);
  init_cmd->add_option("--lab", init->lab, "The lab file the assignment extends")->type_name("TOML")->required();
  init_cmd->add_option("--slot", init->slot, "The lab's slot the students fill (cudalab describe LAB lists them)")
      ->required();
  init_cmd->add_option("--out", init->out_dir, "The assignment's folder (new, or empty)")->type_name("DIR")->required();
  auto starter = std::make_shared<starter_options>();
  auto* starter_cmd = assignment->add_subcommand(
      "starter", "Write the students' kit: the slot's source with TODOs, a public assignment copy, a README");
  add_plugin_path(*starter_cmd, starter->plugin_paths);
  starter_cmd->add_option("assignment", starter->assignment, "The assignment file")->type_name("TOML")->required();
  starter_cmd->add_option("--out", starter->out_dir, "The kit's folder (new, or empty)")->type_name("DIR")->required();
  return {{init_cmd, [init] { return assignment_init(*init); }},
          {starter_cmd, [starter] { return assignment_starter(*starter); }}};
}

command add_check(CLI::App& app, const invocation& how) {
  auto o = std::make_shared<check_options>();
  auto* cmd = app.add_subcommand(
      "check", "Students: build your submission as the grader does and run the assignment's visible tests");
  add_plugin_path(*cmd, o->plugin_paths);
  cmd->add_option("assignment", o->assignment, "The kit's assignment.toml")->type_name("TOML")->required();
  cmd->add_option("--submission", o->submission, "Your file (default: the file the assignment names, beside it)")
      ->type_name("FILE");
  cmd->add_flag("--no-gpu", o->no_gpu, "Only build it and check the header policy (no GPU needed)");
  cmd->add_option("--arch", o->arch, "The architecture --no-gpu builds for (default sm_90)");
  cmd->add_option("--out", o->out_dir, "Where to keep what it ran (default: check-results/<id>-<date-time>Z)")
      ->type_name("DIR");
  cmd->add_flag("--force", o->force, "Replace an earlier check's folder at --out");
  cmd->add_flag("--no-color", o->no_color, "No colours");
  return {cmd, [o, &how] { return check(*o, how); }};
}

command add_grade(CLI::App& app, const invocation& how) {
  auto o = std::make_shared<grade_options>();
  auto* cmd = app.add_subcommand(
      "grade", "Staff: grade a submission (or a class) on this GPU - every test, hidden ones per student, integrity");
  add_plugin_path(*cmd, o->plugin_paths);
  cmd->add_option("assignment", o->assignment, "The staff's assignment.toml (with secret.key beside it)")
      ->type_name("TOML")
      ->required();
  auto* one = cmd->add_option("--submission", o->submission,
                              "One submission: the file, or a folder holding the assignment's file")
                  ->type_name("PATH");
  cmd->add_option("--submissions", o->submissions,
                  "A class: a folder of submissions, one file or folder per student, named by it (resumes)")
      ->type_name("DIR")
      ->excludes(one);
  cmd->add_option("--student", o->student, "The student's id (default: the submission's name)");
  cmd->add_option("--secret", o->secret, "The staff secret (default: secret.key beside the assignment)")
      ->type_name("FILE");
  cmd->add_option("--emit", o->emit,
                  "Also write a render: gradescope=FILE, prairielearn=FILE, junit=FILE or md=FILE (repeatable)")
      ->type_name("KIND=FILE")
      ->delimiter(',');
  cmd->add_option("--out", o->out_dir, "The output folder (a class: one folder per student in it)")->type_name("DIR");
  cmd->add_flag("--force", o->force, "Replace an earlier grading's folder at --out (one submission)");
  cmd->add_flag("--no-color", o->no_color, "No colours");
  return {cmd, [o, &how] { return grade(*o, how); }};
}

int validate_assignment(const std::vector<std::string>& plugin_paths, const std::string& file) {
  int code = host::exit_ok;
  const auto a = load(plugin_paths, file, code);
  if (!a) return code;
  std::size_t visible = 0;
  for (const auto& t : a->file.tests) visible += t.visibility == host::test_visibility::visible;
  fmt::print("{}: ok — assignment {}, slot '{}' of lab {}, {} test(s) ({} visible), {} points\n", file, a->file.id,
             a->slot->name, a->plugin->spec.name, a->file.tests.size(), visible, a->file.points);
  return host::exit_ok;
}

}  // namespace cudalab::cli
