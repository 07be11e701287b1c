// `cudalab assignment init|starter` (course staff) and `cudalab check` (students): core/src/assignment.
#include <fmt/format.h>

#include <algorithm>

#include <filesystem>
#include <memory>
#include <optional>

#include "assignment/assignment.hpp"
#include "assignment/assignment_template.hpp"
#include "assignment/check.hpp"
#include "assignment/grade.hpp"
#include "assignment/kit_plugin.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/starter_kit.hpp"
#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
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
  std::string id;       ///< --id ("": the --out folder's name)
};

struct starter_options {
  std::vector<std::string> plugin_paths;
  std::string assignment;
  std::string out_dir;
  std::string plugin_source;   ///< --plugin-source DIR
  std::string plugin_package;  ///< --plugin-package TEXT
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
  bool no_sandbox = false;  ///< --no-sandbox
  bool no_color = false;
  int device = -1;                          ///< --device N (one submission)
  std::string devices;                      ///< --devices 0,1,... (a class)
  bool merge = false;                       ///< --merge
  bool slurm = false;                       ///< --slurm
  std::vector<std::string> sbatch_options;  ///< --sbatch OPTION
  std::string partition, time_limit;        ///< --partition, --time
  bool wait = false;                        ///< --wait
};

int assignment_init(const init_options& o) {
  int code = host::exit_ok;
  lab_options lab;
  lab.plugin_paths = o.plugin_paths;
  lab.files = {o.lab};
  const auto plans = plan(plan_request_of(lab, nullptr), code);
  if (!plans) return code;
  const fs::path folder = o.out_dir, file = folder / "assignment.toml", secret = folder / host::staff_secret_file_name;
  const std::string id = o.id.empty() ? fs::absolute(file).parent_path().filename().string() : o.id;
  if (!host::is_assignment_id(id)) {
    fmt::print(stderr,
               "cudalab: assignment init: the id '{}'{} is not lower-case letters, digits, '-' and '_' (it names "
               "folders): give one with --id\n",
               id, o.id.empty() ? " (the --out folder's name)" : "");
    return host::exit_usage;
  }
  try {
    const std::string text = host::assignment_template(plans->front(), o.slot, file, id);
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
    const auto files = host::write_starter_kit(*a, o.out_dir, {o.plugin_source, o.plugin_package});
    fmt::print("cudalab: wrote the starter kit of {} into {}:\n", a->file.id, o.out_dir);
    for (const fs::path& f : files) fmt::print("  {}\n", f.lexically_relative(o.out_dir).string());
    if (!o.plugin_source.empty())
      fmt::print("Students build the lab's plugin first: {}\n", host::kit_build_command(o.out_dir));
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
  // A kit of a lab cudalab does not ship holds its plugin's source: built into the kit's build folder,
  // which the search path then holds; not built yet, the one line that builds it.
  const std::string kit =
      fs::path(o.assignment).parent_path().empty() ? "." : fs::path(o.assignment).parent_path().string();
  if (host::kit_plugin_unbuilt(kit)) {
    fmt::print(stderr, "cudalab: check: this kit's lab plugin is not built yet; build it once with: {}\n",
               host::kit_build_command(kit));
    return host::exit_plugin;
  }
  host::check_request r;
  r.assignment = o.assignment;
  r.submission = o.submission;
  r.search_path = search_path(o.plugin_paths);
  r.search_path.push_back(host::kit_build_folder(kit));
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
  r.no_sandbox = o.no_sandbox;
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
  r.settings.device = o.device;
  if (!o.devices.empty()) r.devices = *parse_device_list(o.devices);
  // run --devices may put two workers on one GPU (to test them); grading never: both would time at once.
  for (std::size_t i = 0; i < r.devices.size(); ++i)
    if (std::count(r.devices.begin(), r.devices.end(), r.devices[i]) > 1) {
      fmt::print(stderr,
                 "cudalab: grade: --devices {}: GPU {} is listed twice; its students' timings would "
                 "overlap - list each GPU once\n",
                 o.devices, r.devices[i]);
      return host::exit_usage;
    }
  r.merge_only = o.merge;
  r.slurm = o.slurm;
  r.sbatch_options = o.sbatch_options;
  r.partition = o.partition;
  r.time_limit = o.time_limit;
  r.wait = o.wait;
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
  init_cmd->add_option("--id", init->id, "The assignment's id (default: the --out folder's name)")->type_name("ID");
  auto starter = std::make_shared<starter_options>();
  auto* starter_cmd = assignment->add_subcommand(
      "starter", "Write the students' kit: the slot's source with TODOs, a public assignment copy, a README");
  add_plugin_path(*starter_cmd, starter->plugin_paths);
  starter_cmd->add_option("assignment", starter->assignment, "The assignment file")->type_name("TOML")->required();
  starter_cmd->add_option("--out", starter->out_dir, "The kit's folder (new, or empty)")->type_name("DIR")->required();
  auto* source = starter_cmd
                     ->add_option("--plugin-source", starter->plugin_source,
                                  "A lab cudalab does not ship: its source folder (as `cudalab new` made it), "
                                  "copied into the kit without the solution, with a CMakeLists that builds it")
                     ->type_name("DIR");
  starter_cmd
      ->add_option("--plugin-package", starter->plugin_package,
                   "A lab cudalab does not ship: what students install to get its plugin (words for the README)")
      ->type_name("TEXT")
      ->excludes(source);
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
  auto* class_dir =
      cmd->add_option("--submissions", o->submissions,
                      "A class: a folder of submissions, one file or folder per student, named by it (resumes)")
          ->type_name("DIR")
          ->excludes(one);
  cmd->add_option("--device", o->device, "One submission on GPU N alone (as run --device)")
      ->type_name("N")
      ->check(device_ordinal())
      ->needs(one);
  auto* devices = cmd->add_option("--devices", o->devices,
                                  "A class side by side, one worker per GPU listed, each student whole on one GPU")
                      ->type_name("0,1,...")
                      ->check(device_list())
                      ->needs(class_dir);
  auto* merge =
      cmd->add_flag("--merge", o->merge, "A class: only write gradebook.csv and the class's pages from its folders")
          ->needs(class_dir)
          ->excludes(devices);
  auto* slurm = cmd->add_flag("--slurm", o->slurm,
                              "A class on a Slurm cluster: a job array (a task per student not graded yet) and a "
                              "merge job; scripts and logs in OUT/.slurm/")
                    ->needs(class_dir)
                    ->excludes(devices)
                    ->excludes(merge);
  one_value_each_time(cmd->add_option("--sbatch", o->sbatch_options,
                                      "With --slurm: an sbatch option for both jobs, as --sbatch=--account=cs101 "
                                      "(repeatable)")
                          ->type_name("OPTION")
                          ->needs(slurm));
  cmd->add_option("--partition", o->partition, "With --slurm: the partition (default: the cluster's)")->needs(slurm);
  cmd->add_option("--time", o->time_limit,
                  "With --slurm: each task's time limit, as sbatch --time takes it (default: from the assignment's "
                  "compile and total timeouts)")
      ->needs(slurm);
  cmd->add_flag("--wait", o->wait, "With --slurm: wait for the merge; exit 12 when a task left its student ungraded")
      ->needs(slurm);
  cmd->add_option("--student", o->student, "The student's id (default: the submission's name)");
  cmd->add_option("--secret", o->secret, "The staff secret (default: secret.key beside the assignment)")
      ->type_name("FILE");
  cmd->add_option("--emit", o->emit,
                  "Also write a render: gradescope=FILE, prairielearn=FILE, junit=FILE or md=FILE (repeatable)")
      ->type_name("KIND=FILE")
      ->delimiter(',');
  cmd->add_option("--out", o->out_dir, "The output folder (a class: one folder per student in it)")->type_name("DIR");
  cmd->add_flag("--force", o->force, "Replace an earlier grading's folder at --out (one submission)");
  cmd->add_flag("--no-sandbox", o->no_sandbox,
                "Run the students' code without the sandbox (only on a machine and as a user that hold nothing else)");
  cmd->add_flag("--no-color", o->no_color, "No colours");
  cmd->footer(
      "Where to run it: as a user of its own that owns the assignment, its secret\n"
      "and the output folder and nothing else, on a machine that holds no other data.\n"
      "Every build, test and sanitizer run of a submission runs in a sandbox\n"
      "(bubblewrap: its own user, no network, no terminal; only the submission's\n"
      "build, the toolkit and the GPU in view). grade refuses to run where none can\n"
      "be made (exit 13), unless --no-sandbox. An assignment's sanitizer tests need\n"
      "the toolkit's compute-sanitizer: where none is found, grade stops before it\n"
      "grades anything (exit 5).");
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
