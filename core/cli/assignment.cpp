// `cudalab assignment init|starter` (course staff) and `cudalab check` (students): core/src/assignment.
#include <fmt/format.h>

#include <filesystem>

#include "assignment/assignment.hpp"
#include "assignment/assignment_template.hpp"
#include "assignment/check.hpp"
#include "assignment/grade.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/starter_kit.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "results/safe_file.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::cli {

namespace fs = std::filesystem;

namespace {

// Loads the assignment, printing why not; nullopt then, with `code` set.
std::optional<host::loaded_assignment> load(const options& o, const std::string& file, int& code) {
  try {
    return host::load_assignment(file, search_path(o));
  } catch (const host::lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    code = host::exit_bad_lab_file;
  } catch (const host::plugin_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    code = host::exit_plugin;
  }
  return std::nullopt;
}

}  // namespace

int assignment_init_command(const options& o) {
  int code = host::exit_ok;
  options lab = o;
  lab.files = {o.assignment.lab};
  const auto plans = plan(lab, nullptr, code);
  if (!plans) return code;
  const fs::path folder = o.out_dir, file = folder / "assignment.toml", secret = folder / host::staff_secret_file_name;
  try {
    const std::string text = host::assignment_template(plans->front(), o.assignment.slot, file);
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
  if (!load(o, file.string(), code)) {
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

int assignment_starter_command(const options& o) {
  int code = host::exit_ok;
  const auto a = load(o, o.assignment.file, code);
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

int check_command(const options& o) {
  host::check_request r;
  r.assignment = o.assignment.file;
  r.submission = o.assignment.submission;
  r.search_path = search_path(o);
  r.no_gpu = o.assignment.no_gpu;
  if (!o.assignment.arch.empty()) r.arch = o.assignment.arch;
  r.out_dir = o.out_dir;
  r.force = o.force;
  r.colour = !o.no_color;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  r.program = ec ? o.argv.at(0) : self.string();
  return host::check_submission(r);
}

int grade_command(const options& o) {
  host::grade_request r;
  r.assignment = o.assignment.file;
  r.submission = o.assignment.submission;
  r.submissions = o.assignment.submissions;
  if (r.submission.empty() && r.submissions.empty()) {
    fmt::print(stderr, "cudalab: grade: give --submission PATH (one) or --submissions DIR (a class)\n");
    return host::exit_usage;
  }
  r.student = o.assignment.student;
  r.secret_file = o.assignment.secret;
  r.out_dir = o.out_dir;
  r.force = o.force;
  for (const std::string& e : o.assignment.emit) {
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
  r.settings.search_path = search_path(o);
  r.settings.colour = !o.no_color;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  r.settings.program = ec ? o.argv.at(0) : self.string();
  return host::grade_command(r);
}

int validate_assignment(const options& o, const std::string& file) {
  int code = host::exit_ok;
  const auto a = load(o, file, code);
  if (!a) return code;
  std::size_t visible = 0;
  for (const auto& t : a->file.tests) visible += t.visibility == host::test_visibility::visible;
  fmt::print("{}: ok — assignment {}, slot '{}' of lab {}, {} test(s) ({} visible), {} points\n", file, a->file.id,
             a->slot->name, a->plugin->spec.name, a->file.tests.size(), visible, a->file.points);
  return host::exit_ok;
}

}  // namespace cudalab::cli
